/**
 * Jobs outlive deploys in Redis: what each queue module's enqueue writes (job id, name, payload, options) is pinned
 * here, byte for byte, as the code before the queue modules wrote it (recorded from commit 302242a with the same
 * inputs). A change of any of them leaves jobs in Redis that no version can run. Real Redis.
 */
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { contentHashOf } from '../../src/creation/rfq-creator.ts';
import {
  enqueueComparison,
  enqueueCreateRfq,
  enqueueIngest,
  enqueueNotify,
  enqueueOverview,
  enqueuePoll,
  enqueuePollNow,
  enqueueQuotations,
  ingestJobId,
  QUEUE_MODULES,
  quotationsReasons,
} from '../../src/queues/index.ts';
import type { Requisition } from '../../src/core/requisition.ts';
import { freshPrefix, useRedis } from '../helpers/redis.ts';

const redis = useRedis();

const r: Requisition = {
  key: 'PR 1/\u00fc',
  sourceFile: 'a.csv',
  profile: 'generic',
  title: 'T',
  due_date: 1893456000000,
  rfq_type: 'Public',
  lines: [{ external_id: 'e1', product_name: 'P', qty: 2, row: 2, unit_price: '1.5' }],
};

/** `<queue>:<job id>` and the job's hash (timestamp left out), as written before the queue modules. */
const WRITTEN: Array<[string, string]> = [
  [
    ':comparison:comparison~7~v3',
    '{"data":"{\\"rfqId\\":7,\\"version\\":3}","delay":"0","name":"comparison","opts":"{\\"jobId\\":\\"comparison~7~v3\\",\\"removeOnFail\\":false,\\"attempts\\":10}","priority":"0"}',
  ],
  [
    ':create-rfq:create~generic~PR_1_!f11ad38b362048d6fb1f~7273149a46df1e4573a52568',
    '{"data":"{\\"requisition\\":{\\"key\\":\\"PR 1/ü\\",\\"sourceFile\\":\\"a.csv\\",\\"profile\\":\\"generic\\",\\"title\\":\\"T\\",\\"due_date\\":1893456000000,\\"rfq_type\\":\\"Public\\",\\"lines\\":[{\\"external_id\\":\\"e1\\",\\"product_name\\":\\"P\\",\\"qty\\":2,\\"row\\":2,\\"unit_price\\":\\"1.5\\"}]}}","delay":"0","name":"create-rfq","opts":"{\\"jobId\\":\\"create~generic~PR_1_!f11ad38b362048d6fb1f~7273149a46df1e4573a52568\\",\\"removeOnFail\\":false,\\"attempts\\":10}","priority":"0"}',
  ],
  [
    ':create-rfq:create~generic~PR_1_!f11ad38b362048d6fb1f~7273149a46df1e4573a52568~recover~1234',
    '{"data":"{\\"requisition\\":{\\"key\\":\\"PR 1/ü\\",\\"sourceFile\\":\\"a.csv\\",\\"profile\\":\\"generic\\",\\"title\\":\\"T\\",\\"due_date\\":1893456000000,\\"rfq_type\\":\\"Public\\",\\"lines\\":[{\\"external_id\\":\\"e1\\",\\"product_name\\":\\"P\\",\\"qty\\":2,\\"row\\":2,\\"unit_price\\":\\"1.5\\"}]}}","delay":"0","name":"create-rfq","opts":"{\\"jobId\\":\\"create~generic~PR_1_!f11ad38b362048d6fb1f~7273149a46df1e4573a52568~recover~1234\\",\\"removeOnFail\\":false,\\"attempts\\":10}","priority":"0"}',
  ],
  [
    ':create-rfq:create~generic~PR_1_!f11ad38b362048d6fb1f~7273149a46df1e4573a52568~resolved~1234',
    '{"data":"{\\"requisition\\":{\\"key\\":\\"PR 1/ü\\",\\"sourceFile\\":\\"a.csv\\",\\"profile\\":\\"generic\\",\\"title\\":\\"T\\",\\"due_date\\":1893456000000,\\"rfq_type\\":\\"Public\\",\\"lines\\":[{\\"external_id\\":\\"e1\\",\\"product_name\\":\\"P\\",\\"qty\\":2,\\"row\\":2,\\"unit_price\\":\\"1.5\\"}]}}","delay":"0","name":"create-rfq","opts":"{\\"jobId\\":\\"create~generic~PR_1_!f11ad38b362048d6fb1f~7273149a46df1e4573a52568~resolved~1234\\",\\"removeOnFail\\":false,\\"attempts\\":10}","priority":"0"}',
  ],
  [
    ':ingest:ingest~aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa~20261122T030000Z-abcdef',
    '{"data":"{\\"sha256\\":\\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\\",\\"processingName\\":\\"20261122T030000Z-abcdef_x.csv\\",\\"size\\":1,\\"mtimeMs\\":2,\\"origin\\":{\\"host\\":\\"h\\",\\"folder\\":\\"f\\"}}","delay":"0","name":"ingest","opts":"{\\"jobId\\":\\"ingest~aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa~20261122T030000Z-abcdef\\",\\"removeOnFail\\":false,\\"attempts\\":10}","priority":"0"}',
  ],
  [
    ':notify:notify~it_ops!71e50a56575008f13310~m-1',
    '{"data":"{\\"route\\":\\"it ops\\",\\"message\\":\\"m-1\\"}","delay":"5","name":"notify","opts":"{\\"backoff\\":{\\"type\\":\\"exponential\\",\\"delay\\":100,\\"jitter\\":0.5},\\"removeOnFail\\":false,\\"jobId\\":\\"notify~it_ops!71e50a56575008f13310~m-1\\",\\"priority\\":10,\\"delay\\":5,\\"attempts\\":4}","priority":"10"}',
  ],
  [
    ':poll:overview~28333333',
    '{"data":"{\\"requestedAt\\":1700000000003}","delay":"39997","name":"overview","opts":"{\\"removeOnFail\\":{\\"age\\":3600},\\"jobId\\":\\"overview~28333333\\",\\"removeOnComplete\\":true,\\"delay\\":39997,\\"attempts\\":3}","priority":"0"}',
  ],
  [
    ':poll:poll~1700000000',
    '{"data":"{\\"slot\\":\\"1700000000\\",\\"scheduledAt\\":1700000000000}","delay":"500","name":"poll","opts":"{\\"jobId\\":\\"poll~1700000000\\",\\"removeOnFail\\":{\\"age\\":604800,\\"count\\":100},\\"delay\\":500,\\"attempts\\":3}","priority":"0"}',
  ],
  [
    ':poll:poll~hook~1700000000001',
    '{"data":"{\\"slot\\":\\"hook~1700000000001\\",\\"scheduledAt\\":1700000000001}","delay":"0","name":"poll","opts":"{\\"jobId\\":\\"poll~hook~1700000000001\\",\\"removeOnFail\\":{\\"age\\":604800,\\"count\\":100},\\"attempts\\":3}","priority":"0"}',
  ],
  [
    ':poll:poll~now~1700000000002',
    '{"data":"{\\"slot\\":\\"now~1700000000002\\",\\"scheduledAt\\":1700000000002}","delay":"0","name":"poll","opts":"{\\"jobId\\":\\"poll~now~1700000000002\\",\\"removeOnFail\\":{\\"age\\":604800,\\"count\\":100},\\"attempts\\":3}","priority":"0"}',
  ],
  [
    ':quotations:quotations~7~award',
    '{"data":"{\\"rfqId\\":7,\\"reason\\":\\"award\\"}","delay":"0","name":"quotations","opts":"{\\"jobId\\":\\"quotations~7~award\\",\\"removeOnFail\\":false,\\"attempts\\":10}","priority":"0"}',
  ],
  [
    ':quotations:quotations~7~check~slot9',
    '{"data":"{\\"rfqId\\":7,\\"reason\\":\\"check\\"}","delay":"0","name":"quotations","opts":"{\\"jobId\\":\\"quotations~7~check~slot9\\",\\"removeOnComplete\\":true,\\"removeOnFail\\":{\\"age\\":3600},\\"attempts\\":3}","priority":"0"}',
  ],
  [
    ':quotations:quotations~7~closed',
    '{"data":"{\\"rfqId\\":7,\\"reason\\":\\"closed\\"}","delay":"0","name":"quotations","opts":"{\\"jobId\\":\\"quotations~7~closed\\",\\"removeOnFail\\":false,\\"attempts\\":10}","priority":"0"}',
  ],
  [
    ':quotations:quotations~7~manual~slot9',
    '{"data":"{\\"rfqId\\":7,\\"reason\\":\\"manual\\"}","delay":"0","name":"quotations","opts":"{\\"jobId\\":\\"quotations~7~manual~slot9\\",\\"removeOnFail\\":false,\\"attempts\\":10}","priority":"0"}',
  ],
];

