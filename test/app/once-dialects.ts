/**
 * `rfq-sync once` against one dialect of the service (the case of once-dialects.test.ts, friendly, and
 * once-dialects-docs.test.ts, docs: a file each so they run side by side).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useRedis } from '../helpers/redis.ts';
import { SAMPLES, createdFromSamples, samplesInbox } from '../helpers/samples.ts';
import { spawnCli, useOnceRun } from '../helpers/cli.ts';

/** The case for one dialect; `form`: the status filter's form it must detect. */
export function onceAgainstDialect(dialect: 'friendly' | 'docs', form: 'lower' | 'capitalised'): void {
  const redis = useRedis();
  const run = useOnceRun(() => redis.url);

  describe('rfq-sync once against both dialects, a quarter of the create answers lost', () => {
    it.each([[dialect, form]] as const)(
      '%s dialect: exits 0, exactly one RFQ per requisition, filter %s',
      { timeout: 120_000 },
      async () => {
        const { sandbox, dir } = await run.start({ seed: 11, dialect, existing: 300, pageSize: 10 }, samplesInbox());
        const handMade = sandbox.control.listAll().length;
        sandbox.setFaults({ commitThenFail: { rate: 0.25, mode: '502' } });
        const env = run.env();
        const once = spawnCli(['once'], env);
        const { code } = await once.exited;
        expect(code, once.output().slice(-3000)).toBe(0);
        expect(once.output()).toContain('once: all done');
        expect(readdirSync(join(dir, 'archive'))).toHaveLength(SAMPLES.length);

        const { rfqs: ours, externalIds, expected } = await createdFromSamples(sandbox, handMade);
        // every line of every requisition once: none lost, none in two RFQs
        expect(externalIds).toEqual(expected);
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
        expect(once.output()).toMatch(new RegExp(`sourcing dialect: filter ${form} \\(detected\\)`));

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
}
