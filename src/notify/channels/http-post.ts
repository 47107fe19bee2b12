/**
 * What the webhook kinds share: their options (the URL, a secret that may come from a file; a time-out; a size cap
 * on what is sent) and one POST of JSON with that time-out. A redirect is a failure (the body never follows to
 * another address), the answer is read up to 4 KiB, and no error names the URL (a Teams or Slack URL is a secret).
 */
import { z } from 'zod';
import { NotifyError, scrubSecrets } from '../../core/index.ts';
import { fitted, type OutgoingMessage } from '../message.ts';
import { defineChannelKind, MIB, secretOption, whole, type ChannelKind } from '../channel.ts';

/** The options every webhook kind takes; `maxBytes` is its default size cap. */
export function webhookShape(maxBytes: number) {
  return {
    url: z.string().optional(),
    url_file: z.string().optional(),
    /** The whole POST (connect, send, answer), ms. */
    timeout_ms: whole(100, 300_000).default(10_000),
    /** Largest body sent, bytes: fewer events are listed until it fits. */
    max_bytes: whole(1024, 16 * MIB).default(maxBytes),
  };
}

/** The webhook's URL (from `url` or `url_file`), checked to be http(s). */
export function webhookUrl(o: Record<string, unknown>, c: z.RefinementCtx): string {
  const url = secretOption(o, 'url', c, true);
  if (url !== undefined && !(URL.canParse(url) && ['http:', 'https:'].includes(new URL(url).protocol)))
    c.addIssue({ code: 'custom', path: ['url'], message: 'must be a URL starting with http:// or https://' });
  return url ?? '';
}

/** The options of a webhook kind without options of its own. */
export function webhookOptions(maxBytes: number) {
  return z.strictObject(webhookShape(maxBytes)).transform((o, c) => ({
    timeout_ms: o.timeout_ms,
    max_bytes: o.max_bytes,
    url: webhookUrl(o, c),
  }));
}

const ANSWER_BYTES = 4096;

/** POST `body` as JSON; resolves on a 2xx answer, else throws NotifyError (status and the start of the answer). */
export async function postJson(
  channel: string,
  url: string,
  body: string,
  o: { timeoutMs: number; headers?: Record<string, string>; signal?: AbortSignal },
): Promise<void> {
  const signal = AbortSignal.any([AbortSignal.timeout(o.timeoutMs), ...(o.signal ? [o.signal] : [])]);
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', ...o.headers },
      body,
      redirect: 'manual',
      signal,
    });
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const why =
      e.name === 'TimeoutError' || e.name === 'AbortError'
        ? `no answer within ${o.timeoutMs} ms`
        : (e.cause?.code ?? e.cause?.message ?? e.message);
    throw new NotifyError(channel, `the webhook could not be reached: ${scrubSecrets(String(why))}`);
  }
  const answer = await readSome(res, ANSWER_BYTES).catch(() => '');
  if (res.status < 200 || res.status > 299)
    throw new NotifyError(
      channel,
      `the webhook answered HTTP ${res.status}${res.status >= 300 && res.status < 400 ? ' (a redirect: not followed)' : ''}${answer ? `: ${scrubSecrets(answer.slice(0, 300))}` : ''}`,
    );
}

async function readSome(res: Response, max: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let n = 0;
  try {
    while (n < max) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      n += value.length;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, max).toString('utf8').trim();
}

/** The JSON body of the most events per group that fits `maxBytes`. */
export function fittedBody(render: (perGroup: number) => unknown, maxBytes: number): string {
  return fitted(
    (limit) => JSON.stringify(render(limit)),
    (s) => Buffer.byteLength(s),
    maxBytes,
  );
}

interface WebhookOptions {
  url: string;
  timeout_ms: number;
  max_bytes: number;
}

/**
 * A webhook kind: its options and the JSON body of a message with at most `perGroup` events per group (the most that
 * fits `max_bytes` is sent), plus any headers of its own.
 */
export function defineWebhookKind<O extends WebhookOptions>(k: {
  options: z.ZodType<O>;
  body(m: OutgoingMessage, perGroup: number): unknown;
  headers?(m: OutgoingMessage, o: O): Record<string, string>;
}): ChannelKind<O> {
  return defineChannelKind({
    options: k.options,
    needsRecipients: false,
    attachMaxBytes: () => 0,
    timeoutMs: (o) => o.timeout_ms,
    create(o, { name }) {
      return {
        async send(m, _to, signal) {
          const body = fittedBody((limit) => k.body(m, limit), o.max_bytes);
          await postJson(name, o.url, body, { timeoutMs: o.timeout_ms, headers: k.headers?.(m, o) ?? {}, signal });
        },
        close: async () => undefined,
      };
    },
  });
}
