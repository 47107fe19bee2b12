/**
 * Settings: Logs, the operations endpoint (health, metrics, dashboard) and shutdown.
 * Part of the one configuration schema (src/settings/config.ts); each default is documented above its field, and the table
 * of docs/operations.md is generated from these comments (scripts/config-doc.ts).
 */
import { z } from 'zod';
import { int } from './fields.ts';

export const operationsSettings = {
  /** Log level: fatal, error, warn, info, debug, trace, silent. Default info. */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Address of the operations endpoint (health, metrics, dashboard). Default 127.0.0.1; elsewhere needs HTTP_TOKEN. */
  HTTP_HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * Host names (and addresses) the operations endpoint answers to, comma-separated: a request naming any other Host
   * is refused, so a web page cannot reach it through DNS rebinding. localhost, 127.0.0.1, ::1 and HTTP_HOST always
   * count. Default: only those.
   */
  HTTP_ALLOWED_HOSTS: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    )
    .default([]),
  /** Port of the operations endpoint; 0 turns it off. Default 9464. */
  HTTP_PORT: int(0, 65_535).default(9464),
  /**
   * Bearer token for the operations endpoint; required when HTTP_HOST is not a loopback address. Once set, changes and
   * the lookup page (/trace) need it from every client, loopback included.
   */
  HTTP_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** File holding HTTP_TOKEN (Docker secrets). */
  HTTP_TOKEN_FILE: z.string().min(1).optional(),
  /** How long graceful shutdown waits for in-flight jobs, ms. Default 30,000. */
  SHUTDOWN_TIMEOUT_MS: int(0, 3_600_000).default(30_000),
};
