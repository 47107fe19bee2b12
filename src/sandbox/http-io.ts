/**
 * The sandbox's HTTP plumbing: JSON answers, the deliberately broken answer of the invalid-JSON fault, request
 * bodies read with a size cap, and the loopback check that guards the control API.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SandboxError } from '../core/index.ts';

const MAX_BODY_BYTES = 1024 * 1024;

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendBroken(res: ServerResponse, record: () => void): void {
  record();
  const text = '{"rfqs": [{"_id": 1, "title": "trunc';
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(new SandboxError(413, `body larger than ${MAX_BODY_BYTES} bytes`));
        req.pause();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function isLoopback(addr: string | undefined): boolean {
  return addr === '127.0.0.1' || addr === '::1' || addr === '::ffff:127.0.0.1' || (addr?.startsWith('127.') ?? false);
}
