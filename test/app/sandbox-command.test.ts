/** `rfq-sync sandbox` (the compose `sandbox` profile runs it): prints where it listens and serves the API there. */
import { describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/cli.ts';

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

describe('rfq-sync sandbox --shapes', () => {
  it('legacy: says so and answers in the older shapes; an unknown shape exits 2', async () => {
    const run = spawnCli(['sandbox', '--shapes', 'legacy'], {});
    try {
      await run.waitFor(/SOURCING_TOKEN=\S+/);
      expect(run.output()).toContain('shapes legacy');
      const url = /SOURCING_BASE_URL=(\S+)/.exec(run.output())![1]!;
      const headers = { authorization: 'Bearer sandbox-token', 'content-type': 'application/json' };
      const body = {
        title: 'T',
        due_date: '1893456000000',
        rfq_type: 'Public',
        lines: [{ product_name: 'P', qty: 1 }],
      };
      expect((await fetch(`${url}/v1/rfqs`, { method: 'POST', headers, body: JSON.stringify(body) })).status).toBe(201);
      const listed = (await (await fetch(`${url}/v1/rfqs`, { headers })).json()) as {
        rfqs: Array<{ invitation: unknown }>;
      };
      expect(listed.rfqs[0]!.invitation).toEqual({});
      run.child.kill('SIGTERM');
      expect((await run.exited).code).toBe(0);
    } finally {
      run.child.kill('SIGKILL');
    }
    const bad = spawnCli(['sandbox', '--shapes', 'mongo'], {});
    expect((await bad.exited).code).toBe(2);
    expect(bad.output()).toContain(
      "option '--shapes <name>' argument 'mongo' is invalid. Allowed choices are current, legacy.",
    );
  });
});
