/**
 * Which message of its route an event goes in, and when that message is sent: a digest window opened by the route's
 * first event and sent NOTIFY_DIGEST_MS later (`w<start>`), the next NOTIFY_DAILY_AT in TIME_ZONE (`d<time>`), or a
 * message of its own, sent at once (`e<hash of the event>`).
 */
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

/** The first instant after `now` whose wall-clock time in `timeZone` is `HH:MM` (a day without it, by DST: the next). */
export function nextWallClock(now: number, hhmm: string, timeZone: string): number {
  const [hh, mm] = hhmm.split(':').map(Number) as [number, number];
  const today = wallClock(now, timeZone);
  for (let day = 0; day < 3; day++) {
    const guess = Date.UTC(today.year, today.month - 1, today.day + day, hh, mm);
    // the offset at the instant itself, found in two steps (it may differ from the offset at `guess` across DST)
    let instant = guess - offsetAt(guess, timeZone);
    instant = guess - offsetAt(instant, timeZone);
    const back = wallClock(instant, timeZone);
    if (instant > now && back.hour === hh && back.minute === mm) return instant;
  }
  return now + 24 * 3600_000;
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

function wallClock(t: number, timeZone: string): WallClock {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(new Date(t));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute') };
}

/** The zone's offset from UTC at `t`, ms (wall clock minus UTC, to the minute). */
function offsetAt(t: number, timeZone: string): number {
  const w = wallClock(t, timeZone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute) - Math.floor(t / 60_000) * 60_000;
}
