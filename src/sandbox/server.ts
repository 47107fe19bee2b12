/**
 * The sandbox: an HTTP emulator of the sourcing service (docs/architecture.md#the-interface) for local use, the
 * demo and the tests. Bearer accounts, the three operations as the spec shows them (lines as a map of string
 * numbers, links/meta pagination), a control API under `/_sandbox/` for what the spec leaves to people (close,
 * cancel, complete, quotations, decisions, winner), fault injection, an optional state file and an autopilot.
 * This file assembles the parts (api.ts, control-api.ts, http-listener.ts, store.ts, faults.ts, autopilot.ts).
 */
import { api } from './api.ts';
import type { ApiContext } from './api-call.ts';
import { startAutopilot, type AutopilotOptions } from './autopilot.ts';
import { CallStats, type SandboxStats } from './call-stats.ts';
import { behaviourSchema, type ServiceBehaviour } from './behaviour.ts';
import { controlApi } from './control-api.ts';
import { createControl, type SandboxControl } from './control.ts';
import { Delays } from './delays.ts';
import { FaultInjector, seededRandom, type SandboxFaults } from './faults.ts';
import { listen } from './http-listener.ts';
import { SandboxStore } from './store.ts';
import { seedVendors } from './vendors.ts';
import { createWebhookSender, type WebhookSender } from './webhooks.ts';

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
  /**
   * How records are written: `current` (default) as the interface shows them; `legacy` as older revisions of the
   * real service's documentation do (src/sandbox/legacy-shapes.ts: extended-JSON and text dates, an `invitation`
   * map, quotations keyed by key with `sup_id`, "0"-keyed documents, statuses success / unsuccess).
   */
  shapes?: 'current' | 'legacy';
  /** Hand-made RFQs (no external_ids) seeded per account at start. Default 0. */
  existing?: number;
  /**
   * An account's history seeded per account at start (SandboxStore.seedHistory): `rfqs` RFQs, `finalShare` of them
   * completed or cancelled. Default none.
   */
  history?: { rfqs: number; finalShare: number };
  /** How lists and stored records behave (behaviour.ts): list lag, order, hidden RFQs, cursors... Default: none of it. */
  behaviour?: ServiceBehaviour;
  /** POSTed to on every state change of an RFQ (src/sandbox/webhooks.ts), as the service's webhooks. Default none. */
  webhookUrl?: string;
  /**
   * The account's vendor directory (src/sandbox/vendors.ts: vendors seeded per category, served in the dialect's
   * shape, followed by the autopilot's suppliers). Default true; false: no directory (404, as a service without one).
   */
  vendors?: boolean;
}

export interface Sandbox {
  /** Base URL including the prefix, e.g. http://127.0.0.1:PORT/esourcing. */
  url: string;
  dialect: 'friendly' | 'docs';
  shapes: 'current' | 'legacy';
  port: number;
  setFaults(f: SandboxFaults): void;
  stats(): SandboxStats;
  resetStats(): void;
  control: SandboxControl;
  /** Where the webhooks go (undefined: none sent), and how many were sent or failed. */
  webhooks: WebhookSender;
  stop(): Promise<void>;
}

export const DEFAULT_SANDBOX_TOKEN = 'sandbox-token';

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
  for (const company of new Set(Object.values(accounts))) {
    store.seedHandMade(company, o.existing ?? 0, random);
    if (o.history) store.seedHistory(company, o.history.rfqs, o.history.finalShare);
  }
  const webhooks = createWebhookSender(o.webhookUrl);
  store.onStateChange = (rfq, from) => webhooks.stateChanged(rfq, from);
  const vendors = o.vendors === false ? undefined : seedVendors();
  const autopilot = o.autopilot ? startAutopilot(store, o.autopilot, random, Date.now, vendors) : undefined;

  const calls = new CallStats(store);
  let behaviour = behaviourSchema.parse(o.behaviour ?? {});
  const control = createControl(store, faults, calls, autopilot, {
    get: () => behaviour,
    set: (b) => void (behaviour = b),
  });
  const delays = new Delays();
  const ctx: ApiContext = {
    store,
    faults,
    calls,
    delays,
    accounts,
    disabled,
    docs,
    shapes: o.shapes ?? 'current',
    pageSize,
    prefix,
    linksOrigin: o.linksOrigin,
    behaviour: () => behaviour,
    vendors,
  };
  const host = o.host ?? '127.0.0.1';
  const listener = await listen({
    port: o.port ?? 0,
    host,
    prefix,
    api: (req, res, url, path) => api(ctx, req, res, url, path),
    controlApi: (req, res, path) => controlApi({ control, store, faults }, req, res, path),
  });
  const { port } = listener;
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;

  return {
    url: `http://${urlHost}:${port}${prefix}`,
    dialect,
    shapes: o.shapes ?? 'current',
    port,
    setFaults: control.setFaults,
    stats: control.stats,
    resetStats: control.resetStats,
    control,
    webhooks,
    async stop() {
      autopilot?.stop();
      await webhooks.settle();
      delays.cancelAll();
      await listener.close();
      await store.flush();
    },
  };
}
