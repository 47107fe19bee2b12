/**
 * What the sandbox accepts as a fault set (control API and setFaults): strict, so a misspelt fault is refused
 * instead of silently not injected.
 */
import { z } from 'zod';

export const faultsSchema = z.strictObject({
  latencyMs: z.number().nonnegative().optional(),
  errorRate: z.number().min(0).max(1).optional(),
  rateLimit: z
    .object({ burst: z.number().int().nonnegative(), retryAfterSeconds: z.number().nonnegative() })
    .nullable()
    .optional(),
  maxRequestsPerSecond: z.number().positive().nullable().optional(),
  commitThenFail: z
    .object({
      rate: z.number().min(0).max(1),
      mode: z.enum(['502', 'drop', 'stall', 'mixed']),
      stallMs: z.number().nonnegative().optional(),
    })
    .nullable()
    .optional(),
  failBeforeCommit: z
    .object({ rate: z.number().min(0).max(1) })
    .nullable()
    .optional(),
  invalidJsonRate: z.number().min(0).max(1).optional(),
  schemaBreakRate: z.number().min(0).max(1).optional(),
  down: z.boolean().optional(),
  refuseTokens: z.boolean().optional(),
});
