/**
 * The notification settings, checked against the registries of channel kinds and event kinds: each channel's
 * options by its kind (secrets read from their files), each route's channel, recipients and event names. Every
 * problem is one line naming the setting (`NOTIFY_CHANNELS.it-mail.port: ...`); the worker refuses to start with
 * them (ConfigError), like any other bad setting.
 */
import {
  type SettingValues,
  channelEntrySchema,
  namedEntries,
  routeSchema,
  type notifySettings,
  type outputSettings,
  type Folders,
  type RouteSetting,
} from '../settings/index.ts';
import { ConfigError } from '../core/index.ts';
import type { z } from 'zod';
import type { ChannelKind } from './channel.ts';
import * as channelKinds from './channels/index.ts';
import { audiencesOf, type Audience, type EventKind } from './event-kind.ts';
import * as eventKinds from './events/index.ts';

/** By `type`. */
export const CHANNEL_KINDS: ReadonlyMap<string, ChannelKind<unknown>> = new Map(
  Object.entries(channelKinds as Record<string, ChannelKind<unknown>>),
);
/** By name. */
export const EVENT_KINDS: ReadonlyMap<string, EventKind> = new Map(
  Object.values(eventKinds as Record<string, EventKind>).map((k) => [k.name, k]),
);

export interface ResolvedChannel {
  name: string;
  type: string;
  kind: ChannelKind<unknown>;
  options: unknown;
}

export interface ResolvedRoute {
  name: string;
  channel: string;
  events: ReadonlySet<string>;
  to?: string[];
  profiles?: ReadonlySet<string>;
  locations?: ReadonlySet<string>;
  categories?: ReadonlySet<string>;
  digest: RouteSetting['digest'];
}

export interface NotifySettings {
  channels: ReadonlyMap<string, ResolvedChannel>;
  routes: ReadonlyMap<string, ResolvedRoute>;
}

const GROUPS: Record<string, Audience[]> = { procurement: ['procurement'], it: ['it'], all: ['procurement', 'it'] };

/** The notification settings as parsed (src/settings/notify.ts); app/ passes them from the configuration. */
export type NotifyConfig = SettingValues<typeof notifySettings>;

/** What the notifier reads of the configuration: its settings, the account and outbox messages name, the time zone. */
export type NotifierConfig = Pick<
  NotifyConfig,
  | 'NOTIFY_CHANNELS'
  | 'NOTIFY_ROUTES'
  | 'NOTIFY_ATTEMPTS'
  | 'NOTIFY_BACKOFF_MS'
  | 'NOTIFY_CONCURRENCY'
  | 'NOTIFY_DIGEST_MS'
  | 'NOTIFY_DAILY_AT'
  | 'NOTIFY_OUTBOX_SHOWN_AS'
> &
  Pick<SettingValues<typeof outputSettings>, 'TIME_ZONE'> & { account: string; folders: Pick<Folders, 'outbox'> };

/**
 * The channels and routes of the configuration; throws ConfigError listing every problem: the shape of each entry
 * (src/settings/notify.ts), each channel's options by its kind, each route's channel, recipients and events.
 */
export function resolveNotifySettings(config: Pick<NotifyConfig, 'NOTIFY_CHANNELS' | 'NOTIFY_ROUTES'>): NotifySettings {
  const problems: string[] = [];
  const channelEntries = entries('NOTIFY_CHANNELS', config.NOTIFY_CHANNELS, channelEntrySchema, problems);
  const routeEntries = entries('NOTIFY_ROUTES', config.NOTIFY_ROUTES, routeSchema, problems);
  const channels = new Map<string, ResolvedChannel>();
  for (const [name, entry] of channelEntries) {
    const { type, ...rest } = entry;
    const kind = CHANNEL_KINDS.get(type);
    if (!kind) {
      problems.push(
        `NOTIFY_CHANNELS.${name}.type: ${type} is not a channel kind (${[...CHANNEL_KINDS.keys()].join(', ')})`,
      );
      continue;
    }
    const parsed = kind.options.safeParse(rest);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        problems.push(`NOTIFY_CHANNELS.${name}${pathOf(issue.path)}: ${issue.message}`);
      continue;
    }
    channels.set(name, { name, type, kind, options: parsed.data });
  }
  const named = new Set(namedKeys(config.NOTIFY_CHANNELS));
  const routes = new Map<string, ResolvedRoute>();
  for (const [name, r] of routeEntries) {
    const at = `NOTIFY_ROUTES.${name}`;
    const channel = channels.get(r.channel);
    if (!channel && !named.has(r.channel))
      problems.push(`${at}.channel: ${r.channel} is not a channel of NOTIFY_CHANNELS`);
    if (channel?.kind.needsRecipients && !r.to?.length)
      problems.push(`${at}.to: required: the e-mail addresses this route sends to`);
    if (channel && !channel.kind.needsRecipients && r.to?.length)
      problems.push(`${at}.to: only for e-mail channels (${r.channel} is a ${channel.type} channel)`);
    const events = new Set<string>();
    for (const e of r.events) {
      const group = GROUPS[e];
      if (group)
        for (const k of EVENT_KINDS.values()) if (audiencesOf(k).some((a) => group.includes(a))) events.add(k.name);
      if (group) continue;
      const kind = EVENT_KINDS.get(e);
      if (kind && !audiencesOf(kind).includes('test')) events.add(e);
      else
        problems.push(
          `${at}.events: ${e} is not an event (${[...Object.keys(GROUPS), ...[...EVENT_KINDS.values()].filter((k) => !audiencesOf(k).includes('test')).map((k) => k.name)].join(', ')})`,
        );
    }
    routes.set(name, {
      name,
      channel: r.channel,
      events,
      ...(r.to ? { to: r.to } : {}),
      ...(r.profiles ? { profiles: new Set(r.profiles) } : {}),
      ...(r.locations ? { locations: new Set(r.locations) } : {}),
      ...(r.categories ? { categories: new Set(r.categories) } : {}),
      digest: r.digest,
    });
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return { channels, routes };
}

const pathOf = (path: readonly PropertyKey[]): string => path.map((p) => `.${String(p)}`).join('');

/** The entries of a mapping setting that have the shape `schema` wants; the others are problems, one line each. */
function entries<T>(setting: string, value: unknown, schema: z.ZodType<T>, problems: string[]): Array<[string, T]> {
  if (value === undefined) return [];
  const mapping = namedEntries.safeParse(value);
  if (!mapping.success) {
    for (const issue of mapping.error.issues) problems.push(`${setting}${pathOf(issue.path)}: ${issue.message}`);
    return [];
  }
  const out: Array<[string, T]> = [];
  for (const [name, entry] of Object.entries(mapping.data)) {
    const parsed = schema.safeParse(entry);
    if (parsed.success) out.push([name, parsed.data]);
    else
      for (const issue of parsed.error.issues)
        problems.push(`${setting}.${name}${pathOf(issue.path)}: ${issue.message}`);
  }
  return out;
}

/** The names of a mapping setting, whatever their entries hold. */
function namedKeys(value: unknown): string[] {
  const mapping = namedEntries.safeParse(value);
  return mapping.success ? Object.keys(mapping.data) : [];
}
