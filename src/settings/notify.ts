/**
 * Settings: Notifications: the channels (e-mail, Teams, Slack, a generic webhook), the routes that send events to the
 * people who act on them, digests, retries and the thresholds of the IT events (docs/notifications.md).
 * Part of the one configuration schema (src/settings/config.ts); each default is documented above its field, and the table
 * of docs/operations.md is generated from these comments (scripts/config-doc.ts). The channels and routes are read as
 * they are here and checked in full (their shape, each kind's options, the event names) by
 * src/notify/notify-settings.ts where notifications are used: the worker, `once`, `notify test` and `doctor` refuse
 * them with one line per problem; the commands that send nothing (status, failed, ingest, resolve, recover) say so
 * in one warning line and go on.
 */
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { int } from './fields.ts';

/** Channel and route names: they appear in job ids and Redis keys. */
const NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** A mapping: an object in the YAML settings file, or YAML/JSON text in an environment variable. */
function mappingOf<T extends z.ZodType>(value: T) {
  return z.preprocess(
    (v, c) => {
      if (typeof v !== 'string') return v;
      try {
        return parseYaml(v) as unknown;
      } catch {
        c.addIssue({ code: 'custom', message: 'is not a YAML or JSON mapping' });
        return z.NEVER;
      }
    },
    z.record(z.string().regex(NAME, 'names: letters, digits, _ . and - only, at most 64'), value),
  );
}

const list = z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(z.string().min(1)).min(1));

export const routeSchema = z.strictObject({
  /** The channel (a name of NOTIFY_CHANNELS) this route sends through. */
  channel: z.string().regex(NAME, 'must name a channel of NOTIFY_CHANNELS'),
  /** The events it picks (docs/notifications.md#events), or `procurement`, `it`, `all`. */
  events: list,
  /** E-mail recipients (e-mail channels only). */
  to: z
    .preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(z.email('is not an e-mail address')).min(1))
    .optional(),
  /** Only events of these mapping profiles. */
  profiles: list.optional(),
  /** Only events of these plants or locations (the RFQ's rfq_location). */
  locations: list.optional(),
  /** Only events of these categories (the RFQ's rfq_category). */
  categories: list.optional(),
  /** `window` (NOTIFY_DIGEST_MS), `immediate` (one message per event) or `daily` (NOTIFY_DAILY_AT). */
  digest: z.enum(['window', 'immediate', 'daily']).default('window'),
});
export type RouteSetting = z.infer<typeof routeSchema>;

/** The shape of NOTIFY_CHANNELS, entry by entry (each kind's own options are checked by its kind). */
export const channelEntrySchema = z.looseObject({
  type: z.string({ error: 'required: the kind of channel (smtp, teams, slack or webhook)' }).min(1),
});
/** A mapping of names to anything (each entry checked on its own, so every problem is said). */
export const namedEntries = mappingOf(z.unknown());

export const notifySettings = {
  /**
   * The notification channels by name, in the YAML settings file (or as JSON in the variable): `type` is `smtp`,
   * `teams`, `slack` or `webhook`, the other keys are that kind's options (docs/notifications.md#channels). Secrets
   * (`password`, `url`) may be given as files (`password_file`, `url_file`). Default: none.
   */
  NOTIFY_CHANNELS: z.unknown().optional(),
  /**
   * The routes by name: each sends the events it picks (`events`), optionally only those of some `profiles`,
   * `locations` (plants) or `categories`, through one `channel` (to the `to` addresses of an e-mail channel), as a
   * digest (`digest: window`, the default), one message per event (`immediate`) or once a day (`daily`)
   * (docs/notifications.md#routes). Default: none, nothing is sent.
   */
  NOTIFY_ROUTES: z.unknown().optional(),
  /**
   * A route's events within this many ms of its first one go in one message (a burst of 500 refused files is one
   * e-mail). 0 sends each event on its own. Default 120,000 (2 minutes).
   */
  NOTIFY_DIGEST_MS: int(0, 86_400_000).default(120_000),
  /** When the `daily` digests go, `HH:MM` in TIME_ZONE. Default `07:00`. */
  NOTIFY_DAILY_AT: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day as HH:MM (24 h)')
    .default('07:00'),
  /** Attempts to send one message before it is kept as failed (`rfq-sync failed list`). Default 8. */
  NOTIFY_ATTEMPTS: int(1, 100).default(8),
  /** First retry delay of a message that could not be sent, ms; doubles per attempt, with jitter. Default 10,000. */
  NOTIFY_BACKOFF_MS: int(1, 3_600_000).default(10_000),
  /**
   * Messages sent at once per channel, per worker process: a channel that fails or stalls holds only its own send
   * slots (docs/notifications.md#delivery). Default 2.
   */
  NOTIFY_CONCURRENCY: int(1, 64).default(2),
  /**
   * How long `rfq-sync once` waits for its notifications once its pipeline is drained, ms; what is not sent by then
   * stays queued for the next worker or run (said in one line). Default: the longest `timeout_ms` of the channels
   * plus 5,000 (35,000 with a mail channel's default time-out).
   */
  NOTIFY_ONCE_WAIT_MS: int(0, 3_600_000).optional(),
  /** "Supplier response low": an RFQ with fewer quotations than this when it closes. Default 3. */
  NOTIFY_MIN_QUOTATIONS: int(1, 1000).default(3),
  /** "Service unreachable": the polls have failed for longer than this, ms. Default 900,000 (15 minutes). */
  NOTIFY_UNREACHABLE_MS: int(1_000, 604_800_000).default(900_000),
  /** "Poll stuck": no poll has finished for longer than this, ms. Default 1,800,000 (30 minutes). */
  NOTIFY_POLL_STUCK_MS: int(1_000, 604_800_000).default(1_800_000),
  /** How often a worker looks for an unreachable service or a stuck poll, ms. Default 60,000. */
  NOTIFY_CHECK_MS: int(100, 3_600_000).default(60_000),
  /**
   * How people reach the outbox, e.g. `\\fileserver\rfq-sync\outbox`: paths in messages are shown under it instead
   * of the worker's own path. Default: the worker's path.
   */
  NOTIFY_OUTBOX_SHOWN_AS: z.string().min(1).optional(),
};
