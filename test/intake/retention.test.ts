/**
 * Retention (RETENTION_DAYS, OUTBOX_RETENTION_DAYS): what is older goes, what is younger or still in use stays, and
 * `status` reports the last run. Real Redis, real files.
 */
import { mkdirSync, utimesSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/logger.ts';
import { redisKeys } from '../../src/redis/redis-keys.ts';
import { lastRetention, runRetention } from '../../src/outbox/retention.ts';
import { Redis } from 'ioredis';
import { useRedis } from '../helpers/redis.ts';
import { testConfig } from '../helpers/intake.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const r = useRedis();
const dir = tempDir('rfq-inbox-');
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 25, 3, 30);
const token = (ms: number, hex: string) =>
  `${new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}-${hex}`;

describe('retention', () => {
  it('removes what is older than the setting, keeps the rest and what is in use, and says so in the last run', async () => {
    const config = testConfig(dir, { RETENTION_DAYS: '30', OUTBOX_RETENTION_DAYS: '0' });
    const f = config.folders;
    for (const d of [f.archive, f.failed, f.reports, f.comparisons, f.awards]) mkdirSync(d, { recursive: true });
    const old = `${token(NOW - 40 * DAY, 'aaaaaa')}_old.csv`;
    const young = `${token(NOW - 5 * DAY, 'bbbbbb')}_young.csv`;
    writeFileSync(join(f.archive, old), 'x');
    writeFileSync(join(f.archive, young), 'x');
    writeFileSync(join(f.failed, `${token(NOW - 31 * DAY, 'cccccc')}_bad.csv`), 'x');
    // a report has no take time in its name: its mtime counts
    writeFileSync(join(f.reports, 'old.report.xlsx'), 'x');
    utimesSync(join(f.reports, 'old.report.xlsx'), new Date(NOW - 60 * DAY), new Date(NOW - 60 * DAY));
    writeFileSync(join(f.reports, 'new.report.xlsx'), 'x');
    utimesSync(join(f.reports, 'new.report.xlsx'), new Date(NOW - DAY), new Date(NOW - DAY));
    // comparisons are procurement's: kept while OUTBOX_RETENTION_DAYS is 0, however old
    writeFileSync(join(f.comparisons, 'RFQ-1-v1.xlsx'), 'x');
    utimesSync(join(f.comparisons, 'RFQ-1-v1.xlsx'), new Date(NOW - 400 * DAY), new Date(NOW - 400 * DAY));

    const redis = new Redis(r.url);
    const keys = redisKeys(config.REDIS_PREFIX, config.account);
    await redis.hset(
      keys.fileLedger,
      'sha-old',
      JSON.stringify({ state: 'done', owner: old, name: 'old.csv', seenAt: NOW - 40 * DAY, doneAt: NOW - 40 * DAY }),
    );
    await redis.hset(
      keys.fileLedger,
      'sha-young',
      JSON.stringify({ state: 'done', owner: young, name: 'young.csv', seenAt: NOW - 5 * DAY, doneAt: NOW - 5 * DAY }),
    );
    // taken long ago and still being processed: never removed
    await redis.hset(
      keys.fileLedger,
      'sha-busy',
      JSON.stringify({ state: 'processing', owner: 'x', name: 'busy.csv', seenAt: NOW - 90 * DAY }),
    );

    const result = await runRetention({ config, redis, keys, logger: silentLogger, now: NOW });
    expect(result.removed).toEqual({ archive: 1, failed: 1, reports: 1, comparisons: 0, awards: 0, ledger: 1 });
    expect(readdirSync(f.archive)).toEqual([young]);
    expect(readdirSync(f.failed)).toEqual([]);
    expect(readdirSync(f.reports)).toEqual(['new.report.xlsx']);
    expect(readdirSync(f.comparisons)).toEqual(['RFQ-1-v1.xlsx']);
    expect(Object.keys(await redis.hgetall(keys.fileLedger)).sort()).toEqual(['sha-busy', 'sha-young']);
    expect(await lastRetention(redis, keys)).toEqual(result);

    // with OUTBOX_RETENTION_DAYS the old comparison goes too
    const again = await runRetention({
      config: { ...config, OUTBOX_RETENTION_DAYS: 365 },
      redis,
      keys,
      logger: silentLogger,
      now: NOW,
    });
    expect(again.removed.comparisons).toBe(1);
    await redis.quit();
  });

  it('with RETENTION_DAYS=0 (the default) nothing is removed', async () => {
    const config = testConfig(join(dir, 'keep'));
    mkdirSync(config.folders.archive, { recursive: true });
    writeFileSync(join(config.folders.archive, `${token(NOW - 4000 * DAY, 'dddddd')}_ancient.csv`), 'x');
    const redis = new Redis(r.url);
    const result = await runRetention({
      config,
      redis,
      keys: redisKeys(config.REDIS_PREFIX, config.account),
      logger: silentLogger,
      now: NOW,
    });
    expect(Object.values(result.removed).every((n) => n === 0)).toBe(true);
    expect(readdirSync(config.folders.archive)).toHaveLength(1);
    await redis.quit();
  });
});
