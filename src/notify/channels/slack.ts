/**
 * Slack: an incoming webhook (https://hooks.slack.com/services/...): the message as mrkdwn text, the subject in bold.
 * Slack cuts messages near 40,000 characters: the default cap keeps below it.
 */
import { messageText } from '../message.ts';
import { defineWebhookKind, webhookOptions } from './http-post.ts';

/** Slack's mrkdwn escapes only these three. */
const escapeSlack = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export default defineWebhookKind({
  options: webhookOptions(35_000),
  body: (m, limit) => ({
    text: `*${escapeSlack(m.subject)}*\n${escapeSlack(messageText(m, limit))}`,
    unfurl_links: false,
    unfurl_media: false,
  }),
});
