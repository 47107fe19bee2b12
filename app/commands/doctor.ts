/** `rfq-sync doctor [--json]`: what a new installation checks before it runs: Redis, the service, the vendor directory. */
import type { Config } from '../../src/settings/index.ts';
import type { Logger } from '../../src/core/index.ts';
import { EXIT_OK, out } from '../cli-support.ts';
import { vendorDirectoryJson, vendorDirectoryLines } from './doctor-vendors.ts';
import { vendorStore } from '../../src/vendors/index.ts';
import { withContext } from './context.ts';

export async function runDoctorCommand(config: Config, logger: Logger, o: { json?: boolean }): Promise<number> {
  const [d, vendors] = await withContext(
    config,
    logger,
    'doctor',
    async (ctx) => [await ctx.dialects.refresh(), await vendorStore(ctx).refresh(ctx.client)] as const,
  );
  if (o.json) out(JSON.stringify({ ...d, vendorDirectory: vendorDirectoryJson(vendors) }, null, 2));
  else {
    out(
      [
        `status filter:      ${d.filter} (${d.filterBasis})`,
        `unfiltered list:    ${d.unfiltered}`,
        `external_id echo:   ${d.echo}`,
        `detail call:        ${d.detail}`,
        `edit call:          ${d.edit}`,
        ...(d.unknownLabels.length ? [`unknown labels:     ${d.unknownLabels.join(', ')}`] : []),
        'evidence:',
        ...d.evidence.map((e) => `  - ${e}`),
        ...vendorDirectoryLines(vendors, config.CATEGORY_CHECK),
      ].join('\n'),
    );
  }
  return EXIT_OK;
}

/**
 * `rfq-sync resolve REQUISITION --rfq ID | --post`: a person settles a requisition parked after an ambiguous
 * reconcile. `--rfq`: that RFQ is the requisition's (recorded and tracked, nothing posted). `--post`: none is; the
 * requisition is posted once more (a new create-rfq job).
 */
