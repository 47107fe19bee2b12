/**
 * The sandbox: an HTTP emulator of the sourcing service (docs/architecture.md#the-interface) for local use, the
 * demo and the tests. Bearer accounts, the three operations as the spec shows them (lines as a map of string
 * numbers, links/meta pagination), a control API under `/_sandbox/` for what the spec leaves to people (close,
 * cancel, complete, quotations, decisions, winner), fault injection, an optional state file and an autopilot.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Decimal } from 'decimal.js';
import { z } from 'zod';
import { SandboxError } from '../errors.ts';
import { wireCreateRfqSchema, wireEditRfqSchema } from './wire-schemas.ts';
import { startAutopilot, type AutopilotOptions } from './autopilot.ts';
import { FaultInjector, seededRandom, type SandboxFaults } from './faults.ts';
import {
  RFQ_STATES,
  STATUS_TEXT,
  SandboxStore,
  type QuotationInput,
  type RfqState,
  type StoredQuotation,
  type StoredRfq,
} from './store.ts';

export type { SandboxFaults } from './faults.ts';
export type { AutopilotOptions } from './autopilot.ts';
export type { QuotationInput, RfqState, StoredQuotation, StoredRfq } from './store.ts';

export interface SandboxOptions {
  /** Default 0 (a free port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** token -> company name; default { 'sandbox-token': 'Sandbox Buyer Ltd' }. */
  accounts?: Record<string, string>;
  /** Known tokens whose account is suspended: answered 403. */
  disabledTokens?: string[];
  /** Default 20. */
  pageSize?: number;
  /** Path prefix before /v1, e.g. '/esourcing'; default ''. */
  prefix?: string;
  faults?: SandboxFaults;
  /** Loaded at start, saved (atomically, debounced) on change. */
  stateFile?: string;
  autopilot?: AutopilotOptions | null;
  /** Deterministic randomness (faults, autopilot prices). */
  seed?: number;
  /** Render links.next/last on this foreign origin (tests). */
  linksOrigin?: string;
  /**
   * `friendly` (default): the interface read kindly: lower-case filter (anything else 400), external_id
   * echoed in lists, no detail or edit call. `docs`: the real service's public documentation: only `Open`,
   * `Closed`, `Cancelled`, `Completed` filter (any other value lists the whole account), no external_id in lists,
   * GET /v1/rfqs/{id} (lower-case state) and PUT /v1/rfqs/{id} (header edit). Both list the whole account without
   * a filter. See docs/architecture.md#the-sandboxs-dialects.
   */
  dialect?: 'friendly' | 'docs';
  /** Hand-made RFQs (no external_ids) seeded per account at start. Default 0. */
  existing?: number;
}

export interface SandboxStats {
  /** operation -> status (number, or `drop` / `stall`) -> count. */
  calls: Record<string, Record<string, number>>;
  rfqsCreated: number;
  /** RFQs held per account (company), all states. */
  rfqsPerAccount: Record<string, number>;
  /** Arrival times (ms) of API calls (the last 100 000). */
  requestTimes: number[];
  /** Most API calls that arrived within any 1 s window. */
  maxPerSecond: number;
  sent429: number;
  commitThenFail: number;
}

export interface SandboxControl {
  /** Every RFQ of every account (copies). */
  listAll(): StoredRfq[];
  getRfq(id: number): StoredRfq | undefined;
  advance(id: number, to: RfqState): StoredRfq;
  submitQuotation(id: number, q: QuotationInput): StoredQuotation;
  decide(id: number, quotationKey: string, qualified: boolean): StoredQuotation;
  pickWinner(id: number, quotationKey: string): StoredRfq;
  setFaults(f: SandboxFaults): void;
  getFaults(): SandboxFaults;
  stats(): SandboxStats;
  resetStats(): void;
  /** Run the autopilot once now (no-op without autopilot). */
  autopilotTick(): void;
}

