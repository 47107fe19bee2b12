/**
 * Settings: the sourcing service's webhooks, a wake-up for the poll (app/http/webhook.ts, src/tracking/poll/poll-wake.ts).
 * Part of the one configuration schema (src/settings/config.ts); each default is documented above its field, and the table
 * of docs/operations.md is generated from these comments (scripts/config-doc.ts).
 */
import { z } from 'zod';
import { int } from './fields.ts';

export const webhookSettings = {
  /**
   * The secret part of the webhook URL registered on the sourcing service: POST /hooks/sourcing/<secret> on the
   * operations endpoint asks for a poll now. At least 16 characters (URL-safe: letters, digits, - and _). Default
   * none: the path answers 404.
   */
  WEBHOOK_SECRET: z
    .string()
    .min(16, 'must be at least 16 characters')
    .regex(/^[\w-]+$/, 'letters, digits, - and _ only (it is part of a URL)')
    .optional(),
  /**
   * Webhook polls are at most one per this many ms (and at most one waiting at a time): a flood of webhooks costs
   * one poll per interval. Default 2,000.
   */
  WEBHOOK_MIN_INTERVAL_MS: int(0, 3_600_000).default(2_000),
  /**
   * A webhook whose JSON body names tracked RFQs has those RFQs checked at once (a detail call each, or one page of
   * the closed list), instead of a whole poll: at most this many such checks per WEBHOOK_MIN_INTERVAL_MS (at least
   * 1 s) across all workers; a webhook beyond that wakes the poll as one naming nothing does. 0: no targeted checks
   * (every webhook wakes the poll). Default 10.
   */
  WEBHOOK_CHECKS_PER_INTERVAL: int(0, 10_000).default(10),
  /** A webhook's body is read up to this many bytes (a longer one is not read further; it is only logged). Default 65,536. */
  WEBHOOK_MAX_BODY_BYTES: int(0, 10_485_760).default(65_536),
};
