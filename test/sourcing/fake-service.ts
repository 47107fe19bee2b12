/**
 * A tiny hand-written HTTP service for the answers the sandbox never gives (array-shaped lines, broken links...).
 * Records every request so a test can assert what reached it (and that no token did).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll } from 'vitest';
import { createLogger, type Logger } from '../../src/core/logger.ts';
import { createSourcingClient, type SourcingClient } from '../../src/sourcing/client/http-client.ts';

export interface FakeRequest {
  method: string;
  url: string;
  authorization: string | undefined;
}

export interface FakeService {
  url: string;
  origin: string;
  requests: FakeRequest[];
  stop(): Promise<void>;
}

export async function startFakeService(
  handle: (req: IncomingMessage, url: URL, res: ServerResponse) => void | Promise<void>,
): Promise<FakeService> {
  const requests: FakeRequest[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake.local');
    requests.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    void Promise.resolve(handle(req, url, res)).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    origin,
    requests,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(text);
}

/** A pino logger writing JSON lines into memory. */
export function captureLogs(): { logger: Logger; text: () => string; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk.toString('utf8'));
      cb();
    },
  });
  const logger = createLogger({ level: 'debug', pretty: false, destination: sink });
  const text = () => chunks.join('');
  return {
    logger,
    text,
    lines: () =>
      text()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

/**
 * A fake service that answers each GET path (with its query) from `answers` (404 for anything else), and a client
 * on it; both started before the file's tests and stopped after.
 */
export function useScriptedService(prefix = ''): { answers: Map<string, unknown>; client: () => SourcingClient } {
  const answers = new Map<string, unknown>();
  let svc: FakeService | undefined;
  let client: SourcingClient | undefined;
  beforeAll(async () => {
    svc = await startFakeService((_req, url, res) => {
      const key = `${url.pathname}${url.search}`;
      if (!answers.has(key)) return json(res, 404, { error: 'not found', key });
      json(res, 200, answers.get(key));
    });
    client = createSourcingClient({
      baseUrl: `${svc.url}${prefix}`,
      getToken: () => 'tok-scripted-1234',
      getRetries: 0,
    });
  });
  afterAll(async () => {
    await client?.close();
    await svc?.stop();
  });
  return {
    answers,
    client: () => {
      if (!client) throw new Error('the scripted service starts before the tests');
      return client;
    },
  };
}