export interface Sandbox {
  /** Base URL including the prefix, e.g. http://127.0.0.1:PORT/esourcing. */
  url: string;
  dialect: 'friendly' | 'docs';
  port: number;
  setFaults(f: SandboxFaults): void;
  stats(): SandboxStats;
  resetStats(): void;
  control: SandboxControl;
  stop(): Promise<void>;
}

export const DEFAULT_SANDBOX_TOKEN = 'sandbox-token';
const MAX_BODY_BYTES = 1024 * 1024;
const MAX_TIMES = 100_000;

const faultsSchema = z.strictObject({
  latencyMs: z.number().nonnegative().optional(),
  errorRate: z.number().min(0).max(1).optional(),
  rateLimit: z
    .object({ burst: z.number().int().nonnegative(), retryAfterSeconds: z.number().nonnegative() })
    .nullable()
    .optional(),
  maxRequestsPerSecond: z.number().positive().nullable().optional(),
  commitThenFail: z
    .object({
      rate: z.number().min(0).max(1),
      mode: z.enum(['502', 'drop', 'stall', 'mixed']),
      stallMs: z.number().nonnegative().optional(),
    })
    .nullable()
    .optional(),
  invalidJsonRate: z.number().min(0).max(1).optional(),
  schemaBreakRate: z.number().min(0).max(1).optional(),
  down: z.boolean().optional(),
});

