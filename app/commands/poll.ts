/** `rfq-sync poll [--enqueue]`: one poll of the RFQ lists now, or queued for a running worker. */
import type { Config } from '../../src/settings/index.ts';
import { terminalText, type Logger } from '../../src/core/index.ts';
import { enqueuePollNow, pollSlot } from '../../src/queues/index.ts';
import { runPoll } from '../../src/tracking/index.ts';
import { writeAccountOverview } from '../../src/awarding/index.ts';
import { EXIT_FAILED, EXIT_OK, out } from '../cli-support.ts';
import { withContext } from './context.ts';

export async function runPollCommand(config: Config, logger: Logger, o: { enqueue?: boolean }): Promise<number> {
  return withContext(config, logger, 'poll', async (ctx) => {
    if (o.enqueue) {
      out(`poll queued (job ${await enqueuePollNow(ctx)}); a running worker runs it`);
      return EXIT_OK;
    }
    const now = Date.now();
    const r = await runPoll(ctx, { slot: pollSlot('manual', now), scheduledAt: now }, () => writeAccountOverview(ctx));
    if (r.skipped) out(`poll skipped: ${r.skipped}`);
    const listed = Object.entries(r.listed)
      .map(([s, n]) => `${s} ${n}`)
      .join(', ');
    out(`listed: ${listed || 'nothing'}; tracked ${r.tracked}, found ${r.found}, missing ${r.missing}`);
    for (const t of r.transitions) out(`  RFQ ${t.rfqId}: ${t.from} -> ${t.to}`);
    if (r.enqueued.quotations + r.enqueued.award > 0)
      out(
        `queued: ${r.enqueued.quotations} quotation pull(s), ${r.enqueued.award} award pull(s) (a running worker does them)`,
      );
    if (!r.ok) {
      process.stderr.write(`rfq-sync: poll failed: ${terminalText(r.error ?? 'unknown')}\n`);
      return EXIT_FAILED;
    }
    return EXIT_OK;
  });
}