describe('job contracts', () => {
  it('every enqueue writes the same job id, name, payload and options as before', async () => {
    const prefix = freshPrefix();
    const connection = { host: '127.0.0.1', port: Number(new URL(redis.url).port) };
    const q = Object.fromEntries(
      QUEUE_MODULES.map((m) => [
        m.key,
        new Queue(m.name, { connection, prefix, defaultJobOptions: { attempts: 10, removeOnFail: false } }),
      ]),
    ) as Record<(typeof QUEUE_MODULES)[number]['key'], Queue>;
    const ctx = { queues: q, config: { OVERVIEW_REFRESH_MS: 60_000 } };
    try {
      await enqueueCreateRfq(q.createRfq, r, contentHashOf(r));
      await enqueueCreateRfq(q.createRfq, r, contentHashOf(r), { why: 'resolved', at: 1234 });
      await enqueueCreateRfq(q.createRfq, r, contentHashOf(r), { why: 'recover', at: 1234 });
      await enqueuePoll(ctx, { slot: '1700000000', scheduledAt: 1700000000000 }, 500);
      await enqueuePoll(ctx, { slot: 'hook~1700000000001', scheduledAt: 1700000000001 });
      await enqueuePollNow(ctx, 1700000000002);
      await enqueueOverview(ctx, 1700000000003);
      for (const reason of quotationsReasons) await enqueueQuotations(ctx, { rfqId: 7, reason }, 'slot9');
      await enqueueComparison(ctx, { rfqId: 7, version: 3 });
      const sha256 = 'a'.repeat(64);
      const taken = { sha256, processingName: '20261122T030000Z-abcdef_x.csv', size: 1, mtimeMs: 2 };
      await enqueueIngest(q.ingest, { ...taken, origin: { host: 'h', folder: 'f' } }, '20261122T030000Z-abcdef');
      const options = { procurementOnly: true, delayMs: 5, attempts: 4, backoffMs: 100 };
      await enqueueNotify(q.notify, { route: 'it ops', message: 'm-1' }, options);

      const client = new Redis(redis.url);
      const written: Array<[string, string]> = [];
      for (const key of (await client.keys(`${prefix}:*`)).sort()) {
        if ((await client.type(key)) !== 'hash' || key.endsWith(':meta')) continue;
        const { timestamp: _, ...hash } = await client.hgetall(key);
        written.push([key.slice(prefix.length), JSON.stringify(Object.fromEntries(Object.entries(hash).sort()))]);
      }
      await client.quit();
      expect(written).toEqual(WRITTEN);
      // a file admitted again after its job completed: the next generation of its id
      expect(ingestJobId(sha256, '20261122T030000Z-abcdef', 2)).toBe(`ingest~${sha256}~20261122T030000Z-abcdef~g2`);
    } finally {
      await Promise.all(Object.values(q).map((x) => x.close()));
    }
  });
});
