/**
 * The operations endpoint: /healthz (process up), /readyz (checks), /metrics (Prometheus) and the Bull Board
 * dashboard at /queues. Bound to 127.0.0.1 by default. Loopback clients need no credential; any other client must
 * present HTTP_TOKEN, as `Authorization: Bearer <token>` (scrapers) or as the password of HTTP Basic (browsers, which
 * then prompt for it). Binding to a non-loopback address without a token is refused.
 */
import { timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import { ConfigError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { OpsMetrics } from './metrics.ts';
import { runChecks, type ReadinessCheck } from './readiness.ts';

export interface OpsServerOptions {
  host: string;
  port: number;
  token?: string;
  logger: Logger;
  metrics: OpsMetrics;
  checks?: Record<string, ReadinessCheck>;
  queues?: readonly Queue[];
}

export interface OpsServer {
  readonly url: string;
  readonly port: number;
  /** Replace the readiness checks (e.g. once the worker context exists). */
  setChecks(checks: Record<string, ReadinessCheck>): void;
  /** Show these queues on the dashboard. */
  setQueues(queues: readonly Queue[]): void;
  close(): Promise<void>;
}

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\./.test(host);
}

function isLoopbackAddress(addr: string | undefined): boolean {
  if (!addr) return false;
  return addr === '::1' || /^127\./.test(addr) || /^::ffff:127\./.test(addr);
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

  app.use((req: Request, res: Response, next: NextFunction) => {
    if (isLoopbackAddress(req.socket.remoteAddress)) return next();
    const given = presentedToken(req.headers.authorization);
    if (o.token && given !== undefined && sameSecret(given, o.token)) return next();
    o.logger.warn({ remote: req.socket.remoteAddress, path: req.path }, 'operations endpoint: request without a valid token refused');
    res.status(401).set('WWW-Authenticate', 'Basic realm="rfq-sync", charset="UTF-8"').type('text/plain').send('token required\n');
  });

  app.get('/readyz', async (_req, res) => {
    const report = await runChecks(checks);
    res.status(report.ready ? 200 : 503).json(report);
  });

  app.get('/metrics', async (_req, res) => {
    try {
      const body = await o.metrics.registry.metrics();
      res.type(o.metrics.registry.contentType).send(body);
    } catch (err) {
      res.status(500).type('text/plain').send(`metrics failed: ${(err as Error).message}\n`);
    }
  });

  const boardAdapter = new ExpressAdapter();
  boardAdapter.setBasePath('/queues');
  const board = createBullBoard({
    queues: (o.queues ?? []).map((q) => new BullMQAdapter(q)),
    // @bull-board/express pins its own copy of @bull-board/api: same shape, distinct private declarations.
    serverAdapter: boardAdapter as unknown as Parameters<typeof createBullBoard>[0]['serverAdapter'],
    options: { uiConfig: { boardTitle: 'rfq-sync' } },
  });
  app.use('/queues', boardAdapter.getRouter());

  const server: Server = await new Promise((resolve, reject) => {
    const fail = (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new ConfigError([`HTTP_PORT: ${o.host}:${o.port} is already in use (another rfq-sync worker on this host? give each its own HTTP_PORT, or 0 to turn the endpoint off)`])
          : err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND'
            ? new ConfigError([`HTTP_HOST: ${o.host} is not an address of this host`])
            : err,
      );
    const s = app.listen(o.port, o.host, (err?: Error) => (err ? fail(err) : resolve(s)));
    s.once('error', fail);
  });
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
    setQueues(queues) {
      board.replaceQueues(queues.map((q) => new BullMQAdapter(q)));
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
