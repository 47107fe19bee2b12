/**
 * Slack: an incoming webhook (https://hooks.slack.com/services/...): the message as mrkdwn text, the subject in bold.
 * Slack cuts messages near 40,000 characters: the default cap keeps below it.
 */
import { defineChannelKind } from '../channel.ts';
import { messageText } from '../message.ts';
import { fittedBody, postJson, webhookOptions } from './http-post.ts';

/** Slack's mrkdwn escapes only these three. */
const escapeSlack = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export default defineChannelKind({
  options: webhookOptions(35_000),
  needsRecipients: false,
  attachMaxBytes: () => 0,
  create(o, { name }) {
    return {
      async send(m) {
        const body = fittedBody(
          (limit) => ({
            text: `*${escapeSlack(m.subject)}*\n${escapeSlack(messageText(m, limit))}`,
            unfurl_links: false,
            unfurl_media: false,
          }),
          o.max_bytes,
        );
        await postJson(name, o.url, body, { timeoutMs: o.timeout_ms });
      },
      close: async () => undefined,
    };
  },
});
