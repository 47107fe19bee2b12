/**
 * Prometheus metrics of one rfq-sync process (prom-client, its own registry so tests and several processes in one
 * test file never share counters). Counters count what this process did; the gauges of queue depth, RFQs by state,
 * the auth pause and the last successful poll are read from Redis at scrape time, so every worker reports the same
 * shared picture. Node's default collectors keep their standard names (no prefix: the dashboards made for Node find
 * them), except prom-client's three gauges named `_total`, which Prometheus reserves for counters: they are dropped, their
 * counts stay in `nodejs_active_handles`, `nodejs_active_requests` and `nodejs_active_resources` (by type).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import type { HintFigures, LatencyHistogram } from '../../src/rfqs/index.ts';

export const METRIC_NAMES = {
  jobs: 'rfq_sync_jobs_total',
  apiCalls: 'rfq_sync_api_calls_total',
  apiLatency: 'rfq_sync_api_call_duration_seconds',
  rfqs: 'rfq_sync_rfqs',
  files: 'rfq_sync_files_total',
  queueJobs: 'rfq_sync_queue_jobs',
  pausedForAuth: 'rfq_sync_paused_for_auth',
  workbooks: 'rfq_sync_workbooks_written_total',
  awardFiles: 'rfq_sync_award_files_written_total',
  rejectedRows: 'rfq_sync_rows_rejected_total',
  lastOkPoll: 'rfq_sync_last_successful_poll_timestamp_seconds',
  webhook: 'rfq_sync_webhook_total',
  closeToWorkbook: 'rfq_sync_close_to_workbook_seconds',
} as const;

/** How many of the latest calls readiness looks at. */
export const RECENT_CALLS = 20;

/** What the scrape-time gauges read; each is optional (a command without Redis has none). */
export interface MetricsSources {
  rfqsByState?: () => Promise<Record<string, number>>;
  queueCounts?: () => Promise<Record<string, Record<string, number>>>;
  pausedForAuth?: () => Promise<boolean>;
  /** Unix ms of the last poll that succeeded (any worker), if any. */
  lastOkPoll?: () => Promise<number | undefined>;
  /** The webhook path's figures (src/rfqs/hint-stats.ts). */
  webhook?: () => Promise<HintFigures>;
  /** From a closing seen to its first workbook written (src/rfqs/hint-stats.ts). */
  closeToWorkbook?: () => Promise<LatencyHistogram>;
}

export interface ApiCall {
  operation: string;
  /** HTTP status; `error`: no answer; `invalid`: a 2xx whose body is not JSON (a login page). */
  status: number | 'error' | 'invalid';
  durationMs: number;
}

export interface OpsMetrics {
  readonly registry: Registry;
  readonly jobs: Counter<'queue' | 'result'>;
  readonly apiCalls: Counter<'operation' | 'status'>;
  readonly apiLatency: Histogram<'operation'>;
  readonly files: Counter<'outcome'>;
  /** Pass as the sourcing client's `onCall`. */
  onApiCall(call: ApiCall): void;
  /** A job ended: result `completed`, `failed` (attempts left or not), `paused` (auth), ... */
  onJob(queue: string, result: string): void;
  /** An input file ended: `archived`, `failed`, `duplicate`, ... */
  onFile(outcome: string): void;
  /** A file written for procurement or the ERP. */
  onOutput(kind: 'workbook' | 'award'): void;
  /** Rows of an input file rejected (reported, not ingested). */
  onRejectedRows(n: number): void;
  /** The most recent API call, for readiness (service reachable). */
  lastApiCall(): (ApiCall & { at: number }) | undefined;
  /** The last RECENT_CALLS calls, oldest first, for readiness (every call failing the same way). */
  recentApiCalls(): Array<ApiCall & { at: number }>;
  setSources(sources: MetricsSources): void;
}

