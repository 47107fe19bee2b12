/**
 * Which message of its route an event goes in, and when that message is sent: a digest window opened by the route's
 * first event and sent NOTIFY_DIGEST_MS later (`w<start>`), the next NOTIFY_DAILY_AT in TIME_ZONE (`d<time>`), or a
 * message of its own, sent at once (`e<hash of the event>`).
 */
import { wallClockAt, wallToUtc } from '../core/index.ts';
import { shortHash } from './event-kind.ts';

export interface Slot {
  message: string;
  /** Unix ms when the message is to be sent. */
  sendAt: number;
}

/** A message of its own for one event. */
export function ownMessage(eventId: string, now: number): Slot {
  return { message: `e${shortHash(eventId)}`, sendAt: now };
}

export function windowMessage(start: number, lengthMs: number): Slot {
  return { message: `w${start}`, sendAt: start + lengthMs };
}

/** The daily digest that the next `HH:MM` in `timeZone` after `now` sends. */
export function dailyMessage(now: number, at: string, timeZone: string): Slot {
  const sendAt = nextWallClock(now, at, timeZone);
  return { message: `d${sendAt}`, sendAt };
}

/** The first instant after `now` whose wall-clock time in `timeZone` is `HH:MM` (in a DST gap: just after it). */
export function nextWallClock(now: number, hhmm: string, timeZone: string): number {
  const [h, mi] = hhmm.split(':').map(Number) as [number, number];
  const today = wallClockAt(now, timeZone);
  for (let day = 0; day < 3; day++) {
    const at = wallToUtc({ ...today, d: today.d + day, h, mi, s: 0 }, timeZone);
    if (at > now) return at;
  }
  return now + 24 * 3600_000;
}
