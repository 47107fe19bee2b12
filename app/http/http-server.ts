/**
 * The operations endpoint: /healthz (process up), /readyz (checks), /metrics (Prometheus), the Bull Board
 * dashboard at /queues, and the sourcing service's webhook at /hooks/sourcing/<secret> (app/http/webhook.ts). Bound to 127.0.0.1 by default. Loopback clients need no credential to read; any other client
 * must present HTTP_TOKEN, as `Authorization: Bearer <token>` (scrapers) or as the password of HTTP Basic (browsers,
 * which then prompt for it). Binding to a non-loopback address without a token is refused.
 * A request's Host must be one of HTTP_ALLOWED_HOSTS (plus localhost, the loopback addresses and HTTP_HOST): a page in
 * a browser on this host reaching 127.0.0.1 through DNS rebinding names its own host and is refused. Anything that
 * changes state (every method but GET and HEAD: the dashboard's retry, remove, add...) needs HTTP_TOKEN from every
 * client, loopback included; without HTTP_TOKEN the dashboard is read-only. The lookup page (/trace) too needs the
 * token from every client once HTTP_TOKEN is set: it reads the audit log on request (disk and CPU, bounded by its
 * own limits: app/http/trace-lookup.ts), which any local process could otherwise ask for.
 */
import { timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Queue } from 'bullmq';
import { ConfigError, type Logger } from '../../src/core/index.ts';
import { lazyDashboard } from './dashboard.ts';
import type { OpsMetrics } from './metrics.ts';
import { runChecks, type ReadinessCheck } from './readiness.ts';
import { webhookRoute, type WebhookTarget } from './webhook.ts';
import { traceRoute, type TraceLookup } from './trace-page.ts';

export interface OpsServerOptions {
  host: string;
  port: number;
  token?: string;
  /** HTTP_ALLOWED_HOSTS: Host names answered besides localhost, the loopback addresses and `host`. */
  allowedHosts?: readonly string[];
  logger: Logger;
  metrics: OpsMetrics;
  checks?: Record<string, ReadinessCheck>;
  queues?: readonly Queue[];
  /** The sourcing service's webhook (app/http/webhook.ts): WEBHOOK_SECRET and WEBHOOK_MAX_BODY_BYTES. */
  webhook?: { secret?: string; maxBodyBytes: number };
}

export interface OpsServer {
  readonly url: string;
  readonly port: number;
  /** Replace the readiness checks (e.g. once the worker context exists). */
  setChecks(checks: Record<string, ReadinessCheck>): void;
  /** Show these queues on the dashboard. */
  setQueues(queues: readonly Queue[]): void;
  /** What a webhook sets off, once the pipeline is up (503 until then). */
  setWebhookTarget(target: WebhookTarget): void;
  /** What the lookup page /trace answers from, once the pipeline is up (503 until then; app/http/trace-page.ts). */
  setLookup(lookup: TraceLookup): void;
  close(): Promise<void>;
}

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\./.test(host);
}

function isLoopbackAddress(addr: string | undefined): boolean {
  if (!addr) return false;
  return addr === '::1' || /^127\./.test(addr) || /^::ffff:127\./.test(addr);
}

/** The host name of a Host header, lower case, without port or IPv6 brackets. */
function hostOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const h = header.trim().toLowerCase();
  const v6 = /^\[([^\]]+)\](:\d+)?$/.exec(h);
  if (v6) return v6[1];
  return h.replace(/:\d+$/, '');
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The credential from `Authorization: Bearer T` or `Authorization: Basic base64(any:T)`, if any. */
function presentedToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^(Bearer|Basic)\s+(\S+)$/i.exec(header.trim());
  if (!m) return undefined;
  if (m[1]!.toLowerCase() === 'bearer') return m[2];
  const decoded = Buffer.from(m[2]!, 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  return i >= 0 ? decoded.slice(i + 1) : undefined;
}

