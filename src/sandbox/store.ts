/**
 * State of the sandbox sourcing service: RFQs per account (company), their lines and quotations, and the buyer's
 * decisions. Optionally kept in a JSON state file (loaded at start, saved atomically and debounced on change) so a
 * restarted sandbox still knows the RFQs a worker created.
 */
import { readFile } from 'node:fs/promises';
import { Decimal } from 'decimal.js';
import { writeFileAtomically, SandboxError } from '../core/index.ts';
import type { WireCreateRfq, WireEditRfq } from './wire-schemas.ts';

export type RfqState = 'open' | 'closed' | 'cancelled' | 'completed';
export const RFQ_STATES: readonly RfqState[] = ['open', 'closed', 'cancelled', 'completed'];

/**
 * The status string inside a listed RFQ: it need not equal the filter value
 * (docs/architecture.md#where-the-interface-is-silent).
 */
export const STATUS_TEXT: Record<RfqState, string> = {
  open: 'Active',
  closed: 'Closed',
  cancelled: 'Cancelled',
  completed: 'Completed',
};

export interface StoredLine {
  line_id: string;
  product_name: string;
  specification?: string;
  uom?: string;
  qty: number;
  estimated_price?: number;
  external_id?: string;
  status: string;
  docs: Record<string, unknown>;
}

export interface StoredQuotation {
  /** As on the wire: an integer or `comp_<n>`. */
  quotation_key: number | string;
  sup_name: string;
  revision_no: number;
  quotation_date: number;
  notes?: string;
  /** line_id -> price (decimal string; absent line = not quoted) and documents. */
  detail: Record<string, { price: string | null; docs: unknown[] }>;
  attachments: unknown[];
  status?: 'qualified' | 'not qualified';
}

/** A supplier invited to an RFQ (shown as the `invitation` map in the legacy shapes). */
export interface StoredInvitation {
  sup_id: number;
  sup_name: string;
  contact?: string;
  sup_email?: string;
  status: 'pending' | 'joined';
}

/** The sandbox's own record of an RFQ: deliberately not the client's types (a separate service; see wire-schemas.ts). */
export interface StoredRfq {
  _id: number;
  company: string;
  rfq_no: number;
  title: string;
  due_date: string;
  required_date?: string;
  description?: string;
  rfq_type: string;
  rfq_category?: string;
  rfq_location?: string;
  rfq_date: number;
  state: RfqState;
  stateChangedAt: number;
  version: number;
  lines: StoredLine[];
  quotations: StoredQuotation[];
  /** quotation_key (as string) of the winning quotation. */
  winner?: string;
  /** Left out of the lists (still there for the detail call and quotations): ServiceBehaviour, the `hide` control. */
  hidden?: boolean;
  /**
   * How its lists and detail show its lines (a test's fault, to prove the ERP-id guard): `reorder` reversed,
   * `drop` without the first line; absent: as posted.
   */
  listedLines?: ListedLinesMode;
  invitations?: StoredInvitation[];
  /**
   * Fields rendered with a value that breaks the interface's schema (tests: one bad field of one RFQ), by path in
   * the rendered record (`lines.0.qty`, `due_date`), or in a quotation (`quotations.<key>.<field>`).
   */
  broken?: Record<string, unknown>;
}

export type ListedLinesMode = 'reorder' | 'drop';

export interface QuotationInput {
  sup_name: string;
  /** Integer or `comp_<n>`; default: the key this supplier already has on the RFQ, or a new one. */
  quotation_key?: number | string;
  /** Price per line_id, or per position (array); a missing or null entry leaves the line unquoted. */
  prices?: Record<string, string | number | null> | Array<string | number | null>;
  notes?: string;
  /** Documents per line_id. */
  documents?: Record<string, unknown[]>;
  attachments?: unknown[];
}

export type CreateRfqBody = WireCreateRfq;

interface StoreData {
  nextId: number;
  rfqNoByCompany: Record<string, number>;
  nextSupplierKey: number;
  rfqs: StoredRfq[];
}

export class SandboxStore {
  private data: StoreData = { nextId: 1, rfqNoByCompany: {}, nextSupplierKey: 1, rfqs: [] };
  private byId = new Map<number, StoredRfq>();
  private readonly stateFile: string | undefined;
  private saveTimer: NodeJS.Timeout | undefined;
  private saving: Promise<void> = Promise.resolve();
  private readonly now: () => number;
  /** Told of every state change (the sandbox's webhooks). */
  onStateChange: ((rfq: StoredRfq, from: RfqState) => void) | undefined;

