/**
 * What an event kind is: its name (what a route picks), who acts on it, the shape of its data, its identity (one
 * message per event per route: the same occurrence emitted twice, by a retry or by two workers, is one event), what
 * a route may filter it by, and how it reads in a message. One file per kind in events/, one line in events/index.ts.
 */
import { createHash } from 'node:crypto';
import type { z } from 'zod';

/** Who acts on it: a route's `events: [procurement]` or `[it]` picks every kind of that audience (`test`: none). */
export type Audience = 'procurement' | 'it' | 'test';

/** What a route may filter an event by (an event without the field passes only routes that do not filter on it). */
export interface EventScope {
  profile?: string;
  location?: string;
  category?: string;
}

/** A detail line of a message: a label and its text, or a path in the outbox (shown as NOTIFY_OUTBOX_SHOWN_AS says). */
export type Detail = [label: string, value: string | { path: string }];

export interface EventKind<D = unknown> {
  /** `comparison-ready`: the name routes pick it by. */
  readonly name: string;
  /** One audience, or several when each must act (procurement and IT both). */
  readonly audience: Audience | readonly Audience[];
  readonly data: z.ZodType<D>;
  /** Unique per occurrence and the same for every emission of it, e.g. `<rfqId>~v<version>`. */
  id(d: D): string;
  scope(d: D): EventScope;
  /** How many there are, as a heading: `3 comparisons ready`. */
  count(n: number): string;
  /** The one line that says what happened. */
  title(d: D): string;
  details(d: D): Detail[];
  /** A file to attach (e-mail) when it fits under the channel's cap, else shown as its path. */
  attachment?(d: D): { path: string } | undefined;
}

/** The audiences of a kind, as a list. */
export function audiencesOf(kind: Pick<EventKind, 'audience'>): readonly Audience[] {
  return typeof kind.audience === 'string' ? [kind.audience] : kind.audience;
}

/** An event as it travels: in a Redis list of its route's message, and in the generic webhook's JSON. */
export interface NotifyEvent {
  kind: string;
  id: string;
  /** Unix ms when it was emitted. */
  at: number;
  scope: EventScope;
  data: unknown;
}

/** A kind, typed by its data schema; `event(data)` makes one occurrence. */
export function defineEventKind<S extends z.ZodType>(
  kind: Omit<EventKind<z.output<S>>, 'data'> & { data: S },
): EventKind<z.output<S>> & { event(d: z.output<S>, at?: number): NotifyEvent } {
  return {
    ...kind,
    data: kind.data as unknown as z.ZodType<z.output<S>>,
    event: (d, at = Date.now()) => ({
      kind: kind.name,
      id: `${kind.name}~${kind.id(d)}`,
      at,
      scope: kind.scope(d),
      data: d,
    }),
  };
}

/** `n thing(s)` with the plural given. */
export function plural(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
}

/** A short stable digest of a long identity (job ids and Redis keys stay short). */
export function shortHash(s: string): string {
  return createHash('sha256').update(s).digest('hex').slice(0, 16);
}

/** A detail line only when there is a value. */
export function detailIf(label: string, value: string | undefined): Detail[] {
  return value === undefined || value === '' ? [] : [[label, value]];
}