export async function startOpsServer(o: OpsServerOptions): Promise<OpsServer> {
  if (!isLoopbackHost(o.host) && !o.token) {
    throw new ConfigError([`HTTP_TOKEN: required when HTTP_HOST (${o.host}) is not a loopback address`]);
  }
  let checks = o.checks ?? {};
  const app = express();
  app.disable('x-powered-by');

  // Process up: no credential needed and nothing revealed, so orchestrators can probe it from anywhere.
  app.get('/healthz', (_req, res) => {
    res.type('text/plain').send('ok\n');
  });

  // before the guard: the service posts from outside without the token; the secret in the path is its credential
  const hook = webhookRoute({ ...(o.webhook ?? { maxBodyBytes: 0 }), logger: o.logger });
  app.use(hook.handle);

  app.use(accessGuard(o));

  app.get('/readyz', async (_req, res) => {
    const report = await runChecks(checks);
    res.status(report.ready ? 200 : 503).json(report);
  });

  app.get('/metrics', async (_req, res) => {
    try {
      const body = await o.metrics.registry.metrics();
      res.type(o.metrics.registry.contentType).send(body);
    } catch (err) {
      res
        .status(500)
        .type('text/plain')
        .send(`metrics failed: ${(err as Error).message}\n`);
    }
  });

  const trace = traceRoute(); // "where is my requisition?": read-only, behind the guard like the dashboard
  app.get('/trace', (req, res) => void trace.handle(req, res));

  const dashboard = lazyDashboard(o.queues ?? [], !o.token); // loaded when /queues is first asked for
  app.use('/queues', dashboard.handle);

  const server = await listen(app, o.host, o.port);
  server.keepAliveTimeout = 5_000;
  const port = (server.address() as AddressInfo).port;
  const hostForUrl = o.host.includes(':') && !o.host.startsWith('[') ? `[${o.host}]` : o.host;
  const url = `http://${hostForUrl}:${port}`;
  o.logger.info({ url }, `operations endpoint on ${url} (/healthz /readyz /metrics /queues)`);

  return {
    url,
    port,
    setChecks(c) {
      checks = c;
    },
    setQueues: dashboard.setQueues,
    setWebhookTarget: hook.setTarget,
    setLookup: trace.setTarget,
    async close() {
      await trace.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** Pages that need the token from every client once HTTP_TOKEN is set, loopback included. */
const TOKEN_ALWAYS = new Set(['/trace']);

/**
 * Who may do what: the token opens everything; without it, reads only, from loopback clients only, under a Host of
 * this endpoint (see the file's comment).
 */
function accessGuard(o: Pick<OpsServerOptions, 'host' | 'token' | 'allowedHosts' | 'logger'>) {
  const allowed = new Set([
    'localhost',
    '127.0.0.1',
    '::1',
    o.host.toLowerCase().replace(/^\[|\]$/g, ''),
    ...(o.allowedHosts ?? []),
  ]);
  return (req: Request, res: Response, next: NextFunction) => {
    const given = presentedToken(req.headers.authorization);
    // the token opens everything, from anywhere, under any Host (a rebinding page cannot know it)
    if (o.token !== undefined && given !== undefined && sameSecret(given, o.token)) return next();
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      o.logger.warn(
        { remote: req.socket.remoteAddress, method: req.method, path: req.path },
        'operations endpoint: a change without the token refused',
      );
      if (!o.token)
        return void res.status(403).type('text/plain').send('read-only: set HTTP_TOKEN to act from the dashboard\n');
      return void res
        .status(401)
        .set('WWW-Authenticate', 'Basic realm="rfq-sync", charset="UTF-8"')
        .type('text/plain')
        .send('token required\n');
    }
    // the lookup page reads the log on request: with a token set, no client reads it without one (loopback too)
    if (!isLoopbackAddress(req.socket.remoteAddress) || (o.token !== undefined && TOKEN_ALWAYS.has(req.path))) {
      o.logger.warn(
        { remote: req.socket.remoteAddress, path: req.path },
        'operations endpoint: request without a valid token refused',
      );
      return void res
        .status(401)
        .set('WWW-Authenticate', 'Basic realm="rfq-sync", charset="UTF-8"')
        .type('text/plain')
        .send('token required\n');
    }
    // a loopback client without the token: only under a Host of this endpoint (a rebinding page names its own)
    const host = hostOf(req.headers.host);
    if (host === undefined || !allowed.has(host)) {
      o.logger.warn(
        { remote: req.socket.remoteAddress, host: req.headers.host?.slice(0, 100), path: req.path },
        'operations endpoint: request for another Host refused (HTTP_ALLOWED_HOSTS)',
      );
      return void res
        .status(421)
        .type('text/plain')
        .send('this Host is not served here without the token (HTTP_ALLOWED_HOSTS)\n');
    }
    next();
  };
}

/** Listens on host:port; a port in use or a host not of this machine is a ConfigError naming the setting. */
function listen(app: Express, host: string, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const fail = (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new ConfigError([
              `HTTP_PORT: ${host}:${port} is already in use (another rfq-sync worker on this host? give each its own HTTP_PORT, or 0 to turn the endpoint off)`,
            ])
          : err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND'
            ? new ConfigError([`HTTP_HOST: ${host} is not an address of this host`])
            : err,
      );
    const s = app.listen(port, host, (err?: Error) => (err ? fail(err) : resolve(s)));
    s.once('error', fail);
  });
}
