/**
 * CATEGORY_CHECK for one ingest: the account's vendor directory as stored (never waited for: with none stored yet,
 * a read starts in the background and this file is not checked),
 * the check each requisition of the file goes through, and what the file's report, log and result say of it.
 * Never blocking: without a readable directory nothing is checked (a `hold` says so in the report).
 */
import type { SettingValues } from '../settings/fields.ts';
import type { vendorSettings } from '../settings/vendors.ts';
import type { Logger } from '../logger.ts';
import type { RequisitionCheck } from '../ingest/requisition-grouper.ts';
import type { RedisKeys } from '../redis/redis-keys.ts';
import { categoryChecker } from '../vendors/category-check.ts';
import { readable } from '../vendors/vendor-directory.ts';
import { vendorStore, type VendorPort } from '../vendors/vendor-store.ts';
import type { Redis } from 'ioredis';

export interface CategoryCheckRun {
  /** For ingestFile; undefined when nothing is checked. */
  check: RequisitionCheck | undefined;
  /** Requisitions sent with a category warning, and the first warning. */
  warned: number;
  firstWarning?: string;
  /** Notes for the file's report. */
  notes(): string[];
  /** The log line IT watches, once the file is read. */
  log(logger: Logger): void;
}

export async function categoryCheckRun(ctx: {
  config: Pick<SettingValues<typeof vendorSettings>, 'CATEGORY_CHECK'>;
  logger: Logger;
  redis: Redis;
  keys: RedisKeys;
  vendorPort?: VendorPort;
}): Promise<CategoryCheckRun> {
  const mode = ctx.config.CATEGORY_CHECK;
  const dir = mode === 'off' ? undefined : await vendorStore(ctx).forIngest(ctx.vendorPort);
  const checker = categoryChecker(mode, dir);
  const warnings: string[] = [];
  let held = 0;
  const run: CategoryCheckRun = {
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
