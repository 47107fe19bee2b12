/**
 * The generic JSON webhook: POSTs `{id, source, account, route, subject, text, total, events: [...]}`, each event with
 * its kind, id, time, title, details and data, for a ticketing system or an automation tool. `id` is the same on a
 * repeat after a crash, so a receiver can drop the second. An `authorization` header value may come from a file.
 */
import { z } from 'zod';
import { secretOption } from '../channel.ts';
import { messageText } from '../message.ts';
import { defineWebhookKind, webhookShape, webhookUrl } from './http-post.ts';

const options = z
  .strictObject({
    ...webhookShape(256 * 1024),
    /** The Authorization header's value (e.g. `Bearer ...`), or a file holding it. */
    authorization: z.string().optional(),
    authorization_file: z.string().optional(),
  })
  .transform((o, c) => {
    const authorization = secretOption(o, 'authorization', c, false);
    return {
      timeout_ms: o.timeout_ms,
      max_bytes: o.max_bytes,
      url: webhookUrl(o, c),
      ...(authorization !== undefined ? { authorization } : {}),
    };
  });

export default defineWebhookKind({
  options,
  body: (m, limit) => ({
    id: m.id,
    source: 'rfq-sync',
    account: m.account,
    route: m.route,
    subject: m.subject,
    text: messageText(m, limit),
    total: m.total,
    events: m.groups.flatMap((g) =>
      g.items.slice(0, limit).map((i) => ({
        kind: i.kind,
        id: i.id,
        at: new Date(i.at).toISOString(),
        title: i.title,
        details: Object.fromEntries(i.details),
        data: i.data,
      })),
    ),
    omitted: m.groups.reduce((n, g) => n + Math.max(0, g.items.length - limit), 0),
  }),
  headers: (m, o) => ({ 'idempotency-key': m.id, ...(o.authorization ? { authorization: o.authorization } : {}) }),
});
