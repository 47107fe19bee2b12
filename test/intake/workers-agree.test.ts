/**
 * What several workers of one account must agree on, and what a crash leaves behind: workers whose mapping profiles
 * differ are reported (log and `status`); temporary files a crash left in the outbox are removed at start.
 */
import { cpSync, mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { removeStaleTemps } from '../../src/core/atomic-write.ts';
import { createLogger } from '../../src/core/logger.ts';
import { currentMappingSets, startMappingSetWatch } from '../../src/intake/mapping-sets.ts';
import { redisKeys } from '../../src/redis/redis-keys.ts';
import { freshPrefix, useRedis } from '../helpers/redis.ts';
import { spawnCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const r = useRedis();
const dir = tempDir('rfq-agree-');
const MAPPINGS = resolve(import.meta.dirname, '../../mappings');

describe('workers of one account', () => {
  it('with different mapping profiles are reported in the log and in status', async () => {
    const prefix = freshPrefix();
    const keys = redisKeys(prefix, 'acme');
    const redis = new Redis(r.url);
    const older = join(dir, 'older-mappings');
    cpSync(MAPPINGS, older, { recursive: true });
    rmSync(join(older, 'odoo.yaml'));
    const lines: string[] = [];
    const logger = createLogger({
      level: 'info',
      pretty: false,
      destination: new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) }),
    });
    const a = await startMappingSetWatch({ redis, keys, dir: MAPPINGS, logger, worker: 'host-a:1' });
    expect(lines.filter((l) => l.includes('mappings.differ'))).toHaveLength(0);
    const b = await startMappingSetWatch({ redis, keys, dir: older, logger, worker: 'host-b:2' });
    expect(lines.filter((l) => l.includes('mappings.differ'))).toHaveLength(1);
    expect(lines.join('')).toMatch(/different mapping profiles.*host-a:1.*odoo\.yaml/);
    expect(await currentMappingSets(redis, keys)).toHaveLength(2);

    const status = spawnCli(['status'], { REDIS_URL: r.url, REDIS_PREFIX: prefix, SOURCING_ACCOUNT: 'acme' });
    expect((await status.exited).code, status.output()).toBe(0);
    expect(status.output()).toMatch(/MAPPINGS DIFFER between the workers of this account/);
    // host-b's set: the shipped profiles but odoo.yaml
    const hostB = /host-b:2: (.*)/.exec(status.output())?.[1] ?? '';
    expect(hostB).toMatch(/^banf-liste-de\.yaml dynamics-365\.yaml .*oracle-ebs\.yaml/);
    expect(hostB).not.toContain('odoo.yaml');

    b.stop();
    a.stop();
    await new Promise((res) => setTimeout(res, 100));
    expect(await currentMappingSets(redis, keys)).toHaveLength(0);
    await redis.quit();
  });

  it('temporary files a crash left in the outbox are removed at start; a young one (being written) stays', async () => {
    const comparisons = join(dir, 'outbox', 'comparisons');
    mkdirSync(comparisons, { recursive: true });
    const old = '.RFQ-7-v1.xlsx.0a1b2c3d.tmp';
    const young = '.RFQ-8-v1.xlsx.0a1b2c3e.tmp';
    writeFileSync(join(comparisons, old), 'half a workbook');
    utimesSync(join(comparisons, old), new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    writeFileSync(join(comparisons, young), 'being written');
    writeFileSync(join(comparisons, 'RFQ-6-v1.xlsx'), 'a finished workbook');
    expect(await removeStaleTemps([comparisons], 10 * 60_000)).toBe(1);
    expect(readdirSync(comparisons).sort()).toEqual([young, 'RFQ-6-v1.xlsx']);
  });
});