export async function startSandbox(o: SandboxOptions = {}): Promise<Sandbox> {
  const accounts = o.accounts ?? { [DEFAULT_SANDBOX_TOKEN]: 'Sandbox Buyer Ltd' };
  const disabled = new Set(o.disabledTokens ?? []);
  const pageSize = Math.max(1, o.pageSize ?? 20);
  const prefix = (o.prefix ?? '').replace(/\/+$/, '');
  const random = seededRandom(o.seed ?? Math.floor(Math.random() * 2 ** 31));
  const faults = new FaultInjector(o.faults ?? {}, random);
  const store = new SandboxStore({ stateFile: o.stateFile });
  await store.load();
  const dialect = o.dialect ?? 'friendly';
  const docs = dialect === 'docs';
  for (const company of new Set(Object.values(accounts))) store.seedHandMade(company, o.existing ?? 0, random);
  const autopilot = o.autopilot ? startAutopilot(store, o.autopilot, random) : undefined;

  let calls: SandboxStats['calls'] = {};
  let times: number[] = [];
  let rfqsCreated = 0;
  let sent429 = 0;
  let commitFailures = 0;
  const count = (op: string, status: number | string) => {
    const byStatus = (calls[op] ??= {});
    byStatus[String(status)] = (byStatus[String(status)] ?? 0) + 1;
    if (status === 429) sent429++;
  };
  const stats = (): SandboxStats => ({
    calls: structuredClone(calls),
    rfqsCreated,
    rfqsPerAccount: store.countByCompany(),
    requestTimes: [...times],
    maxPerSecond: maxInWindow(times, 1000),
    sent429,
    commitThenFail: commitFailures,
  });
  const resetStats = () => {
    calls = {};
    times = [];
    rfqsCreated = 0;
    sent429 = 0;
    commitFailures = 0;
  };

  const control: SandboxControl = {
    listAll: () => structuredClone(store.all()),
    getRfq: (id) => {
      const r = store.get(id);
      return r ? structuredClone(r) : undefined;
    },
    advance: (id, to) => structuredClone(store.advance(id, to)),
    submitQuotation: (id, q) => structuredClone(store.submitQuotation(id, q)),
    decide: (id, key, qualified) => structuredClone(store.decide(id, key, qualified)),
    pickWinner: (id, key) => structuredClone(store.pickWinner(id, key)),
    setFaults: (f) => faults.set(faultsSchema.parse(f)),
    getFaults: () => faults.get(),
    stats,
    resetStats,
    autopilotTick: () => autopilot?.tick(),
  };

  const timers = new Set<NodeJS.Timeout>();
  const delay = (ms: number) =>
    new Promise<void>((resolve) => {
      if (ms <= 0) return resolve();
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  // ------------------------------------------------------------ API

  async function api(req: IncomingMessage, res: ServerResponse, url: URL, path: string): Promise<void> {
    const method = req.method ?? 'GET';
    const detailMatch = /^\/v1\/rfqs\/([^/]+)\/?$/.exec(path);
    const op =
      path === '/v1/rfqs'
        ? method === 'POST'
          ? 'createRfq'
          : 'listRfqs'
        : path.startsWith('/v1/quotations/')
          ? 'listQuotations'
          : detailMatch && docs
            ? method === 'PUT'
              ? 'editRfq'
              : 'getRfq'
            : 'other';
    const now = Date.now();
    times.push(now);
    if (times.length > MAX_TIMES) times = times.slice(-MAX_TIMES / 2);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      count(op, status);
      sendJson(res, status, body, headers);
    };

    const rejection = faults.beforeCall(now);
    await delay(faults.latencyMs);
    if (rejection) {
      const headers: Record<string, string> =
        rejection.retryAfterSeconds !== undefined ? { 'retry-after': String(rejection.retryAfterSeconds) } : {};
      const error = rejection.status === 429 ? 'too_many_requests' : 'service_unavailable';
      return send(rejection.status, { error, message: rejection.reason }, headers);
    }

    const auth = req.headers.authorization ?? '';
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    const token = m?.[1];
    const company = token !== undefined ? accounts[token] : undefined;
    if (company === undefined) return send(401, { error: 'unauthorized', message: 'missing or unknown bearer token' });
    if (token !== undefined && disabled.has(token))
      return send(403, { error: 'forbidden', message: 'account suspended' });

    if (path === '/v1/rfqs' && method === 'POST') {
      let body: unknown;
      try {
        body = JSON.parse(await readBody(req));
      } catch (err) {
        if (err instanceof SandboxError) return send(err.status, { error: 'payload_too_large', message: err.message });
        return send(400, { error: 'bad_request', message: 'body is not valid JSON' });
      }
      const parsed = wireCreateRfqSchema.safeParse(body);
      if (!parsed.success) {
        return send(400, {
          error: 'validation_failed',
          message: 'the RFQ is invalid',
          issues: parsed.error.issues.slice(0, 50).map((i) => ({ path: i.path.join('.'), message: i.message })),
        });
      }
      const rfq = store.create(company, parsed.data);
      rfqsCreated++;
      const lost = faults.commitThenFail();
      if (lost) {
        commitFailures++;
        if (lost.mode === '502') return send(502, { error: 'bad_gateway', message: 'upstream connection closed' });
        count(op, lost.mode);
        if (lost.mode === 'stall') await delay(lost.stallMs);
        req.socket.destroy();
        return;
      }
      return send(201, { rfq: { _id: rfq._id } });
    }

    if (detailMatch && docs) {
      const id = /^\d+$/.test(detailMatch[1]!) ? Number(detailMatch[1]) : NaN;
      const found = Number.isSafeInteger(id) ? store.get(id) : undefined;
      if (!found || found.company !== company)
        return send(404, { error: 'not_found', message: `no RFQ ${detailMatch[1]}` });
      if (method === 'PUT') {
        let body: unknown;
        try {
          body = JSON.parse(await readBody(req));
        } catch {
          return send(400, { error: 'bad_request', message: 'body is not valid JSON' });
        }
        const parsed = wireEditRfqSchema.safeParse(body);
        if (!parsed.success)
          return send(400, {
            error: 'validation_failed',
            message: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
          });
        store.edit(id, company, parsed.data);
        return send(201, { rfq: { _id: id } });
      }
      if (method !== 'GET') return send(405, { error: 'method_not_allowed', message: `${method} ${path}` });
      if (faults.invalidJson()) return sendBroken(res, () => count(op, 200));
      const rendered = renderRfq(found, false, false);
      return send(200, { rfq: { ...rendered, status: found.state } });
    }

    if (method !== 'GET') return send(405, { error: 'method_not_allowed', message: `${method} ${path}` });

    if (path === '/v1/rfqs') {
      const asked = url.searchParams.get('status');
      // docs: only the capitalised values filter; any other value is ignored (the whole account, as a filter the
      // service does not recognise may be)
      const docsState = asked !== null && docs ? RFQ_STATES.find((st) => STATUS_TEXT_FILTER(st) === asked) : undefined;
      const status = docs ? (docsState ?? null) : asked;
      // without a filter: every RFQ of the account (the real service documents it)
      if (status !== null && !RFQ_STATES.includes(status as RfqState)) {
        return send(400, { error: 'bad_request', message: 'status must be one of open, closed, cancelled, completed' });
      }
      const pageParam = url.searchParams.get('page');
      if (pageParam !== null && !/^[1-9]\d{0,8}$/.test(pageParam))
        return send(400, { error: 'bad_request', message: 'page must be a positive integer' });
      const page = pageParam === null ? 1 : Number(pageParam);
      const all = status === null ? store.listAllFor(company) : store.listFor(company, status as RfqState);
      const last = Math.max(1, Math.ceil(all.length / pageSize));
      const slice = all.slice((page - 1) * pageSize, page * pageSize);
      const linkBase = `${o.linksOrigin ?? `http://${req.headers.host ?? 'localhost'}`}${prefix}/v1/rfqs?${asked === null ? '' : `status=${encodeURIComponent(asked)}&`}page=`;
      if (faults.invalidJson()) return sendBroken(res, () => count(op, 200));
      return send(200, {
        rfqs: slice.map((r) => renderRfq(r, faults.schemaBreak(), !docs)),
        links: { next: page < last ? `${linkBase}${page + 1}` : null, last: `${linkBase}${last}` },
        meta: { total: all.length },
      });
    }

    const qm = /^\/v1\/quotations\/([^/]+)(?:\/([^/]+))?\/?$/.exec(path);
    if (qm) {
      const id = /^\d+$/.test(qm[1]!) ? Number(qm[1]) : NaN;
      const rfq = Number.isSafeInteger(id) ? store.get(id) : undefined;
      if (!rfq || rfq.company !== company) return send(404, { error: 'not_found', message: `no RFQ ${qm[1]}` });
      const statusParam = url.searchParams.get('status');
      if (statusParam !== null && statusParam !== 'success')
        return send(400, { error: 'bad_request', message: 'status must be success' });
      let list = rfq.quotations;
      if (qm[2] !== undefined) {
        const key = decodeURIComponent(qm[2]);
        list = list.filter((q) => String(q.quotation_key) === key);
        if (list.length === 0)
          return send(404, { error: 'not_found', message: `no quotation ${key} on RFQ ${rfq._id}` });
      }
      if (statusParam === 'success')
        list = list.filter((q) => rfq.winner !== undefined && String(q.quotation_key) === rfq.winner);
      const fieldsParam = url.searchParams.get('fields');
      const fields = fieldsParam
        ? fieldsParam
            .split(',')
            .map((f) => f.trim())
            .filter(Boolean)
        : undefined;
      if (faults.invalidJson()) return sendBroken(res, () => count(op, 200));
      return send(200, {
        rfq: { id: rfq._id },
        quotations: list.map((q) => pick(renderQuotation(q, faults.schemaBreak()), fields)),
      });
    }
    return send(404, { error: 'not_found', message: `no such endpoint: ${path}` });
  }

  // ------------------------------------------------------------ control API

  async function controlApi(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (!isLoopback(req.socket.remoteAddress))
      return sendJson(res, 403, { error: 'forbidden', message: 'control API is loopback only' });
    const method = req.method ?? 'GET';
    const body = async (): Promise<Record<string, unknown>> => {
      const text = await readBody(req);
      if (text.trim() === '') return {};
      const v = JSON.parse(text) as unknown;
      if (!v || typeof v !== 'object' || Array.isArray(v)) throw new SandboxError(400, 'body must be a JSON object');
      return v as Record<string, unknown>;
    };
    const parts = path.split('/').filter(Boolean).slice(1); // after _sandbox
    const id = parts[1] !== undefined ? Number(parts[1]) : NaN;
    try {
      if (parts[0] === 'rfqs' && parts.length === 1 && method === 'GET')
        return sendJson(res, 200, { rfqs: control.listAll() });
      if (parts[0] === 'rfqs' && parts.length === 2 && method === 'GET') return sendJson(res, 200, store.mustGet(id));
      if (parts[0] === 'rfqs' && parts[2] === 'advance' && method === 'POST') {
        const b = await body();
        return sendJson(res, 200, control.advance(id, String(b.to ?? b.state) as RfqState));
      }
      if (parts[0] === 'rfqs' && parts[2] === 'quotations' && parts.length === 3 && method === 'POST') {
        return sendJson(res, 201, control.submitQuotation(id, (await body()) as unknown as QuotationInput));
      }
      if (parts[0] === 'rfqs' && parts[2] === 'quotations' && parts[4] === 'decision' && method === 'POST') {
        const b = await body();
        const qualified = b.qualified ?? (b.status === undefined ? undefined : b.status === 'qualified');
        if (typeof qualified !== 'boolean')
          throw new SandboxError(400, 'give {"qualified": true|false} or {"status": "qualified"|"not qualified"}');
        return sendJson(res, 200, control.decide(id, decodeURIComponent(parts[3]!), qualified));
      }
      if (parts[0] === 'rfqs' && parts[2] === 'winner' && method === 'POST') {
        const b = await body();
        if (b.quotation_key === undefined) throw new SandboxError(400, 'quotation_key is required');
        return sendJson(res, 200, control.pickWinner(id, String(b.quotation_key)));
      }
      if (parts[0] === 'faults' && parts.length === 1 && method === 'GET') return sendJson(res, 200, faults.get());
      if (parts[0] === 'faults' && parts.length === 1 && (method === 'PUT' || method === 'POST')) {
        const parsed = faultsSchema.safeParse(await body());
        if (!parsed.success)
          throw new SandboxError(400, parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
        faults.set(parsed.data);
        return sendJson(res, 200, faults.get());
      }
      if (parts[0] === 'stats' && parts.length === 1 && method === 'GET') return sendJson(res, 200, stats());
      if (parts[0] === 'stats' && parts[1] === 'reset' && method === 'POST') {
        resetStats();
        return sendJson(res, 200, { ok: true });
      }
      if (parts[0] === 'autopilot' && parts[1] === 'tick' && method === 'POST') {
        control.autopilotTick();
        return sendJson(res, 200, { ok: true });
      }
      return sendJson(res, 404, { error: 'not_found', message: `no control endpoint ${method} ${path}` });
    } catch (err) {
      if (err instanceof SandboxError)
        return sendJson(res, err.status, { error: 'control_failed', message: err.message });
      if (err instanceof SyntaxError)
        return sendJson(res, 400, { error: 'bad_request', message: 'body is not valid JSON' });
      throw err;
    }
  }

  // ------------------------------------------------------------ server

  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox.local');
    let path = url.pathname;
    // The API lives only under the prefix (as behind a reverse proxy); the control API answers with or without it.
    const underPrefix = !prefix || path === prefix || path.startsWith(`${prefix}/`);
    if (prefix && underPrefix) path = path.slice(prefix.length) || '/';
    const isControl = path === '/_sandbox' || path.startsWith('/_sandbox/');
    const handle = isControl
      ? controlApi(req, res, path)
      : underPrefix && path.startsWith('/v1/')
        ? api(req, res, url, path)
        : Promise.resolve(sendJson(res, 404, { error: 'not_found', message: `no such endpoint: ${url.pathname}` }));
    handle.catch((err: unknown) => {
      if (!res.headersSent && !res.destroyed)
        sendJson(res, 500, { error: 'internal', message: (err as Error).message });
    });
  });
  server.keepAliveTimeout = 5_000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, o.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = o.host ?? '127.0.0.1';
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;

  return {
    url: `http://${urlHost}:${port}${prefix}`,
    dialect,
    port,
    setFaults: control.setFaults,
    stats,
    resetStats,
    control,
    async stop() {
      autopilot?.stop();
      for (const t of timers) clearTimeout(t);
      timers.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
      await store.flush();
    },
  };
}

