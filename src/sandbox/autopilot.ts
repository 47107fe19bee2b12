/**
 * Autopilot of the sandbox: simulated suppliers and buyer, so a demo shows the whole cycle without people.
 * An open RFQ gets its suppliers invited (one more than will quote, so an invitation goes unanswered); one older
 * than `closeAfterMs` receives quotations from `suppliersPerRfq` suppliers and closes; its suppliers are vendors
 * following its category in the vendor directory where some do (so not all of them quote), else a fixed pool; a closed
 * RFQ older than `completeAfterMs` gets its decisions (a supplier that priced every line is qualified), the lowest
 * qualified total as winner, and completes.
 */
import { Decimal } from 'decimal.js';
import type { SandboxStore, StoredRfq } from './store.ts';
import { followersOf, SUPPLIER_NAMES, type SandboxVendor } from './vendors.ts';

export interface AutopilotOptions {
  closeAfterMs: number;
  suppliersPerRfq: number;
  completeAfterMs: number;
  /** Share 0..1 of lines a supplier leaves without a price. */
  missingLineRate?: number;
}

const SUPPLIERS = SUPPLIER_NAMES.slice(0, 8);

export function startAutopilot(
  store: SandboxStore,
  o: AutopilotOptions,
  random: () => number,
  now: () => number = Date.now,
  vendors?: readonly SandboxVendor[],
): { stop(): void; tick(): void } {
  const tick = () => {
    const t = now();
    for (const r of store.all()) {
      if (r.state === 'open' && !r.invitations) invite(store, r, o, vendors ?? []);
      if (r.state === 'open' && t - r.stateChangedAt >= o.closeAfterMs) {
        quoteAndClose(store, r, o, random, vendors ?? []);
      } else if (r.state === 'closed' && t - r.stateChangedAt >= o.completeAfterMs) {
        decideAndComplete(store, r);
      }
    }
  };
  const every = Math.max(20, Math.min(1000, Math.floor(Math.min(o.closeAfterMs, o.completeAfterMs) / 4)));
  const timer = setInterval(tick, every);
  timer.unref();
  return { stop: () => clearInterval(timer), tick };
}

function invite(store: SandboxStore, r: StoredRfq, o: AutopilotOptions, vendors: readonly SandboxVendor[]): void {
  const pool = poolOf(r, vendors);
  const n = Math.max(0, Math.min(pool.length, o.suppliersPerRfq + 1));
  const offset = r._id % pool.length;
  for (let s = 0; s < n; s++) {
    const sup_name = pool[(offset + s) % pool.length]!;
    const email = vendors.find((v) => v.sup_name === sup_name)?.sup_email;
    store.invite(r._id, {
      sup_name,
      sup_email: email ?? `sales@${sup_name.toLowerCase().replace(/[^a-z]+/g, '')}.invalid`,
    });
  }
}

/** The suppliers of an RFQ: the vendors following its category where some do, else the fixed pool. */
function poolOf(r: StoredRfq, vendors: readonly SandboxVendor[]): readonly string[] {
  const following = followersOf(vendors, r.rfq_category).map((v) => v.sup_name);
  return following.length > 0 ? following : SUPPLIERS;
}

function quoteAndClose(
  store: SandboxStore,
  r: StoredRfq,
  o: AutopilotOptions,
  random: () => number,
  vendors: readonly SandboxVendor[],
): void {
  const pool = poolOf(r, vendors);
  const n = Math.max(0, Math.min(pool.length, o.suppliersPerRfq));
  const offset = r._id % pool.length;
  for (let s = 0; s < n; s++) {
    const supplier = pool[(offset + s) % pool.length]!;
    const prices: Array<string | null> = r.lines.map((line) => {
      if (random() < (o.missingLineRate ?? 0)) return null;
      // Unit price around estimated_price/qty (±20 %), two decimals.
      const unit =
        line.estimated_price && line.qty > 0
          ? new Decimal(line.estimated_price).div(line.qty)
          : new Decimal(10 + Math.floor(random() * 90));
      return unit
        .mul(0.8 + random() * 0.4)
        .toDecimalPlaces(2, Decimal.ROUND_HALF_UP)
        .toFixed(2);
    });
    store.submitQuotation(r._id, {
      sup_name: supplier,
      prices,
      notes: s === 0 ? 'Delivery within 10 working days.' : undefined,
      attachments: s === 1 ? [{ name: 'terms.pdf', url: `https://sandbox.invalid/docs/${r._id}/terms.pdf` }] : [],
    });
  }
  store.advance(r._id, 'closed');
}

function decideAndComplete(store: SandboxStore, r: StoredRfq): void {
  let best: { key: string; total: Decimal } | undefined;
  for (const q of r.quotations) {
    const complete = r.lines.every((l) => q.detail[l.line_id]?.price != null);
    store.decide(r._id, String(q.quotation_key), complete);
    if (!complete) continue;
    // Prices are unit prices: the total is sum(qty x price).
    const total = r.lines.reduce(
      (sum, l) => sum.plus(new Decimal(q.detail[l.line_id]!.price!).mul(l.qty)),
      new Decimal(0),
    );
    if (!best || total.lt(best.total)) best = { key: String(q.quotation_key), total };
  }
  if (best) store.pickWinner(r._id, best.key);
  store.advance(r._id, 'completed');
}
