/**
 * CATEGORY_CHECK for one ingest: the account's vendor directory, the check each requisition of the file goes
 * through, and what the file's report, log and result say of it.
 * `warn`: the directory as stored, never waited for (with none stored yet, a read starts in the background and this
 * file is not checked). `hold`: with no directory read yet, it is read first, waiting at most CATEGORY_CHECK_WAIT_MS;
 * still unread, `holdReason` says why and the file is held in the inbox (src/intake/category-held-files.ts), never
 * sent unchecked. A service without a directory blocks nothing in either mode.
 */
import type { SettingValues, vendorSettings } from '../settings/index.ts';
import type { Logger } from '../core/index.ts';
import type { RequisitionCheck } from '../ingest/index.ts';
import type { RedisKeys } from '../redis/index.ts';
import { categoryChecker, readable, type VendorDirectory, vendorStore, type VendorPort } from '../vendors/index.ts';
import type { Redis } from 'ioredis';

export interface CategoryCheckRun {
  /** For ingestFile; undefined when nothing is checked. */
  check: RequisitionCheck | undefined;
  /**
   * `hold` without a readable directory (it could not be read within CATEGORY_CHECK_WAIT_MS): why. The file's
   * requisitions must not be sent; the file is held until the directory is read.
   */
  holdReason?: string;
  /** Requisitions sent with a category warning, and the first warning. */
  warned: number;
  firstWarning?: string;
  /** Notes for the file's report. */
  notes(): string[];
  /** The log line IT watches, once the file is read. */
  log(logger: Logger): void;
}

export async function categoryCheckRun(ctx: {
  config: Pick<SettingValues<typeof vendorSettings>, 'CATEGORY_CHECK' | 'CATEGORY_CHECK_WAIT_MS'>;
  logger: Logger;
  redis: Redis;
  keys: RedisKeys;
  vendorPort?: VendorPort;
}): Promise<CategoryCheckRun> {
  const mode = ctx.config.CATEGORY_CHECK;
  const store = vendorStore(ctx);
  const dir =
    mode === 'off'
      ? undefined
      : mode === 'hold'
        ? await store.forHold(ctx.vendorPort, ctx.config.CATEGORY_CHECK_WAIT_MS)
        : await store.forIngest(ctx.vendorPort);
  const checker = categoryChecker(mode, dir);
  const warnings: string[] = [];
  let held = 0;
  const run: CategoryCheckRun = {
    ...(mode === 'hold' && !checker && dir?.outcome !== 'absent' ? { holdReason: unreadReason(dir, ctx) } : {}),
    warned: 0,
    check: checker
      ? (r) => {
          const v = checker(r.rfq_category);
          if (!v) return undefined;
          if (v.severity === 'warning') {
            run.warned++;
            if (warnings.length < 5) warnings.push(`requisition ${r.key}: ${v.reason}`);
            run.firstWarning ??= `requisition ${r.key}: ${v.reason}`;
          } else held++;
          return { field: 'rfq_category', value: r.rfq_category ?? '', ...v };
        }
      : undefined,
    notes() {
      // a service without a directory is said for `hold` only: with `warn` it would be every file's note
      if (mode !== 'off' && !checker && (mode === 'hold' || dir === undefined))
        return [
          `CATEGORY_CHECK=${mode}: categories were not checked: ${dir?.outcome === 'absent' ? 'the sourcing service has no vendor directory' : dir === undefined ? 'the vendor directory has not been read yet (it is being read now; the poll reads it too)' : 'the vendor directory could not be read yet'}.`,
        ];
      if (run.warned > 0)
        return [
          `${run.warned} requisition(s) were sent with a category no vendor follows (CATEGORY_CHECK=warn): their RFQs may reach no supplier; see the warnings on the Rows sheet.`,
        ];
      if (held > 0)
        return [`${held} requisition(s) held back: no vendor follows their category (CATEGORY_CHECK=hold).`];
      return [];
    },
    log(logger) {
      if (run.warned === 0) return;
      logger.warn(
        { event: 'ingest.category', warned: run.warned, first: run.firstWarning, directory: readable(dir) },
        `ingest: ${run.warned} requisition(s) sent with a category no vendor follows; first: ${warnings[0] ?? ''}`,
      );
    },
  };
  return run;
}

/** Why a `hold` ingest has no directory to check against. */
function unreadReason(dir: VendorDirectory | undefined, ctx: { vendorPort?: VendorPort }): string {
  if (!ctx.vendorPort) return 'this process has no connection to the sourcing service to read it with';
  if (dir?.outcome === 'failed') return `it could not be read: ${dir.detail ?? 'unknown error'}`;
  return 'it was not read in time (another worker may still be reading it)';
}
