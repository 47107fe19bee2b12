/** `rfq-sync failed list` and `failed retry [REF|--all]`: the failed jobs of every queue (failed-jobs.ts). */
import type { Config } from '../../src/settings/index.ts';
import type { Logger } from '../../src/core/index.ts';
import { listFailed, retryFailed } from './failed-jobs.ts';
import { EXIT_CONFIG, EXIT_FAILED, EXIT_OK, out } from '../cli-support.ts';
import { withReadContext } from './context.ts';

export async function runFailedList(
  config: Config,
  logger: Logger,
  o: { json?: boolean; limit: number },
): Promise<number> {
  const jobs = await withReadContext(config, logger, 'failed list', (ctx) => listFailed(ctx, { limit: o.limit }));
  if (o.json) {
    out(JSON.stringify(jobs, null, 2));
    return EXIT_OK;
  }
  if (jobs.length === 0) {
    out('no failed jobs');
    return EXIT_OK;
  }
  for (const j of jobs) {
    const at = j.failedAt ? new Date(j.failedAt).toISOString() : '?';
    out(`${j.ref}  ${at}  attempts ${j.attemptsMade}${j.subject ? `  ${j.subject}` : ''}`);
    out(`    ${j.failedReason.split('\n')[0]}`);
  }
  out(`${jobs.length} failed job(s); \`rfq-sync failed retry REF\` or \`rfq-sync failed retry --all\` runs them again`);
  return EXIT_OK;
}

export async function runFailedRetry(
  config: Config,
  logger: Logger,
  ref: string | undefined,
  o: { all?: boolean },
): Promise<number> {
  if (!ref && !o.all) {
    process.stderr.write('rfq-sync: name a failed job (REF from `rfq-sync failed list`) or pass --all\n');
    return EXIT_CONFIG;
  }
  const r = await withReadContext(config, logger, 'failed retry', (ctx) => retryFailed(ctx, o.all ? 'all' : ref!));
  for (const id of r.retried) out(`retried ${id}`);
  for (const id of r.notFound) process.stderr.write(`rfq-sync: no failed job ${id}\n`);
  if (r.retried.length === 0 && r.notFound.length === 0) out('no failed jobs');
  return r.notFound.length ? EXIT_FAILED : EXIT_OK;
}
