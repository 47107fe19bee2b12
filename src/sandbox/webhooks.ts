/**
 * The sandbox's webhooks, as the real service sends them to the URLs an account registers (Settings -> API ->
 * Webhooks; `ralese/docs` source/Apis/webhook.rst, events and payload not documented): a POST on every state change
 * of an RFQ to the configured URL, with a plausible JSON payload. Fire and forget: a receiver that is down or slow
 * changes nothing here (counted in the stats' `webhooks`).
 */
import { STATUS_TEXT, type RfqState, type StoredRfq } from './store.ts';

export interface WebhookSender {
  url: string | undefined;
  /** An RFQ changed state. */
  stateChanged(rfq: StoredRfq, from: RfqState): void;
  /** Sent, failed (no answer or not 2xx). */
  counts(): { sent: number; failed: number };
  /** Waits for the posts in flight (stop, tests). */
  settle(): Promise<void>;
}

export function createWebhookSender(url: string | undefined): WebhookSender {
  let sent = 0;
  let failed = 0;
  const inFlight = new Set<Promise<void>>();
  const sender: WebhookSender = {
    url,
    stateChanged(rfq, from) {
      const target = sender.url;
      if (!target) return;
      const body = JSON.stringify({
        event: 'rfq.status_changed',
        rfq_id: rfq._id,
        rfq_no: rfq.rfq_no,
        status: STATUS_TEXT[rfq.state],
        previous_status: STATUS_TEXT[from],
        changed_at: new Date(rfq.stateChangedAt).toISOString(),
      });
      const p = fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'rfq-sync-sandbox-webhook' },
        body,
        signal: AbortSignal.timeout(5_000),
      })
        .then(async (res) => {
          await res.body?.cancel();
          if (res.ok) sent++;
          else failed++;
        })
        .catch(() => void failed++)
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
    },
    counts: () => ({ sent, failed }),
    async settle() {
      await Promise.all([...inFlight]);
    },
  };
  return sender;
}
