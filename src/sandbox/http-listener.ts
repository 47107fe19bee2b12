/**
 * The sandbox's HTTP server: routes a request to the API (only under the prefix) or the control API, answers 500
 * for a handler that throws, and tracks sockets so close() does not wait for idle keep-alive connections.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { sendJson } from './http-io.ts';

export interface ListenerOptions {
  port: number;
  host: string;
  /** Without a trailing slash; '' for none. */
  prefix: string;
  api(req: IncomingMessage, res: ServerResponse, url: URL, path: string): Promise<void>;
  controlApi(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
}

export interface Listener {
  port: number;
  /** Stops listening and destroys open connections; resolves once the server closed. */
  close(): Promise<void>;
}

export async function listen(o: ListenerOptions): Promise<Listener> {
  const { prefix } = o;
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox.local');
    let path = url.pathname;
    // The API lives only under the prefix (as behind a reverse proxy); the control API answers with or without it.
    const underPrefix = !prefix || path === prefix || path.startsWith(`${prefix}/`);
    if (prefix && underPrefix) path = path.slice(prefix.length) || '/';
    const isControl = path === '/_sandbox' || path.startsWith('/_sandbox/');
    const handle = isControl
      ? o.controlApi(req, res, path)
      : underPrefix && path.startsWith('/v1/')
        ? o.api(req, res, url, path)
        : Promise.resolve(sendJson(res, 404, { error: 'not_found', message: `no such endpoint: ${url.pathname}` }));
    handle.catch((err: unknown) => {
      if (!res.headersSent && !res.destroyed)
        sendJson(res, 500, { error: 'internal', message: (err as Error).message });
    });
  });
  server.keepAliveTimeout = 5_000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      return closed;
    },
  };
}