export function createMetrics(opts: { defaultMetrics?: boolean } = {}): OpsMetrics {
  const registry = new Registry();
  if (opts.defaultMetrics !== false) {
    collectDefaultMetrics({ register: registry });
    // gauges named `_total` (a counter's suffix): prom-client serves the same counts, by type, without it
    for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'])
      registry.removeSingleMetric(name);
  }
  let sources: MetricsSources = {};
  let last: (ApiCall & { at: number }) | undefined;
  const recent: Array<ApiCall & { at: number }> = [];
  const current = () => sources;

  const jobs = new Counter({
    name: METRIC_NAMES.jobs,
    help: 'Jobs processed by this process, by queue and result',
    labelNames: ['queue', 'result'] as const,
    registers: [registry],
  });
  const apiCalls = new Counter({
    name: METRIC_NAMES.apiCalls,
    help: 'Calls to the sourcing service, by operation and HTTP status (error: no answer)',
    labelNames: ['operation', 'status'] as const,
    registers: [registry],
  });
  const apiLatency = new Histogram({
    name: METRIC_NAMES.apiLatency,
    help: 'Latency of calls to the sourcing service, seconds',
    labelNames: ['operation'] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const files = new Counter({
    name: METRIC_NAMES.files,
    help: 'Input files handled by this process, by outcome',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  // the scrape-time gauges are registered between the counters as ever: /metrics keeps its order
  rfqsGauge(registry, current);
  queueJobsGauge(registry, current);
  const workbooks = new Counter({
    name: METRIC_NAMES.workbooks,
    help: 'Comparison workbooks written by this process',
    registers: [registry],
  });
  const awardFiles = new Counter({
    name: METRIC_NAMES.awardFiles,
    help: 'Award files written by this process',
    registers: [registry],
  });
  const rejectedRows = new Counter({
    name: METRIC_NAMES.rejectedRows,
    help: 'Rows of input files rejected by this process (each in its file report)',
    registers: [registry],
  });
  lastOkPollGauge(registry, current);
  pausedForAuthGauge(registry, current);
  webhookCounter(registry, current);
  closeToWorkbookHistogram(registry, current);

  return {
    registry,
    jobs,
    apiCalls,
    apiLatency,
    files,
    onApiCall(call) {
      last = { ...call, at: Date.now() };
      recent.push(last);
      if (recent.length > RECENT_CALLS) recent.shift();
      apiCalls.inc({ operation: call.operation, status: String(call.status) });
      apiLatency.observe({ operation: call.operation }, call.durationMs / 1000);
    },
    onJob(queue, result) {
      jobs.inc({ queue, result });
    },
    onFile(outcome) {
      files.inc({ outcome });
    },
    onOutput(kind) {
      (kind === 'workbook' ? workbooks : awardFiles).inc();
    },
    onRejectedRows(n) {
      if (n > 0) rejectedRows.inc(n);
    },
    lastApiCall: () => last,
    recentApiCalls: () => [...recent],
    setSources(s) {
      sources = { ...sources, ...s };
    },
  };
}

// The scrape-time gauges below are deliberately alike: prom-client's collect() form, one metric each.

/** RFQs tracked by state, read from Redis at scrape time. */
function rfqsGauge(registry: Registry, current: () => MetricsSources): void {
  new Gauge({
    name: METRIC_NAMES.rfqs,
    help: 'RFQs created by rfq-sync and tracked, by state (shared, read from Redis)',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const sources = current();
      if (!sources.rfqsByState) return;
      this.reset();
      for (const [state, n] of Object.entries(await sources.rfqsByState().catch(() => ({})))) this.set({ state }, n);
    },
  });
}

/** Jobs in each queue by state, read from Redis at scrape time. */
function queueJobsGauge(registry: Registry, current: () => MetricsSources): void {
  new Gauge({
    name: METRIC_NAMES.queueJobs,
    help: 'Jobs in each queue by state (shared, read from Redis)',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      const sources = current();
      if (!sources.queueCounts) return;
      this.reset();
      const counts = await sources.queueCounts().catch(() => ({}));
      for (const [queue, byState] of Object.entries(counts)) {
        for (const [state, n] of Object.entries(byState)) this.set({ queue, state }, n);
      }
    },
  });
}

/** The last successful poll of any worker, read from Redis at scrape time; absent before the first. */
function lastOkPollGauge(registry: Registry, current: () => MetricsSources): void {
  new Gauge({
    name: METRIC_NAMES.lastOkPoll,
    help: 'Unix time of the last poll that succeeded, seconds (shared, read from Redis); absent before the first',
    registers: [registry],
    async collect() {
      const sources = current();
      if (!sources.lastOkPoll) return;
      const ms = await sources.lastOkPoll().catch(() => undefined);
      if (ms !== undefined) this.set(ms / 1000);
    },
  });
}

/** 1 while the sourcing calls are paused for auth, read from Redis at scrape time. */
function pausedForAuthGauge(registry: Registry, current: () => MetricsSources): void {
  new Gauge({
    name: METRIC_NAMES.pausedForAuth,
    help: '1 while calls to the sourcing service are paused because it refused the token (401/403)',
    registers: [registry],
    async collect() {
      const sources = current();
      if (!sources.pausedForAuth) return;
      this.set((await sources.pausedForAuth().catch(() => false)) ? 1 : 0);
    },
  });
}

/** The webhook path's counts (every worker's, read from Redis at scrape time), by what was counted. */
function webhookCounter(registry: Registry, current: () => MetricsSources): void {
  const labels: Record<keyof HintFigures, string> = {
    received: 'received',
    checked: 'rfqs_checked',
    transitions: 'transitions_found',
    pollsWoken: 'polls_woken',
    requests: 'check_requests',
  };
  new Counter({
    name: METRIC_NAMES.webhook,
    help: 'Webhooks received, RFQs checked because one named them, transitions those checks found, polls woken, requests the checks sent (shared, read from Redis)',
    labelNames: ['what'] as const,
    registers: [registry],
    async collect() {
      const sources = current();
      if (!sources.webhook) return;
      const f = await sources.webhook().catch(() => undefined);
      if (!f) return;
      this.reset();
      for (const [k, what] of Object.entries(labels)) this.inc({ what }, f[k as keyof HintFigures]);
    },
  });
}

/**
 * From a closing seen (by a webhook's check or a poll) to its first comparison workbook written, seconds: every
 * worker's, kept in Redis and served as a histogram at scrape time.
 */
function closeToWorkbookHistogram(registry: Registry, current: () => MetricsSources): void {
  const name = METRIC_NAMES.closeToWorkbook;
  const help = 'From an RFQ closing seen to its comparison workbook written, seconds (shared, read from Redis)';
  const metric = {
    name,
    help,
    type: 'histogram',
    aggregator: 'sum',
    async get() {
      const source = current().closeToWorkbook;
      const h = source ? await source().catch(() => undefined) : undefined;
      const values = h
        ? [
            ...h.buckets.map((b) => ({ metricName: `${name}_bucket`, labels: { le: b.le }, value: b.count })),
            { metricName: `${name}_sum`, labels: {}, value: h.sum },
            { metricName: `${name}_count`, labels: {}, value: h.count },
          ]
        : [];
      return { name, help, type: 'histogram', aggregator: 'sum', values };
    },
  };
  registry.registerMetric(metric as unknown as Metric);
}