// ---------------------------------------------------------------- rendering (as the spec shows it)

/** The docs dialect's filter values: `Open`, `Closed`, ... */
const STATUS_TEXT_FILTER = (s: RfqState) => s.charAt(0).toUpperCase() + s.slice(1);

function renderRfq(r: StoredRfq, breakSchema: boolean, echoExternalId: boolean): Record<string, unknown> {
  const lines: Record<string, unknown> = {};
  r.lines.forEach((l, i) => {
    const each =
      l.estimated_price !== undefined && l.qty > 0
        ? new Decimal(l.estimated_price).div(l.qty).toDecimalPlaces(2).toFixed(2)
        : undefined;
    lines[String(i)] = {
      line_id: l.line_id,
      product_name: l.product_name,
      specification: l.specification ?? '',
      uom: l.uom ?? '',
      qty: breakSchema && i === 0 ? 'lots' : String(l.qty),
      ...(l.estimated_price !== undefined ? { estimated_price: String(l.estimated_price) } : {}),
      ...(each !== undefined ? { each_price: each } : {}),
      status: l.status,
      ...(l.external_id !== undefined && echoExternalId ? { external_id: l.external_id } : {}),
      docs: l.docs,
    };
  });
  return {
    _id: r._id,
    title: r.title,
    description: r.description ?? '',
    rfq_no: r.rfq_no,
    comp_name: r.company,
    rfq_date: String(r.rfq_date),
    due_date: r.due_date,
    ...(r.required_date !== undefined ? { required_date: r.required_date } : {}),
    rfq_type: r.rfq_type,
    ...(r.rfq_category !== undefined ? { rfq_category: r.rfq_category } : {}),
    ...(r.rfq_location !== undefined ? { rfq_location: r.rfq_location } : {}),
    status: STATUS_TEXT[r.state],
    version: r.version,
    lines,
  };
}

