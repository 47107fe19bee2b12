/**
 * Settings: Redis: where it is, Sentinel, passwords, replicas, key prefix.
 * Part of the one configuration schema (src/settings/config.ts); each default is documented above its field, and the table
 * of docs/operations.md is generated from these comments (scripts/config-doc.ts).
 */
import { z } from 'zod';
import { int } from './fields.ts';

export const redisSettings = {
  /** Redis URL (redis:// or rediss:// for TLS, password allowed). Unset: a private redis-server (demo/local only). */
  REDIS_URL: z
    .string()
    .superRefine((s, c) => {
      // never echo any part of it: an unencoded password would show
      // an '@' after the host part means a password with an unencoded / ? or # (the rest would read as a path)
      if (/^rediss?:\/\//.test(s) && (!URL.canParse(s) || /^rediss?:\/\/[^/?#]*[/?#].*@/.test(s))) {
        c.addIssue({
          code: 'custom',
          message:
            'is not a valid URL: a password holding : / @ # ? % must be percent-encoded (/ as %2F, @ as %40, : as %3A)',
        });
      } else if (!URL.canParse(s) || !['redis:', 'rediss:'].includes(new URL(s).protocol)) {
        c.addIssue({ code: 'custom', message: 'must be a URL starting with redis:// or rediss://' });
      }
    })
    .optional(),
  /**
   * Redis under Sentinel instead of REDIS_URL: the sentinels as `host:port` separated by commas (at least one; give
   * all of them). Every connection (BullMQ's included) asks them for the current primary and follows a failover.
   * Unset by default. Setting it together with REDIS_URL is refused.
   */
  REDIS_SENTINELS: z
    .string()
    .regex(/^\s*[^\s,:]+:\d{1,5}\s*(,\s*[^\s,:]+:\d{1,5}\s*)*$/, 'must be host:port[,host:port...]')
    .optional(),
  /** The primary's name as the sentinels know it (`sentinel monitor <name> ...`). Default `mymaster`. */
  REDIS_SENTINEL_NAME: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, _ . and - only')
    .default('mymaster'),
  /** Password of the Redis primary and replicas under Sentinel (requirepass). Unset: none. */
  REDIS_PASSWORD: z.string().min(1).optional(),
  /** File holding REDIS_PASSWORD (one line; a trailing newline is trimmed). */
  REDIS_PASSWORD_FILE: z.string().min(1).optional(),
  /** Password of the sentinels themselves (Sentinel's requirepass). Unset: none. */
  REDIS_SENTINEL_PASSWORD: z.string().min(1).optional(),
  /** File holding REDIS_SENTINEL_PASSWORD. */
  REDIS_SENTINEL_PASSWORD_FILE: z.string().min(1).optional(),
  /**
   * Replicas that must hold a claim before its POST goes out (Redis WAIT): a primary that dies before replicating
   * would otherwise forget the claim of an RFQ already posted. Default 1 with REDIS_SENTINELS, 0 otherwise.
   */
  REDIS_WAIT_REPLICAS: int(0, 16).optional(),
  /** How long a claim waits for those replicas before the POST is put off (the job retries), ms. Default 2,000. */
  REDIS_WAIT_TIMEOUT_MS: int(10, 60_000).default(2_000),
  /** Prefix of every Redis key and BullMQ queue. Default `rfq-sync`. */
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only')
    .default('rfq-sync'),
};