  constructor(opts: { stateFile?: string; now?: () => number } = {}) {
    this.stateFile = opts.stateFile;
    this.now = opts.now ?? Date.now;
  }

  /** Loads the state file when there is one (a missing file is an empty sandbox). */
  async load(): Promise<void> {
    if (!this.stateFile) return;
    let text: string;
    try {
      text = await readFile(this.stateFile, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    const parsed = JSON.parse(text) as StoreData;
    this.data = {
      nextId: parsed.nextId,
      rfqNoByCompany: parsed.rfqNoByCompany ?? {},
      nextSupplierKey: parsed.nextSupplierKey ?? 1,
      rfqs: parsed.rfqs ?? [],
    };
    this.byId = new Map(this.data.rfqs.map((r) => [r._id, r]));
  }

  create(company: string, body: CreateRfqBody): StoredRfq {
    const _id = this.data.nextId++;
    const rfq_no = (this.data.rfqNoByCompany[company] ?? 0) + 1;
    this.data.rfqNoByCompany[company] = rfq_no;
    const now = this.now();
    const rfq: StoredRfq = {
      _id,
      company,
      rfq_no,
      title: body.title,
      due_date: body.due_date,
      required_date: body.required_date,
      description: body.description,
      rfq_type: body.rfq_type,
      rfq_category: body.rfq_category,
      rfq_location: body.rfq_location,
      rfq_date: now,
      state: 'open',
      stateChangedAt: now,
      version: 1,
      lines: body.lines.map((l, i) => ({
        line_id: `${_id.toString(16)}${(i + 1).toString(16).padStart(3, '0')}a${((_id * 7919 + i * 104729) % 65536).toString(16).padStart(4, '0')}`,
        product_name: l.product_name,
        specification: l.specification,
        uom: l.uom,
        qty: l.qty,
        estimated_price: l.estimated_price,
        external_id: l.external_id,
        status: 'active',
        docs: {},
      })),
      quotations: [],
    };
    this.data.rfqs.push(rfq);
    this.byId.set(_id, rfq);
    this.changed();
    return rfq;
  }

  get(id: number): StoredRfq | undefined {
    return this.byId.get(id);
  }

  mustGet(id: number): StoredRfq {
    const r = this.byId.get(id);
    if (!r) throw new SandboxError(404, `no RFQ ${id}`);
    return r;
  }

  all(): StoredRfq[] {
    return this.data.rfqs;
  }

  /** The edit call (docs dialect): header fields only; a new version of the record. */
  edit(id: number, company: string, body: WireEditRfq): StoredRfq | undefined {
    const r = this.byId.get(id);
    if (!r || r.company !== company) return undefined;
    if (body.title !== undefined) r.title = body.title;
    if (body.due_date !== undefined) r.due_date = body.due_date;
    if (body.required_date !== undefined) r.required_date = body.required_date;
    if (body.description !== undefined) r.description = body.description;
    r.version++;
    this.changed();
    return r;
  }

  /**
   * Seed `n` RFQs made by hand in the service's web UI (no external_id on any line), unless the account holds RFQs
   * already (a state file): states spread about 60% open, 20% closed, 10% cancelled, 10% completed.
   */
  seedHandMade(company: string, n: number, random: () => number): void {
    if (n <= 0 || this.data.rfqs.some((r) => r.company === company)) return;
    const items = [
      'Office chairs',
      'Safety gloves',
      'Printer toner',
      'Hydraulic hoses',
      'Pallet racking',
      'Cable ties',
      'Laptops',
      'Forklift service',
    ];
    const states: RfqState[] = [
      'open',
      'open',
      'open',
      'open',
      'open',
      'open',
      'closed',
      'closed',
      'cancelled',
      'completed',
    ];
    const day = 86_400_000;
    for (let i = 1; i <= n; i++) {
      const item = items[Math.floor(random() * items.length)]!;
      const lines = 1 + Math.floor(random() * 5);
      const due = this.now() + Math.floor(random() * 30) * day;
      const rfq = this.create(company, {
        title: `${item} for site ${i}`,
        due_date: String(due),
        rfq_type: 'Public',
        lines: Array.from({ length: lines }, (_, j) => ({
          product_name: `${item} ${j + 1}`,
          uom: 'pcs',
          qty: 1 + Math.floor(random() * 50),
          estimated_price: 100 * (1 + Math.floor(random() * 90)),
        })),
      });
      rfq.rfq_date = this.now() - (n - i + 1) * 3_600_000;
      const state = states[i % states.length]!;
      if (state !== 'open') rfq.state = state;
    }
    this.changed();
  }

  /**
   * Seed an account's history: `n` RFQs, `finalShare` of them (0..1) completed or cancelled (two in three completed),
   * the rest open and closed in turn; one line each, dated an hour apart up to now. Cheap enough for 50,000 (tests
   * and `bench:poll` build large accounts here, in-process, not through thousands of POSTs).
   */
  seedHistory(company: string, n: number, finalShare: number): void {
    const finals = Math.round(n * finalShare);
    const start = this.now() - n * 3_600_000;
    for (let i = 0; i < n; i++) {
      const rfq = this.create(company, {
        title: `Earlier RFQ ${i + 1}`,
        due_date: String(start + (i + 24) * 3_600_000),
        rfq_type: 'Public',
        lines: [{ product_name: 'Item', uom: 'pcs', qty: 1, estimated_price: 100 }],
      });
      rfq.rfq_date = start + i * 3_600_000;
      // spread over the history, as an account's long-settled RFQs are
      const k = Math.floor(((i + 1) * finals) / n) - Math.floor((i * finals) / n);
      rfq.state = k === 1 ? (i % 3 === 2 ? 'cancelled' : 'completed') : i % 2 === 0 ? 'open' : 'closed';
    }
    this.changed();
  }

  /** Every RFQ of the account, all states, in _id order. */
  listAllFor(company: string): StoredRfq[] {
    return this.data.rfqs.filter((r) => r.company === company);
  }

  listFor(company: string, state: RfqState): StoredRfq[] {
    return this.data.rfqs.filter((r) => r.company === company && r.state === state);
  }

  countByCompany(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const r of this.data.rfqs) out[r.company] = (out[r.company] ?? 0) + 1;
    return out;
  }

  advance(id: number, to: RfqState): StoredRfq {
    const r = this.mustGet(id);
    if (!RFQ_STATES.includes(to)) throw new SandboxError(400, `unknown state ${String(to)}`);
    if (r.state !== to) {
      const from = r.state;
      r.state = to;
      r.stateChangedAt = this.now();
      r.version++;
      this.changed();
      this.onStateChange?.(r, from);
    }
    return r;
  }

  /** Hides an RFQ from the lists, or shows it again. */
  hide(id: number, hidden: boolean): StoredRfq {
    const r = this.mustGet(id);
    if (hidden) r.hidden = true;
    else delete r.hidden;
    this.changed();
    return r;
  }

  /** Deletes an RFQ for good, as a service that purges old RFQs does. */
  purge(id: number): void {
    const r = this.mustGet(id);
    this.data.rfqs = this.data.rfqs.filter((x) => x !== r);
    this.byId.delete(id);
    this.changed();
  }

  submitQuotation(id: number, q: QuotationInput): StoredQuotation {
    const r = this.mustGet(id);
    if (!q.sup_name || typeof q.sup_name !== 'string') throw new SandboxError(400, 'sup_name is required');
    const existing =
      q.quotation_key !== undefined
        ? r.quotations.find((x) => String(x.quotation_key) === String(q.quotation_key))
        : r.quotations.find((x) => x.sup_name === q.sup_name);
    const detail: StoredQuotation['detail'] = {};
    r.lines.forEach((line, position) => {
      const raw = Array.isArray(q.prices) ? q.prices[position] : q.prices?.[line.line_id];
      if (raw === undefined || raw === null || raw === '') return;
      let price: string | undefined;
      try {
        // a string is kept as the supplier wrote it (e.g. "23.90"); a number is written out exactly
        price = typeof raw === 'string' && /^\d+(\.\d+)?$/.test(raw.trim()) ? raw.trim() : new Decimal(raw).toFixed();
      } catch {
        price = undefined;
      }
      if (price === undefined || new Decimal(price).isNeg())
        throw new SandboxError(400, `price of line ${line.line_id} is not a number`);
      detail[line.line_id] = { price, docs: q.documents?.[line.line_id] ?? [] };
    });
    if (existing) {
      existing.revision_no++;
      existing.quotation_date = this.now();
      this.joined(r, q.sup_name);
      existing.detail = detail;
      if (q.notes !== undefined) existing.notes = q.notes;
      if (q.attachments !== undefined) existing.attachments = q.attachments;
      delete existing.status; // a revised quotation awaits a new decision
      this.changed();
      return existing;
    }
    const key = q.quotation_key ?? this.newSupplierKey();
    const created: StoredQuotation = {
      quotation_key: key,
      sup_name: q.sup_name,
      revision_no: 0,
      quotation_date: this.now(),
      notes: q.notes,
      detail,
      attachments: q.attachments ?? [],
    };
    r.quotations.push(created);
    this.joined(r, q.sup_name);
    this.changed();
    return created;
  }

  decide(id: number, key: string, qualified: boolean): StoredQuotation {
    const q = this.mustGetQuotation(id, key);
    q.status = qualified ? 'qualified' : 'not qualified';
    this.changed();
    return q;
  }

  /** Lists (and the detail call) show this RFQ's lines reordered or one short from now on; `null`: as posted. */
  setListedLines(id: number, mode: ListedLinesMode | null): StoredRfq {
    const r = this.mustGet(id);
    if (mode === null) delete r.listedLines;
    else r.listedLines = mode;
    r.version++; // the record as listed changed: readers that keep the listed copy by version read it again
    this.changed();
    return r;
  }

  pickWinner(id: number, key: string): StoredRfq {
    const r = this.mustGet(id);
    this.mustGetQuotation(id, key);
    r.winner = key;
    r.version++;
    this.changed();
    return r;
  }

  /** Invite a supplier (a second invitation of the same name is the same one). */
  invite(id: number, who: { sup_name: string; sup_email?: string; contact?: string }): StoredInvitation {
    const r = this.mustGet(id);
    if (!who.sup_name || typeof who.sup_name !== 'string') throw new SandboxError(400, 'sup_name is required');
    const list = (r.invitations ??= []);
    const had = list.find((i) => i.sup_name === who.sup_name);
    if (had) return had;
    // A supplier's id follows its name, the same on every RFQ (quotation keys are not touched).
    let sup_id = 0;
    for (const ch of who.sup_name) sup_id = (sup_id * 31 + ch.charCodeAt(0)) % 9000;
    const inv: StoredInvitation = { sup_id: 1000 + sup_id, status: 'pending', ...who };
    list.push(inv);
    this.changed();
    return inv;
  }

  /** Render `path` of this RFQ with `value` from now on (`undefined`: as stored again). */
  breakField(id: number, path: string, value: unknown): StoredRfq {
    const r = this.mustGet(id);
    if (!/^[\w$]+(\.[\w$-]+)*$/.test(path)) throw new SandboxError(400, `not a field path: ${path}`);
    if (value === undefined) delete r.broken?.[path];
    else (r.broken ??= {})[path] = value;
    this.changed();
    return r;
  }

  mustGetQuotation(id: number, key: string): StoredQuotation {
    const q = this.mustGet(id).quotations.find((x) => String(x.quotation_key) === key);
    if (!q) throw new SandboxError(404, `no quotation ${key} on RFQ ${id}`);
    return q;
  }

  /** Waits for pending saves (stop, tests). */
  async flush(): Promise<void> {
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = undefined;
      this.save();
    }
    await this.saving;
  }

  /** An invited supplier that quoted has joined. */
  private joined(r: StoredRfq, supName: string): void {
    const inv = r.invitations?.find((i) => i.sup_name === supName);
    if (inv) inv.status = 'joined';
  }

  /** Integers and `comp_<n>` alternate so both forms of quotation_key are seen. */
  private newSupplierKey(): number | string {
    const n = this.data.nextSupplierKey++;
    return n % 2 === 1 ? 100 + n : `comp_${100 + n}`;
  }

  private changed(): void {
    if (!this.stateFile || this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      this.save();
    }, 50);
    this.saveTimer.unref();
  }

  private save(): void {
    const file = this.stateFile;
    if (!file) return;
    const text = JSON.stringify(this.data);
    this.saving = this.saving
      .then(() => writeFileAtomically(file, text))
      .catch((err: unknown) => {
        process.emitWarning(`sandbox: could not save state file ${file}: ${(err as Error).message}`);
      });
  }
}
