/**
 * What workers learn of the account's dialect (the echo, the edit call, the list lag) is kept, whoever learns it at
 * the same time: every worker reads the stored dialect and writes it back, and a write made from a read that another
 * learn has since changed would lose that learn (seen: header-push.test.ts found `edit: unknown` after the edit call
 * was used, when the list lag measured after the first create was stored at the same moment).
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createDialectSource, type DialectSource } from '../../src/account/dialect-store.ts';
import { silentLogger } from '../../src/core/logger.ts';
import { redisKeys } from '../../src/redis/redis-keys.ts';
import type { Dialect } from '../../src/sourcing/dialect.ts';
import { freshPrefix, useRedis } from '../helpers/redis.ts';

const redisServer = useRedis();
let redis: Redis | undefined;
afterEach(() => {
  redis?.disconnect();
  redis = undefined;
});

const stored: Dialect = {
  filter: 'lower',
  filterBasis: 'detected',
  unfiltered: 'yes',
  echo: 'unknown',
  detail: 'yes',
  edit: 'unknown',
  unknownLabels: [],
  evidence: ['filter: status (a test)'],
  detectedAt: Date.now(),
};

function source(port?: Parameters<typeof createDialectSource>[0]['port']): DialectSource {
  redis = new Redis(redisServer.url);
  const keys = redisKeys(freshPrefix(), 'acct');
  void redis.set(keys.key('dialect'), JSON.stringify(stored));
  return createDialectSource({
    redis,
    keys,
    // never called unless given: a dialect is stored and fresh
    port: port ?? {
      async *listRfqPages() {
        throw new Error('no detection expected');
      },
      getRfq: () => Promise.reject(new Error('no detection expected')),
    },
    settings: {
      SOURCING_STATUS_FILTER: 'auto',
      SOURCING_EXTERNAL_ID_ECHO: 'auto',
      SOURCING_EDIT_CALL: 'auto',
      SOURCING_DETAIL_CALL: 'auto',
    },
    logger: silentLogger,
  });
}

describe('the dialect store', () => {
  it('keeps every fact learned at the same moment (the edit call, the echo, the list lag)', async () => {
    const d = source();
    await Promise.all([
      d.learn({ edit: 'yes', evidence: 'edit call: yes (a test)' }),
      d.learn({ listLagMs: 1200, evidence: 'list lag: 1200 ms (a test)' }),
      d.learn({ echo: 'no', evidence: 'external_id echo: no (a test)' }),
    ]);
    const now = await d.stored();
    expect(now).toMatchObject({ edit: 'yes', echo: 'no', listLagMs: 1200 });
    expect(now!.evidence).toEqual(
      expect.arrayContaining([
        'edit call: yes (a test)',
        'list lag: 1200 ms (a test)',
        'external_id echo: no (a test)',
      ]),
    );
  });

  it('a detection stored after a learn keeps what was learned while it read the lists', async () => {
    let learnNow: () => void = () => undefined;
    const learned = new Promise<void>((resolve) => (learnNow = resolve));
    let release: () => void = () => undefined;
    const stored = new Promise<void>((resolve) => (release = resolve));
    // an empty account whose first list page is answered only once a worker has learned the edit call
    const d = source({
      async *listRfqPages() {
        learnNow();
        await stored;
        yield { page: 1, rfqs: [], listSize: 0, lastPage: 1 };
      },
      getRfq: () => Promise.reject(new Error('no RFQ to read')),
    });
    const detection = d.refresh();
    await learned;
    await d.learn({ edit: 'yes', evidence: 'edit call: yes (learned during the detection)' });
    release();
    await detection;
    const now = await d.stored();
    expect(now?.edit).toBe('yes');
    expect(now?.evidence).toContain('edit call: yes (learned during the detection)');
  });
});
