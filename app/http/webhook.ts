/**
 * The sourcing service's webhook on the operations endpoint: POST /hooks/sourcing/<WEBHOOK_SECRET>. The body (whose
 * events and shape the service does not document) is read up to WEBHOOK_MAX_BODY_BYTES; when it is JSON, the
 * integers it holds are the RFQs it may name (src/tracking/poll/hint-check.ts hintIds): the tracked ones are checked at
 * the service now, a hint, never data; whatever that does not settle asks for a poll now (src/tracking/poll/poll-wake.ts:
 * at most one waiting, at most one per WEBHOOK_MIN_INTERVAL_MS). Logged as its size and, when it is JSON with an
 * event-like field, that field. It answers 202 at once, whatever the body. Any other path under /hooks/, any other method or secret, or no secret set: 404, the same
 * answer as for a path that does not exist. Mounted ahead of the endpoint's access guard: the service posts from
 * outside, without the endpoint's token; the secret in the path is its credential, compared in constant time.
 */
import { timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../../src/core/index.ts';
import { hintIds, type HintOutcome } from '../../src/tracking/index.ts';

export interface WebhookOptions {
  secret?: string;
  maxBodyBytes: number;
  logger: Logger;
}

/**
 * What a webhook sets off, given the ids its body may name (src/tracking/poll/hint-check.ts actOnWebhook: a targeted
 * check, else the poll's wake-up); unset until the pipeline is up (503 meanwhile).
 */
export type WebhookTarget = (hint: { ids: number[] }) => Promise<WebhookOutcome>;

/** `outcome`/`at`: the poll woken (or already waiting), when one was; `checked`/`transitions`: the targeted check. */
export interface WebhookOutcome {
  outcome?: string;
  at?: number;
  named?: number;
  checked?: number;
  transitions?: number;
}

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

/** The body as JSON, when it was read whole and is JSON; undefined else. */
function jsonOf(head: Buffer, complete: boolean): unknown {
  if (!complete || head.length === 0) return undefined;
  try {
    return JSON.parse(head.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** The event-like field of a JSON body, printable and short; undefined when there is none. */
export function eventOf(head: Buffer, complete: boolean): string | undefined {
  return eventField(jsonOf(head, complete));
}

function eventField(json: unknown): string | undefined {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return undefined;
  for (const f of EVENT_FIELDS) {
    const v = (json as Record<string, unknown>)[f];
    if (typeof v === 'string' && v.trim() !== '') return v.replace(/[^\w.:/ -]/g, '?').slice(0, 64);
  }
  return undefined;
}

/** A targeted check's outcome as the webhook logs it. */
export function webhookOutcome(h: HintOutcome): WebhookOutcome {
  return {
    ...(h.poll ? { outcome: h.poll.outcome, at: h.poll.at } : {}),
    ...(h.named > 0 ? { named: h.named, checked: h.checked, transitions: h.transitions } : {}),
  };
}

function said(w: WebhookOutcome): string {
  const checked = w.checked ? `${w.checked} named RFQs checked, ${w.transitions ?? 0} transitions` : '';
  const poll =
    w.outcome === 'scheduled' && w.at !== undefined
      ? `poll at ${new Date(w.at).toISOString()}`
      : w.outcome === 'pending'
        ? 'a poll is already waiting'
        : '';
  return [checked, poll].filter(Boolean).join('; ') || 'nothing to do';
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
        const json = jsonOf(head, !truncated);
        const event = eventField(json);
        const woke = await wake({ ids: json === undefined ? [] : hintIds(json) });
        o.logger.info(
          {
            event: 'webhook.received',
            bytes: size,
            ...(truncated ? { truncated } : {}),
            ...(event !== undefined ? { hookEvent: event } : {}),
            ...woke,
          },
          `webhook received (${truncated ? `over ${o.maxBodyBytes}` : size} bytes${event !== undefined ? `, event ${event}` : ''}): ` +
            said(woke),
        );
      })
      .catch((err: unknown) => {
        if (!res.headersSent) res.status(202).type('text/plain').send('poll scheduled\n');
        o.logger.warn({ event: 'webhook.failed', err }, `webhook: the poll could not be asked for: ${String(err)}`);
      });
  };
  return { handle, setTarget: (t) => void (target = t) };
}
