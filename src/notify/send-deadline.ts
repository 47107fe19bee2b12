/**
 * The deadline of one send, for every channel kind: the whole of it (connect, greeting, EHLO, STARTTLS, AUTH, DATA and
 * the server's answer; or the whole HTTP exchange) ends within the channel's `timeout_ms`, or the attempt fails and is
 * retried like any failed send. The libraries' own time-outs bound each wait for a byte, not the send: a server that
 * trickles its answer a byte a second never trips them. So the send gets an abort signal that fires at the deadline
 * (nodemailer and fetch let go of their connection on it), and is given up a moment later whatever the channel does
 * (a channel that ignored the signal cannot hold its send slot).
 */
import { NotifyError, NotifyStoppedError } from '../core/index.ts';
import type { Channel } from './channel.ts';
import type { OutgoingMessage } from './message.ts';

/** How long past the deadline a channel that ignored the abort is waited for, ms. */
const GRACE_MS = 250;

/** Send `m` through `channel`, ended by `timeoutMs` or by `stop` (the worker stops): a NotifyError saying which. */
export async function sendWithin(
  name: string,
  channel: Channel,
  m: OutgoingMessage,
  to: readonly string[] | undefined,
  o: { timeoutMs: number; stop?: AbortSignal },
): Promise<void> {
  const deadline = new AbortController();
  const signal = AbortSignal.any([deadline.signal, ...(o.stop ? [o.stop] : [])]);
  const why = () =>
    o.stop?.aborted && !deadline.signal.aborted
      ? new NotifyStoppedError(name)
      : new NotifyError(
          name,
          `no complete answer within ${o.timeoutMs} ms (timeout_ms bounds the whole send): given up, to be retried`,
        );
  let timer: NodeJS.Timeout | undefined;
  let late: NodeJS.Timeout | undefined;
  const givenUp = new Promise<never>((_, reject) => {
    const giveUp = () => {
      late ??= setTimeout(() => reject(why()), GRACE_MS);
    };
    timer = setTimeout(() => {
      deadline.abort();
      giveUp();
    }, o.timeoutMs);
    signal.addEventListener('abort', giveUp, { once: true });
  });
  givenUp.catch(() => undefined);
  try {
    await Promise.race([channel.send(m, to, signal), givenUp]);
  } catch (err) {
    throw signal.aborted ? why() : err;
  } finally {
    clearTimeout(timer);
    clearTimeout(late);
  }
}
