/** `rfq-sync resolve REQUISITION`: a requisition the reconcile could not decide, settled by a person. */
import { userInfo } from 'node:os';
import { resolvedBy } from '../../src/audit/index.ts';
import type { Config } from '../../src/settings/index.ts';
import { ConfigError, type Logger, type RequisitionLine } from '../../src/core/index.ts';
import { enqueueCreateRfq } from '../../src/queues/index.ts';
import { createIdempotencyStore, type ParkedEntry, contentHashOf } from '../../src/creation/index.ts';
import { reconcilerOf } from '../../jobs/index.ts';
import { trackRfq } from '../../src/tracking/index.ts';
import { EXIT_FAILED, EXIT_OK, out } from '../cli-support.ts';
import { withContext } from './context.ts';

export async function runResolveCommand(
  config: Config,
  logger: Logger,
  requisition: string,
  o: { rfq?: number; post?: boolean },
): Promise<number> {
  if ((o.rfq === undefined) === !o.post) throw new ConfigError(['resolve: give exactly one of --rfq ID or --post']);
  return withContext(config, logger, 'resolve', async (ctx) => {
    const store = createIdempotencyStore(ctx.redis, ctx.keys);
    const reconciler = reconcilerOf(ctx);
    const entry = await reconciler.parked(requisition);
    const rec = await store.get(requisition);
    if (!entry || rec?.state !== 'undecided') {
      out(`${requisition}: not waiting for a decision (state ${rec?.state ?? 'unknown'})`);
      return EXIT_FAILED;
    }
    const r = entry.requisition;
    // queued again: a worker compares what the export holds now with what exists (lines the RFQ lacks become a
    // supplementary RFQ), or posts it once more
    const again = () =>
      enqueueCreateRfq(ctx.queues.createRfq, r, contentHashOf(r), { why: 'resolved', at: Date.now() });
    if (o.rfq !== undefined) {
      const lines = resolvedLines(entry, o.rfq);
      const kept = new Set(lines.map((l) => l.line.external_id));
      const res = await store.record(
        r,
        o.rfq,
        lines,
        'adopted',
        entry.externalIds.filter((e) => !kept.has(e)),
      );
      await trackRfq(ctx, { rfqId: o.rfq, requisition: r });
      await reconciler.unpark(requisition);
      await ctx.audit.write(resolvedBy(r, userInfo().username, { rfqId: o.rfq, lines }));
      await again();
      out(
        res.status === 'duplicate'
          ? `${requisition}: already recorded as RFQ ${res.existingRfqId}`
          : `${requisition}: recorded as RFQ ${o.rfq}; nothing posted`,
      );
      return EXIT_OK;
    }
    await store.unparkToPost(requisition);
    await reconciler.unpark(requisition);
    await ctx.audit.write(resolvedBy(r, userInfo().username));
    await again();
    out(`${requisition}: will be posted again by a worker`);
    return EXIT_OK;
  });
}

/**
 * The lines `resolve --rfq` records for that RFQ: those of the body posted that it matched (or the only body posted,
 * or the last), at their positions: what was posted, never a later export.
 */
function resolvedLines(entry: ParkedEntry, rfqId: number): Array<{ line: RequisitionLine; position: number }> {
  const fp = entry.bodies?.[rfqId];
  const body = entry.posted.find((b) => b.fp === fp) ?? entry.posted[entry.posted.length - 1];
  if (!body) return entry.requisition.lines.map((line, position) => ({ line, position }));
  return body.lines.map((l, position) => ({ line: { ...l, row: 0 }, position }));
}
