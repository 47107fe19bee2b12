/**
 * The operations endpoint: health and readiness, Prometheus metrics, the dashboard, the lookup page and the
 * sourcing service's webhook.
 */
export { type OpsServer, startOpsServer } from './http-server.ts';
export { createMetrics, type OpsMetrics } from './metrics.ts';
export {
  auditReadiness,
  authReadiness,
  mappingsReadiness,
  pollReadiness,
  redisReadiness,
  serviceReadiness,
  stateReadiness,
} from './readiness.ts';
export { traceLookupFor } from './trace-lookup.ts';
export type { TraceLookup } from './trace-page.ts';
export { webhookOutcome } from './webhook.ts';
