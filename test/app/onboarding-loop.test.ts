/**
 * Onboarding with no hand edits, to the end of the loop: for each of the four exports a new user brings (samples
 * made by test/ingest/fixtures/make-onboarding-samples.ts), `check --suggest --out mappings/NAME.yaml` writes the
 * draft (the command run in-process; test/ingest/suggest-cli.test.ts spawns it), and a real `rfq-sync worker` with
 * only those drafts reads the files. The service gets every field it requires on every RFQ (title, both dates, type,
 * category, location; per line product, unit, qty, estimated price); the sandbox's suppliers quote, the RFQs close
 * and complete, and procurement gets a comparison workbook and the ERP an award file per requisition, in the
 * requisition's currency, keyed by the draft's external_ids.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/settings/config.ts';
import { runSuggest } from '../../src/ingest/suggest/command.ts';
import { LIMITS } from '../ingest/suggest-helpers.ts';
import { ls, readAwardCsv } from '../helpers/files.ts';
import { usePipeline, withOwnMappings } from '../helpers/pipeline.ts';
import { waitFor } from '../helpers/wait.ts';

const pipeline = usePipeline({
  tag: 'onboarding',
  sandbox: { autopilot: { closeAfterMs: 300, suppliersPerRfq: 2, completeAfterMs: 300 } },
});

const FILES: Array<[file: string, name: string, requisitions: number, currency: string]> = [
  ['Facilities_open_requisitions.xlsx', 'facilities', 4, ''],
  ['BANF_Liste_Einkauf.csv', 'banf', 3, 'EUR'],
  ['D365_PurchReqLines_DEMF.xlsx', 'd365-demf', 3, 'EUR'],
  ['ME5A_BANF_Werk1000.csv', 'me5a', 10, 'EUR'],
];

describe('the unedited drafts of four new exports run the whole loop', () => {
  it(
    'creation with every required field, comparison workbooks, award files in the right currency',
    { timeout: 120_000 },
    async () => {
      const data = pipeline.data;
      const { mappings, env } = withOwnMappings(pipeline, { POLL_CRON: '* * * * * *', LOG_LEVEL: 'warn' });
      for (const [file, name] of FILES) {
        const said: string[] = [];
        const code = await runSuggest(
          join(PACKAGE_ROOT, 'samples', file),
          { limits: LIMITS, name, outFile: join(mappings, `${name}.yaml`) },
          () => expect.fail('--out: nothing on standard output'),
          (l) => said.push(l),
        );
        expect(code, said.join('\n')).toBe(0);
      }
      expect(ls(mappings)).toEqual(['banf.yaml', 'd365-demf.yaml', 'facilities.yaml', 'me5a.yaml']);
      const worker = await pipeline.spawnWorker(env);
      for (const [file] of FILES) copyFileSync(join(PACKAGE_ROOT, 'samples', file), join(data.inbox, file));
      const total = FILES.reduce((n, f) => n + f[2], 0);
      const state = async () =>
        `archive ${ls(data.archive).length}, failed ${ls(data.failed)}; worker said:\n${worker.output().slice(-2000)}`;
      const awards = join(data.outbox, 'awards');
      const awarded = () => ls(awards).flatMap((f) => readAwardCsv(join(awards, f)));
      const allLines = () => pipeline.sandbox.control.listAll().flatMap((r) => r.lines.map((l) => l.external_id));
      const done = () =>
        pipeline.sandbox.control.listAll().length === total &&
        new Set(awarded().map((r) => r.external_id)).size === allLines().length;
      await waitFor('every line of every requisition awarded', done, 90_000, 200, state);
      expect(ls(data.failed)).toEqual([]);
      expect(ls(data.archive)).toHaveLength(FILES.length);

      // the service got what it requires, on every RFQ and line
      const rfqs = pipeline.sandbox.control.listAll();
      expect(rfqs).toHaveLength(total);
      for (const r of rfqs) {
        expect(
          [r.title, r.due_date, r.required_date, r.rfq_type, r.rfq_category, r.rfq_location].every(Boolean),
          r.title,
        ).toBe(true);
        for (const l of r.lines)
          expect(
            [l.product_name, l.uom, l.qty, l.estimated_price].every((v) => v !== undefined && v !== ''),
            r.title,
          ).toBe(true);
      }
      const byTitle = new Map(rfqs.map((r) => [r.title, r]));
      // the draft's choices, as the service shows them
      expect(byTitle.get('Requisition 4500125')).toMatchObject({
        rfq_category: 'Arbeitsschutz',
        rfq_location: 'Baunatal',
      });
      expect(byTitle.get('Requisition PR-7004')).toMatchObject({ rfq_category: 'Safety', rfq_location: 'Building C' });
      expect(byTitle.get('Requisition PR-7004')!.lines.map((l) => [l.external_id, l.qty, l.estimated_price])).toEqual([
        ['PR-7004-1', 6, 504],
        ['PR-7004-2', 6, 343],
        ['PR-7004-3', 3, 288],
      ]);

      // procurement's workbooks and the ERP's award files, one per requisition, in the requisition's currency
      expect(ls(join(data.outbox, 'comparisons')).filter((f) => f.endsWith('.xlsx')).length).toBeGreaterThanOrEqual(
        total,
      );
      const rows = awarded();
      const currencyOf = (id: string) => [...new Set(rows.filter((r) => r.external_id === id).map((r) => r.currency))];
      expect(currencyOf('PR-7004-1')).toEqual(['']);
      expect(currencyOf('4500123-1')).toEqual(['EUR']);
      expect(currencyOf('DEMF-000118-1')).toEqual(['EUR']);
      expect(currencyOf('10020100-10')).toEqual(['EUR']);
      // every line awarded, by the draft's external_id
      expect([...new Set(rows.map((r) => r.external_id))].sort()).toEqual(allLines().sort());
    },
  );
});
