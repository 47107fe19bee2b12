/**
 * Microsoft Teams: a Workflows ("Post to a channel when a webhook request is received") or incoming-webhook URL,
 * sent an Adaptive Card: the subject as its title, then per group its heading and one block per event. Teams refuses
 * messages above about 28 KB: the default cap keeps below it.
 */
import { type OutgoingMessage, footer } from '../message.ts';
import { defineWebhookKind, webhookOptions } from './http-post.ts';

type Block = Record<string, unknown>;

function card(m: OutgoingMessage, limit: number): unknown {
  const body: Block[] = [{ type: 'TextBlock', size: 'Medium', weight: 'Bolder', wrap: true, text: m.subject }];
  for (const g of m.groups) {
    if (m.total > 1) body.push({ type: 'TextBlock', weight: 'Bolder', wrap: true, spacing: 'Medium', text: g.heading });
    for (const item of g.items.slice(0, limit)) {
      if (m.total > 1) body.push({ type: 'TextBlock', wrap: true, text: item.title });
      body.push({
        type: 'FactSet',
        facts: [...item.details, ['At', new Date(item.at).toISOString()]].map(([title, value]) => ({ title, value })),
      });
    }
    const rest = g.items.length - Math.min(limit, g.items.length);
    if (rest > 0) body.push({ type: 'TextBlock', wrap: true, isSubtle: true, text: `... and ${rest} more` });
  }
  body.push({ type: 'TextBlock', wrap: true, isSubtle: true, size: 'Small', text: footer(m) });
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body,
        },
      },
    ],
  };
}

export default defineWebhookKind({ options: webhookOptions(25_000), body: card });