function renderQuotation(q: StoredQuotation, breakSchema: boolean): Record<string, unknown> {
  return {
    quotation_key: q.quotation_key,
    sup_name: q.sup_name,
    revision_no: breakSchema ? 'latest' : q.revision_no,
    quotation_date: String(q.quotation_date),
    notes: q.notes ?? '',
    quotation_detail: structuredClone(q.detail),
    quotation_attachment: q.attachments,
    ...(q.status !== undefined ? { status: q.status } : {}),
  };
}

function pick(obj: Record<string, unknown>, fields: string[] | undefined): Record<string, unknown> {
  if (!fields) return obj;
  return Object.fromEntries(Object.entries(obj).filter(([k]) => fields.includes(k)));
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function sendBroken(res: ServerResponse, record: () => void): void {
  record();
  const text = '{"rfqs": [{"_id": 1, "title": "trunc';
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(new SandboxError(413, `body larger than ${MAX_BODY_BYTES} bytes`));
        req.pause();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function isLoopback(addr: string | undefined): boolean {
  return addr === '127.0.0.1' || addr === '::1' || addr === '::ffff:127.0.0.1' || (addr?.startsWith('127.') ?? false);
}

/** Largest number of sorted timestamps inside any window of `windowMs`. */
function maxInWindow(times: readonly number[], windowMs: number): number {
  let best = 0;
  let start = 0;
  for (let end = 0; end < times.length; end++) {
    while (times[end]! - times[start]! >= windowMs) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}
