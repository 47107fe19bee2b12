/** `rfq-sync sandbox` (the compose `sandbox` profile runs it): prints where it listens and serves the API there. */
import { describe, expect, it } from 'vitest';
import { spawnCli } from './cli-helpers.ts';

describe('rfq-sync sandbox', () => {
  it('prints its base URL and token, answers the API, stops on SIGTERM', async () => {
    const run = spawnCli(['sandbox', '--prefix', '/esourcing'], {});
    try {
      await run.waitFor(/SOURCING_TOKEN=\S+/);
      const url = /SOURCING_BASE_URL=(\S+)/.exec(run.output())![1]!;
      const token = /SOURCING_TOKEN=(\S+)/.exec(run.output())![1]!;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/esourcing$/);
      const res = await fetch(`${url}/v1/rfqs?status=open`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      expect((await fetch(`${url}/v1/rfqs?status=open`)).status).toBe(401);
      run.child.kill('SIGTERM');
      expect((await run.exited).code).toBe(0);
    } finally {
      run.child.kill('SIGKILL');
    }
  });
});
