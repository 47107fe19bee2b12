/**
 * Done-file pickup (INBOX_DONE_SUFFIX, docs/notifications.md#done-file-pickup): an export is taken only once its marker
 * `<name><suffix>` exists, whatever its size does; the marker goes with it; a marker alone is ignored. A marker as new
 * as its file vouches for it (taken at once, even with a long FILE_STABLE_MS); one that came before its file does
 * not (the stability check decides). Without the setting, today's stability check is all (test/intake/
 * inbox-watcher.test.ts). Real Redis and the real file system; the ingest jobs the watcher enqueues are looked at.
 */
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useRedis } from '../helpers/redis.ts';
import { ls } from '../helpers/files.ts';
import { sleep, waitFor } from '../helpers/wait.ts';
import { useIntakes, type TestIntake } from '../helpers/intake.ts';

const r = useRedis();
const intakes = useIntakes(() => r.url);

function setup(env: Record<string, string>): TestIntake {
  const ctx = intakes.open({ INBOX_DONE_SUFFIX: '.done', ...env });
  mkdirSync(ctx.config.folders.inbox, { recursive: true });
  return ctx;
}

async function takenNames(ctx: TestIntake): Promise<string[]> {
  const jobs = await ctx.queues.ingest.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed', 'prioritized']);
  return jobs.map((j) => String((j.data as { processingName: string }).processingName).replace(/^[^_]+_/, '')).sort();
}

describe('done-file pickup', () => {
  it('a file waits for its marker however long it has been still; a marker long after: taken, marker removed', async () => {
    const ctx = setup({ FILE_STABLE_MS: '100' });
    const inbox = ctx.config.folders.inbox;
    const w = await intakes.watch(ctx, { schedule: false });
    writeFileSync(join(inbox, 'slow-erp.csv'), 'a,b\n1,2\n');
    writeFileSync(join(inbox, 'orphan.csv.done'), ''); // a marker alone
    await sleep(800); // sleep: eight times FILE_STABLE_MS: stable, but no marker (time is tested)
    await w.sweep();
    expect(ls(inbox)).toEqual(['orphan.csv.done', 'slow-erp.csv']);
    expect(await takenNames(ctx)).toEqual([]);

    writeFileSync(join(inbox, 'slow-erp.csv.done'), '');
    await waitFor('the file taken', async () => (await takenNames(ctx)).length === 1);
    expect(await takenNames(ctx)).toEqual(['slow-erp.csv']);
    await waitFor('the marker removed with it', () => ls(inbox).length === 1);
    expect(ls(inbox)).toEqual(['orphan.csv.done']);
  });

  it('a marker as new as its file vouches for it: taken at once, FILE_STABLE_MS of a minute notwithstanding', async () => {
    const ctx = setup({ FILE_STABLE_MS: '60000' });
    const inbox = ctx.config.folders.inbox;
    await intakes.watch(ctx, { schedule: false });
    writeFileSync(join(inbox, 'export.csv'), 'a,b\n1,2\n');
    writeFileSync(join(inbox, 'export.csv.done'), '');
    await waitFor('taken', async () => (await takenNames(ctx)).length === 1, 5_000);
    await waitFor('inbox empty', () => ls(inbox).length === 0);
  });

  it('a marker that came before its file does not vouch for it: the file is taken once stable, marker removed', async () => {
    const ctx = setup({ FILE_STABLE_MS: '400' });
    const inbox = ctx.config.folders.inbox;
    writeFileSync(join(inbox, 'early.csv.done'), '');
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(inbox, 'early.csv.done'), past, past);
    const w = await intakes.watch(ctx, { schedule: false });
    writeFileSync(join(inbox, 'early.csv'), 'a,b\n');
    const t0 = Date.now();
    void w.sweep();
    await sleep(150);
    writeFileSync(join(inbox, 'early.csv'), 'a,b\n1,2\n'); // still being written
    await waitFor('taken once stable', async () => (await takenNames(ctx)).length === 1, 10_000);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(400);
    const [job] = await ctx.queues.ingest.getJobs(['waiting', 'completed', 'active', 'delayed']);
    expect((job!.data as { size: number }).size).toBe(8); // the whole file, not the half taken early
    await waitFor('inbox empty', () => ls(inbox).length === 0);
  });
});
