/**
 * `rfq-sync once` against each dialect of the service, as the real service was tried: three ERP exports, an account
 * holding 300 hand-made RFQs, pages of 10, and a quarter of the creates committed then answered 502. `once` finishes
 * (exit 0) and every requisition has exactly one RFQ; the docs dialect's capitalised filter is the one detected.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.ts';
import { freshPrefix, useRedis } from '../helpers/redis.ts';
import { sampleExternalIds } from '../helpers/samples.ts';
import { spawnCli } from './cli-helpers.ts';

const redis = useRedis();
const SAMPLES = ['generic-template.csv', 'ME5A_export_EN.csv', 'EBS_requisition_lines.csv'];
const COMPANY = 'Sandbox Buyer Ltd';

let sandbox: Sandbox | undefined;
let dir: string | undefined;
afterEach(async () => {
  await sandbox?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  sandbox = dir = undefined;
});

describe('rfq-sync once against both dialects, a quarter of the create answers lost', () => {
  it.each([
    ['friendly', 'lower'],
    ['docs', 'capitalised'],
  ] as const)(
    '%s dialect: exits 0, exactly one RFQ per requisition, filter %s',
    { timeout: 120_000 },
    async (dialect, form) => {
      sandbox = await startSandbox({ seed: 11, dialect, existing: 300, pageSize: 10 });
      const handMade = sandbox.control.listAll().length;
      sandbox.setFaults({ commitThenFail: { rate: 0.25, mode: '502' } });
      dir = mkdtempSync(join(tmpdir(), 'rfq-once-dialect-'));
      mkdirSync(join(dir, 'inbox'));
      for (const f of SAMPLES) copyFileSync(resolve(import.meta.dirname, '../../samples', f), join(dir, 'inbox', f));

      const env = {
        RFQ_SYNC_DIR: dir,
        REDIS_URL: redis.url,
        REDIS_PREFIX: freshPrefix(),
        SOURCING_BASE_URL: sandbox.url,
        SOURCING_TOKEN: 'sandbox-token',
        HTTP_PORT: '0',
        FILE_STABLE_MS: '100',
        SOURCING_CONNECT_TIMEOUT_MS: '1000',
        JOB_BACKOFF_MS: '200',
        RATE_LIMIT_PER_SECOND: '200',
      };
      const run = spawnCli(['once'], env);
      const { code } = await run.exited;
      expect(code, run.output().slice(-3000)).toBe(0);
      expect(run.output()).toContain('once: all done');
      expect(readdirSync(join(dir, 'archive'))).toHaveLength(SAMPLES.length);

      const ours = sandbox.control
        .listAll()
        .filter((r) => r.company === COMPANY)
        .slice(handMade);
      const extIds = ours.flatMap((r) => r.lines.map((l) => l.external_id ?? ''));
      // every line of every requisition once: none lost, none in two RFQs
      expect(extIds.sort()).toEqual(await sampleExternalIds(SAMPLES));
      const stats = sandbox.stats();
      expect(stats.commitThenFail).toBeGreaterThan(0);
      expect(stats.rfqsCreated).toBe(ours.length); // nothing posted twice
      const requests = Object.values(stats.calls).reduce(
        (n, byStatus) => n + Object.values(byStatus).reduce((a, b) => a + b, 0),
        0,
      );
      console.log(
        `once (${dialect}): ${ours.length} RFQs, ${stats.commitThenFail} lost answers, ${requests} requests (${(requests / ours.length).toFixed(2)} per requisition)`,
      );
      expect(run.output()).toMatch(new RegExp(`sourcing dialect: filter ${form} \\(detected\\)`));

      // doctor detects again and keeps what the run learned (the echo from our own RFQs in the walks)
      const doctor = spawnCli(['doctor'], env);
      expect((await doctor.exited).code, doctor.output()).toBe(0);
      const said = doctor.output();
      expect(said).toMatch(new RegExp(`status filter: +${form} \\(detected\\)`));
      expect(said).toMatch(/unfiltered list: +yes/);
      expect(said).toMatch(new RegExp(`external_id echo: +${dialect === 'docs' ? 'no' : 'yes'}`));
      expect(said).toMatch(new RegExp(`detail call: +${dialect === 'docs' ? 'yes' : 'no'}`));
      expect(said).toMatch(new RegExp(`form ${form}: .*proven`));
    },
  );
});
