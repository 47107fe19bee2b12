/**
 * What a handler of the sandbox's API (/v1/...) is given: the sandbox's parts and settings, and the call being
 * answered (authenticated, with answers that are counted under the call's operation).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallStats } from './call-stats.ts';
import type { Delays } from './delays.ts';
import type { FaultInjector } from './faults.ts';
import type { SandboxStore } from './store.ts';
import type { SandboxVendor } from './vendors.ts';

export interface ApiContext {
  store: SandboxStore;
  faults: FaultInjector;
  calls: CallStats;
  delays: Delays;
  /** token -> company name. */
  accounts: Record<string, string>;
  /** Known tokens whose account is suspended. */
  disabled: Set<string>;
  /** The docs dialect (else the friendly one). */
  docs: boolean;
  /** How records are written: the interface's shapes, or the older documentation's (legacy-shapes.ts). */
  shapes: 'current' | 'legacy';
  pageSize: number;
  /** Path prefix before /v1, without a trailing slash. */
  prefix: string;
  linksOrigin: string | undefined;
  /** The account's vendor directory (vendor-routes.ts); undefined: the service has none (404). */
  vendors: SandboxVendor[] | undefined;
}

export interface ApiCall {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** Without the prefix. */
  path: string;
  method: string;
  /** The operation the stats count the call under. */
  op: string;
  /** The caller's account. */
  company: string;
  /** Answers JSON, counted under `op`. */
  send(status: number, body: unknown, headers?: Record<string, string>): void;
  /** Answers 200 with a broken body (the invalid-JSON fault), counted as a 200. */
  sendBroken(): void;
}
