/** `rfq-sync compare RFQ`: the comparison workbook of one RFQ written now. */
import type { Config } from '../../src/settings/index.ts';
import { terminalLines, type Logger } from '../../src/core/index.ts';
import { EXIT_OK, out } from '../cli-support.ts';
import { withContext } from './context.ts';
import { writeComparisonNow } from '../../src/awarding/index.ts';

export async function runCompareCommand(
  config: Config,
  logger: Logger,
  rfqId: number,
  o: { out?: string },
): Promise<number> {
  const r = await withContext(config, logger, 'compare', (ctx) => writeComparisonNow(ctx, rfqId, { out: o.out }));
  out(r.workbook);
  process.stderr.write(
    terminalLines(
      `RFQ ${rfqId} (${r.state}): ${r.quotations} quotation(s)${r.invalid ? `, ${r.invalid} unreadable` : ''}${r.winnerKey ? `, winner ${r.winnerKey}` : ''}\n`,
    ),
  );
  return EXIT_OK;
}

/**
 * `rfq-sync doctor`: detect the account's dialect now (about 10 requests) and read its vendor directory, store both,
 * and print them with their evidence (the categories with the number of vendors following each).
 */
