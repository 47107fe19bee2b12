/**
 * Send slots per channel, in each worker process: a channel sends at most NOTIFY_CONCURRENCY messages at once, so a
 * channel that stalls holds its own slots and no other channel's. The notify worker has a slot for every channel's
 * share (jobs/worker.ts), and a message whose channel has none free is put back on the queue for a while (jobs/notify.ts)
 * instead of holding a worker slot: a message to a healthy channel is taken at once whatever another is doing.
 */

/** A slot taken (`release` when the send ended), or how long to wait before trying again, ms. */
export type SlotReservation = { release(): void } | { retryInMs: number };

/** Shortest and longest wait of a message whose channel is busy, ms. */
const MIN_RETRY_MS = 250;

export function channelSlots(perChannel: number): {
  take(channel: string, timeoutMs: number): SlotReservation;
} {
  /** The start times of the sends under way, per channel. */
  const running = new Map<string, Set<{ at: number }>>();
  return {
    take(channel, timeoutMs) {
      const now = Date.now();
      const sends = running.get(channel) ?? new Set<{ at: number }>();
      running.set(channel, sends);
      if (sends.size < perChannel) {
        const send = { at: now };
        sends.add(send);
        return { release: () => void sends.delete(send) };
      }
      // Wait as long as the oldest send has run so far (a quick channel is tried again soon, a stalled one seldom),
      // never past that send's deadline, when its slot is free for sure; with jitter, so the waiting ones spread out.
      const oldest = Math.min(...[...sends].map((s) => s.at));
      const wait = Math.min(Math.max(MIN_RETRY_MS, now - oldest), Math.max(MIN_RETRY_MS, oldest + timeoutMs - now));
      return { retryInMs: Math.round(wait * (1 + Math.random() * 0.5)) };
    },
  };
}
