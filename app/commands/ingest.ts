/** `rfq-sync ingest FILE`: one file read on a host of the intake folder, as the inbox would. */
import type { Config } from '../../src/settings/index.ts';
import type { Logger } from '../../src/core/index.ts';
import { ingestOneFile, assertIntakeFolder } from '../../src/intake/index.ts';
import { EXIT_OK, out } from '../cli-support.ts';
import { withReadContext } from './context.ts';

const INGEST_WAYS_OUT =
  "Run `rfq-sync ingest` on a host of the intake folder, or copy the file into that folder's inbox.";

export async function runIngestCommand(
  config: Config,
  logger: Logger,
  file: string,
  o: { mapping?: string; move?: boolean },
): Promise<number> {
  const { r, workers, account } = await withReadContext(config, logger, 'ingest', async (ctx) => ({
    // a file put into a processing/ folder no intake worker reads would never be read
    r: await assertIntakeFolder(ctx, INGEST_WAYS_OUT).then(() =>
      ingestOneFile(ctx, file, { mapping: o.mapping, move: o.move }),
    ),
    workers: await ctx.queues.ingest.getWorkersCount(),
    account: ctx.config.account,
  }));
  if (r.status === 'enqueued')
    out(
      `${file}: queued for ingestion (job ${r.jobId}); a running worker reads it and writes its report to ${config.folders.reports}`,
    );
  if (r.status === 'enqueued' && workers === 0) {
    out(
      `no worker of account ${account} is running: the file waits in ${config.folders.processing} until one starts (rfq-sync worker)`,
    );
  } else if (r.status === 'duplicate')
    out(`${file}: same bytes as ${r.first.name}: archived as a duplicate, nothing created (report ${r.report})`);
  else if (r.status === 'waiting')
    out(
      `${file}: the same bytes (${r.first.name}) are still being read: this copy waits in ${config.folders.processing} and is read, or archived as a duplicate, once that one is done`,
    );
  else out(`${file}: taken by another worker meanwhile`);
  return EXIT_OK;
}
