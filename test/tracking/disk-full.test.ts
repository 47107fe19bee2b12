/**
 * A full disk under the outbox (a real tmpfs filled to the last block): the comparison job waits, on a back-off that
 * never gives up, instead of failing for good after its attempts; the error names the workbook's path; once space
 * returns, the workbook is written. Skipped where a tmpfs cannot be mounted (not root).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger.ts';
import { enqueuePollNow } from '../../src/queues/poll.ts';
import { pollingHarness, type PollingHarness } from '../helpers/polling.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const mnt = tempDir('rfq-diskfull-');
const canMount =
  process.getuid?.() === 0 && spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mnt]).status === 0;
const pipeline = usePipeline();
let h: PollingHarness | undefined;
afterAll(async () => {
  await h?.close();
  if (canMount) spawnSync('umount', [mnt]);
});

describe.skipIf(!canMount)('a full disk under the outbox', () => {
  it(
    'the comparison job waits for space (never fails for good), names the path, and writes the workbook once space returns',
    { timeout: 60_000 },
    async () => {
      for (const d of ['comparisons', 'awards', 'reports']) mkdirSync(join(mnt, d), { recursive: true });
      // fill the disk to its last block
      spawnSync('dd', ['if=/dev/zero', `of=${join(mnt, 'filler')}`, 'bs=4k'], { stdio: 'ignore' });
      expect(() => writeFileSync(join(mnt, 'probe'), Buffer.alloc(8192))).toThrow(/ENOSPC/);
      rmSync(join(mnt, 'probe'), { force: true });

      const logs: string[] = [];
      const logger = createLogger({
        level: 'error',
        pretty: false,
        destination: new Writable({ write: (chunk, _e, cb) => (logs.push(String(chunk)), cb()) }),
      });
      h = await pollingHarness({
        redisUrl: pipeline.redisUrl,
        sandbox: pipeline.sandbox,
        logger,
        env: { OUTBOX_DIR: mnt, JOB_ATTEMPTS: '3', JOB_BACKOFF_MS: '100' },
      });
      const id = await h.createTrackedRfq('Valves');
      const lines = pipeline.sandbox.control.getRfq(id)!.lines.map((l) => l.line_id);
      pipeline.sandbox.control.submitQuotation(id, {
        sup_name: 'Acme',
        prices: Object.fromEntries(lines.map((l) => [l, '10'])),
      });
      pipeline.sandbox.control.advance(id, 'closed');
      await enqueuePollNow(h.ctx, Date.now());

      const c = h.ctx.queues.comparison;
      // more retries than its attempts allow, and still not failed
      const deadline = Date.now() + 30_000;
      let retries = 0;
      while (Date.now() < deadline) {
        const [job] = await c.getJobs(['delayed', 'active', 'waiting']);
        retries = Number(job?.data?.diskFullRetries ?? 0);
        if (retries >= 4) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(retries).toBeGreaterThanOrEqual(4);
      expect(await c.getFailedCount()).toBe(0);
      expect(readdirSync(join(mnt, 'comparisons')).filter((n) => n.endsWith('.xlsx'))).toEqual([]);
      const said = logs.find((l) => l.includes('"disk.full"'));
      expect(said).toMatch(
        new RegExp(`${join(mnt, 'comparisons').replace(/[/.-]/g, '\\$&')}/[^"]*\\.xlsx: the disk is full \\(ENOSPC\\)`),
      );

      rmSync(join(mnt, 'filler')); // space returns
      const written = Date.now() + 40_000;
      while (Date.now() < written && !readdirSync(join(mnt, 'comparisons')).some((n) => n.endsWith('.xlsx')))
        await new Promise((r) => setTimeout(r, 200));
      expect(readdirSync(join(mnt, 'comparisons')).filter((n) => n.endsWith('.xlsx'))).toHaveLength(1);
      expect(readdirSync(join(mnt, 'comparisons')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
      expect(await c.getFailedCount()).toBe(0);
      expect(existsSync(mnt)).toBe(true);
    },
  );
});
