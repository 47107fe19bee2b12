/** `rfq-sync sandbox`: the built-in sourcing-service emulator as a foreground process, until SIGINT/SIGTERM. */
import { createLogger } from '../../src/core/index.ts';
import { DEFAULT_SANDBOX_TOKEN, startSandbox } from '../../src/sandbox/index.ts';
import type { GlobalOptions } from '../cli-support.ts';
import { installShutdown } from '../runtime/index.ts';

export interface SandboxCommandOptions {
  port?: number;
  host: string;
  prefix: string;
  stateFile?: string;
  autopilot?: boolean;
  closeAfterMs: number;
  dialect?: 'friendly' | 'docs';
  shapes?: 'current' | 'legacy';
  existing?: number;
  pageSize?: number;
  /** false: no vendor directory (`--no-vendors`). */
  vendors?: boolean;
  /** Where its webhooks go on every state change (`--webhook-url`). */
  webhookUrl?: string;
}

export async function runSandboxCommand(global: GlobalOptions, o: SandboxCommandOptions): Promise<number> {
  // The sandbox needs no configuration; only the log level is honoured.
  const logger = createLogger({ level: global.logLevel ?? process.env.LOG_LEVEL ?? 'info', stderr: true });
  const { closeAfterMs, autopilot, vendors, ...options } = o;
  const sandbox = await startSandbox({
    ...options,
    vendors: vendors !== false,
    autopilot: autopilot ? { closeAfterMs, completeAfterMs: closeAfterMs, suppliersPerRfq: 3 } : null,
  });
  process.stdout.write(
    `sandbox listening on ${sandbox.url} (dialect ${sandbox.dialect}, shapes ${sandbox.shapes})\n` +
      `  SOURCING_BASE_URL=${sandbox.url}\n  SOURCING_TOKEN=${DEFAULT_SANDBOX_TOKEN}\n` +
      `  control API: ${sandbox.url}/_sandbox/ ; Ctrl-C to stop\n` +
      (sandbox.webhooks.url ? `  webhooks to ${sandbox.webhooks.url.replace(/[^/]+$/, '<secret>')}\n` : ''),
  );
  const shutdown = installShutdown({
    logger,
    timeoutMs: 5_000,
    steps: () => [{ name: 'sandbox', run: () => sandbox.stop() }],
  });
  return shutdown.done;
}
