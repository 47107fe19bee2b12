/**
 * `rfq-sync notify test ROUTE`: one test message through the route's channel, now, without Redis or the queue, so IT
 * sees at once whether the server, the credentials and the recipients work (the error says why not).
 */
import { hostname } from 'node:os';
import { ConfigError, type Logger } from '../core/index.ts';
import { composeMessage } from './compose.ts';
import { notifyTest } from './events/index.ts';
import { resolveNotifySettings, type NotifierConfig } from './notify-settings.ts';
import { sendWithin } from './send-deadline.ts';

export async function sendTestMessage(
  config: Pick<NotifierConfig, 'NOTIFY_CHANNELS' | 'NOTIFY_ROUTES' | 'NOTIFY_OUTBOX_SHOWN_AS' | 'account' | 'folders'>,
  logger: Logger,
  name: string,
): Promise<{ channel: string; type: string; to?: string[] }> {
  const settings = resolveNotifySettings(config);
  const route = settings.routes.get(name);
  if (!route) {
    const known = [...settings.routes.keys()];
    throw new ConfigError([
      `notify test ${name}: no such route in NOTIFY_ROUTES (${known.length ? `routes: ${known.join(', ')}` : 'none is configured'})`,
    ]);
  }
  const c = settings.channels.get(route.channel)!;
  const channel = c.kind.create(c.options, { name: c.name, logger });
  const event = notifyTest.event({ route: name, channel: c.name, host: hostname() });
  const message = await composeMessage([event], {
    id: `${name}~test-${event.at}`,
    route: name,
    account: config.account,
    outbox: config.folders.outbox,
    shownAs: config.NOTIFY_OUTBOX_SHOWN_AS,
    attachMaxBytes: 0,
  });
  try {
    // within the channel's timeout_ms, as the notify job sends (a server trickling its answer is given up)
    await sendWithin(c.name, channel, message, route.to, { timeoutMs: c.kind.timeoutMs(c.options) });
  } finally {
    await channel.close();
  }
  return { channel: c.name, type: c.type, ...(route.to ? { to: route.to } : {}) };
}
