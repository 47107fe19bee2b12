/**
 * The sourcing service's webhook on the operations endpoint: POST /hooks/sourcing/<WEBHOOK_SECRET> asks for a poll
 * now (src/tracking/poll-wake.ts: at most one waiting, at most one per WEBHOOK_MIN_INTERVAL_MS). A wake-up, never
 * data: the body (whose events and shape the service does not document) is read up to WEBHOOK_MAX_BODY_BYTES and
 * logged only as its size and, when it is JSON with an event-like field, that field. It answers 202 at once,
 * whatever the body. Any other path under /hooks/, any other method or secret, or no secret set: 404, the same
 * answer as for a path that does not exist. Mounted ahead of the endpoint's access guard: the service posts from
 * outside, without the endpoint's token; the secret in the path is its credential, compared in constant time.
 */
import { timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../src/logger.ts';

export interface WebhookOptions {
  secret?: string;
  maxBodyBytes: number;
  logger: Logger;
}

/** What a webhook sets off (the poll's wake-up); unset until the pipeline is up (503 meanwhile). */
export type WebhookTarget = () => Promise<{ outcome: string; at: number }>;

const PATH = /^\/hooks\/sourcing\/([^/]+)$/;
/** Fields a payload may name its event by, in that order. */
const EVENT_FIELDS = ['event', 'event_type', 'eventType', 'type', 'action', 'topic'];

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  // the lengths differ: still compare something of the expected length, so timing tells nothing either way
  return timingSafeEqual(a.length === b.length ? a : b, b) && a.length === b.length;
}

/**
 * The body, up to `max` bytes, and its size; a longer one is not read further (`truncated`: the connection is
 * closed once answered, so a huge body costs nothing more than the cap).
 */
function readCapped(req: Request, max: number): Promise<{ head: Buffer; size: number; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      parts.push(chunk.subarray(0, Math.max(0, max - size)));
      size += chunk.length;
      if (size > max) {
        req.off('data', onData);
        req.pause();
        resolve({ head: Buffer.concat(parts), size, truncated: true });
      }
    };
    req.on('data', onData);
    req.on('end', () => resolve({ head: Buffer.concat(parts), size, truncated: false }));
    req.on('error', reject);
  });
}

/** The event-like field of a JSON body, printable and short; undefined when there is none. */
export function eventOf(head: Buffer, complete: boolean): string | undefined {
  if (!complete || head.length === 0) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(head.toString('utf8'));
  } catch {
    return undefined;
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return undefined;
  for (const f of EVENT_FIELDS) {
    const v = (json as Record<string, unknown>)[f];
    if (typeof v === 'string' && v.trim() !== '') return v.replace(/[^\w.:/ -]/g, '?').slice(0, 64);
  }
  return undefined;
}

export function webhookRoute(o: WebhookOptions): {
  handle: (req: Request, res: Response, next: NextFunction) => void;
  setTarget: (t: WebhookTarget) => void;
} {
  let target: WebhookTarget | undefined;
  const notFound = (res: Response) => void res.status(404).type('text/plain').send('not found\n');
  const handle = (req: Request, res: Response, next: NextFunction): void => {
    if (!req.path.startsWith('/hooks/') && req.path !== '/hooks') return next();
    const m = PATH.exec(req.path);
    if (req.method !== 'POST' || !m || o.secret === undefined || !sameSecret(m[1]!, o.secret)) return notFound(res);
    if (!target) return void res.status(503).set('Retry-After', '5').type('text/plain').send('starting\n');
    const wake = target;
    void readCapped(req, o.maxBodyBytes)
      .then(async ({ head, size, truncated }) => {
        if (truncated) {
          res.set('Connection', 'close');
          res.on('finish', () => req.destroy());
        }
        res.status(202).type('text/plain').send('poll scheduled\n');
        const event = eventOf(head, !truncated);
        const woke = await wake();
        o.logger.info(
          {
            event: 'webhook.received',
            bytes: size,
            ...(truncated ? { truncated } : {}),
            ...(event !== undefined ? { hookEvent: event } : {}),
            ...woke,
          },
          `webhook received (${truncated ? `over ${o.maxBodyBytes}` : size} bytes${event !== undefined ? `, event ${event}` : ''}): ` +
            (woke.outcome === 'scheduled' ? `poll at ${new Date(woke.at).toISOString()}` : 'a poll is already waiting'),
        );
      })
      .catch((err: unknown) => {
        if (!res.headersSent) res.status(202).type('text/plain').send('poll scheduled\n');
        o.logger.warn({ event: 'webhook.failed', err }, `webhook: the poll could not be asked for: ${String(err)}`);
      });
  };
  return { handle, setTarget: (t) => void (target = t) };
}
