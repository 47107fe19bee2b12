/**
 * The sandbox's control surface for tests and the control API: what the spec leaves to people (advance, quotations,
 * decisions, winner), the faults and the stats. Everything it hands out is a copy, so a caller cannot edit state.
 */
import type { CallStats, SandboxStats } from './call-stats.ts';
import type { FaultInjector, SandboxFaults } from './faults.ts';
import { faultsSchema } from './faults-schema.ts';
import type {
  ListedLinesMode,
  QuotationInput,
  RfqState,
  SandboxStore,
  StoredInvitation,
  StoredQuotation,
  StoredRfq,
} from './store.ts';

export interface SandboxControl {
  /** Every RFQ of every account (copies). */
  listAll(): StoredRfq[];
  getRfq(id: number): StoredRfq | undefined;
  advance(id: number, to: RfqState): StoredRfq;
  submitQuotation(id: number, q: QuotationInput): StoredQuotation;
  decide(id: number, quotationKey: string, qualified: boolean): StoredQuotation;
  pickWinner(id: number, quotationKey: string): StoredRfq;
  /** The RFQ's lines listed reversed (`reorder`) or without the first (`drop`); `null`: as posted. */
  setListedLines(id: number, mode: ListedLinesMode | null): StoredRfq;
  invite(id: number, who: { sup_name: string; sup_email?: string; contact?: string }): StoredInvitation;
  /** Render a field of the RFQ (`lines.0.qty`) or of a quotation (`quotations.<key>.<field>`) as `value`; undefined: as stored. */
  breakField(id: number, path: string, value: unknown): StoredRfq;
  setFaults(f: SandboxFaults): void;
  getFaults(): SandboxFaults;
  stats(): SandboxStats;
  resetStats(): void;
  /** Run the autopilot once now (no-op without autopilot). */
  autopilotTick(): void;
}

export function createControl(
  store: SandboxStore,
  faults: FaultInjector,
  calls: CallStats,
  autopilot: { tick(): void } | undefined,
): SandboxControl {
  return {
    listAll: () => structuredClone(store.all()),
    getRfq: (id) => {
      const r = store.get(id);
      return r ? structuredClone(r) : undefined;
    },
    advance: (id, to) => structuredClone(store.advance(id, to)),
    submitQuotation: (id, q) => structuredClone(store.submitQuotation(id, q)),
    decide: (id, key, qualified) => structuredClone(store.decide(id, key, qualified)),
    pickWinner: (id, key) => structuredClone(store.pickWinner(id, key)),
    setListedLines: (id, mode) => structuredClone(store.setListedLines(id, mode)),
    invite: (id, who) => structuredClone(store.invite(id, who)),
    breakField: (id, path, value) => structuredClone(store.breakField(id, path, value)),
    setFaults: (f) => faults.set(faultsSchema.parse(f)),
    getFaults: () => faults.get(),
    stats: () => calls.snapshot(),
    resetStats: () => calls.reset(),
    autopilotTick: () => autopilot?.tick(),
  };
}
