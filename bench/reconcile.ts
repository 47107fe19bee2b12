/**
 * `npm run bench:reconcile`: requests to the service per requisition when answers get lost, in an account full of
 * hand-made RFQs: 300 existing RFQs, pages of 10, 25% of creates committed then answered 502, N = 100, 200, 400
 * requisitions, in both sandbox dialects (friendly: external_id echoed; docs: no echo, capitalised filter).
 * Counts every request the sandbox saw (creates, list pages of the walks, the dialect detection) and the walks of
 * the account. Targets (docs/development.md#reconcile-after-lost-answers-npm-run-benchreconcile): at most 2.7 requests per
 * requisition at N = 400, and requests growing at most 2.2x per doubling of N. The floor: N creates plus one walk of
 * the account (every lost answer settled by one walk).
 */
import { enqueueCreateRfq, reconcilerOf } from '../jobs/create-rfq.ts';
import { startWorker } from '../jobs/worker.ts';
import { loadConfig } from '../src/settings/config.ts';
import { silentLogger } from '../src/core/logger.ts';
import { closeWorkerContext, createWorkerContext } from '../app/runtime/worker-context.ts';
import { startEmbeddedRedis } from '../src/redis/embedded-redis.ts';
import { startSandbox } from '../src/sandbox/server.ts';
import { makeRequisitions } from '../test/helpers/fixtures.ts';

const EXISTING = 300;
const PAGE_SIZE = 10;
const LOST = 0.25;
const SIZES = [100, 200, 400];

/** Changed from their defaults (printed beside the figures): no rate limit, quick retries, a short POST deadline. */
const SETTINGS = {
  SOURCING_PAGE_CONCURRENCY: '4',
  RATE_LIMIT_PER_SECOND: '2000',
  CONCURRENCY_CREATE: '8',
  JOB_ATTEMPTS: '50',
  JOB_BACKOFF_MS: '100',
  // a lost answer is proven absent once the lists settled after its POST's deadline: a short one here
  SOURCING_CALL_DEADLINE_MS: '5000',
};

const redisServer = await startEmbeddedRedis({});

interface Row {
  dialect: string;
  n: number;
  requests: number;
  creates: number;
  pages: number;
  lost: number;
  walks: number;
  complete: number;
  exact: boolean;
  floor: number;
}

async function run(dialect: 'friendly' | 'docs', n: number): Promise<Row> {
  const sandbox = await startSandbox({ dialect, existing: EXISTING, pageSize: PAGE_SIZE, seed: n });
  const account = `bench-${dialect}-${n}`;
  const config = loadConfig({
    SOURCING_BASE_URL: sandbox.url,
    SOURCING_TOKEN: 'sandbox-token',
    REDIS_URL: redisServer.url,
    SOURCING_ACCOUNT: account,
    ...SETTINGS,
    LOG_LEVEL: 'silent',
  } as NodeJS.ProcessEnv);
  const ctx = await createWorkerContext(config, silentLogger, { redisUrl: redisServer.url, baseUrl: sandbox.url });
  const reqs = makeRequisitions(n, account);
  for (const r of reqs) await enqueueCreateRfq(ctx.queues, r);
  sandbox.resetStats();
  sandbox.setFaults({ commitThenFail: { rate: LOST, mode: '502' } });
  const worker = startWorker(ctx, { queues: ['createRfq'] });
  const deadline = Date.now() + 10 * 60_000;
  while ((await ctx.queues.createRfq.getCompletedCount()) < n) {
    if (Date.now() > deadline) throw new Error(`${dialect} N=${n}: not finished in 10 minutes`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const stats = sandbox.stats();
  const count = (op: string) => Object.values(stats.calls[op] ?? {}).reduce((a, b) => a + b, 0);
  const requests = Object.keys(stats.calls).reduce((sum, op) => sum + count(op), 0);
  const walks = await reconcilerOf(ctx).stats();
  const ours = sandbox.control.listAll().filter((r) => r.lines.some((l) => l.external_id?.startsWith(account)));
  const ids = ours.flatMap((r) => r.lines.map((l) => l.external_id));
  const exact = ours.length === n && new Set(ids).size === ids.length;
  await worker.close(5_000);
  await closeWorkerContext(ctx);
  await sandbox.stop();
  const onePass = Math.ceil((EXISTING + n) / PAGE_SIZE);
  return {
    dialect,
    n,
    requests,
    creates: count('createRfq'),
    pages: count('listRfqs'),
    lost: stats.commitThenFail,
    walks: walks.started,
    complete: walks.complete,
    exact,
    floor: (n + onePass) / n,
  };
}

const rows: Row[] = [];
for (const dialect of ['friendly', 'docs'] as const) for (const n of SIZES) rows.push(await run(dialect, n));
await redisServer.stop();

console.log(
  `bench:reconcile: ${EXISTING} hand-made RFQs, pages of ${PAGE_SIZE}, ${LOST * 100}% of creates committed then answered 502`,
);
console.log(
  `settings changed from their defaults: ${Object.entries(SETTINGS)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ')}`,
);
console.log(
  'dialect   N    requests  per req  floor  growth  creates  list pages  lost  walks (complete)  exactly once',
);
let prev: Row | undefined;
for (const r of rows) {
  const growth = prev && prev.dialect === r.dialect ? (r.requests / prev.requests).toFixed(2) + 'x' : '-';
  console.log(
    `${r.dialect.padEnd(9)} ${String(r.n).padStart(3)}  ${String(r.requests).padStart(8)}  ${(r.requests / r.n).toFixed(2).padStart(7)}  ${r.floor.toFixed(2).padStart(5)}  ${growth.padStart(6)}  ${String(r.creates).padStart(7)}  ${String(r.pages).padStart(10)}  ${String(r.lost).padStart(4)}  ${String(r.walks).padStart(5)} (${r.complete})${' '.repeat(9)}${r.exact ? 'yes' : 'NO'}`,
  );
  prev = r;
}
const at400 = rows.filter((r) => r.n === 400);
console.log(
  `targets: <= 2.7 requests per requisition at N = 400: ${at400.map((r) => `${r.dialect} ${(r.requests / r.n).toFixed(2)}`).join(', ')}; growth per doubling <= 2.2x`,
);
process.exit(0);
