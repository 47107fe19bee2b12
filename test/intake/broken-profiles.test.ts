/**
 * One bad profile never stops the others, with a real `rfq-sync worker`: a profile that is not YAML and one that
 * fails the schema sit next to a good one. Both are reported at start (log, `status`, /readyz degraded but ready)
 * and skipped; a file for the good profile is read as ever; a file only the broken schema profile could take is held
 * in the inbox with a report naming it (never failed/), and is read once the profile is fixed, which the worker
 * says as a reload. A file no profile fits, while a profile cannot be read at all, is held for that one.
 */
import { cpSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/settings/config.ts';
import { genericCsv } from '../helpers/fixtures.ts';
import { ls, reportNotes } from '../helpers/files.ts';
import { usePipeline, withOwnMappings } from '../helpers/pipeline.ts';
import { spawnCli } from '../helpers/cli.ts';
import { watchCommands } from '../helpers/monitor.ts';
import { freePort, waitFor } from '../helpers/wait.ts';
import { LEGACY_PROFILE, LEGACY_PROFILE_BROKEN } from '../helpers/profiles.ts';

const pipeline = usePipeline({ tag: 'broken-profiles' });

describe('a broken mapping profile next to good ones', () => {
  it(
    'is reported and skipped; its file is held in the inbox, then read once the profile is fixed',
    { timeout: 90_000 },
    async () => {
      const data = pipeline.data;
      const port = await freePort();
      const { mappings, env } = withOwnMappings(pipeline, { MAPPINGS_CHECK_MS: '200', HTTP_PORT: String(port) });
      cpSync(join(PACKAGE_ROOT, 'mappings', 'generic.yaml'), join(mappings, 'generic.yaml'));
      writeFileSync(join(mappings, 'acme.yaml'), 'name: acme\nfields: [\n  requisition: "{PR}"\n'); // not YAML
      writeFileSync(join(mappings, 'legacy.yaml'), LEGACY_PROFILE_BROKEN); // fails the schema
      const worker = await pipeline.spawnWorker(env);
      const said = () => worker.output();
      // what the worker said, its poll lines left out
      const state = async () =>
        `worker said:\n${said()
          .split('\n')
          .filter((l) => !/"component":"poll"|queue":"poll"/.test(l))
          .join('\n')
          .slice(-6000)}`;

      // reported at start, each with its reason
      expect(said()).toMatch(/"event":"mappings.broken".*"profile":"acme".*not valid YAML/);
      expect(said()).toMatch(/"event":"mappings.broken".*"profile":"legacy".*field fields.external_id/);
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      const body = (await ready.json()) as {
        ready: boolean;
        degraded: boolean;
        checks: Record<string, { detail: string }>;
      };
      expect(ready.status).toBe(200);
      expect([body.ready, body.degraded]).toEqual([true, true]);
      expect(body.checks.mappings!.detail).toMatch(/2 mapping profile\(s\) broken and skipped/);

      // the good profile works as ever
      writeFileSync(join(data.inbox, 'generic-ok.csv'), genericCsv(['OK-1', 2]));
      // only the broken "legacy" could take this one
      writeFileSync(
        join(data.inbox, 'legacy-2027.csv'),
        'PR,Pos,Item,Qty,Unit,Total,Group\nL-7,1,Bearing 6205,4,pc,48,Spare parts\nL-7,2,Seal kit,2,set,30,Spare parts\n',
      );
      // nothing fits this one, and "acme" could not be read at all: it might have
      writeFileSync(join(data.inbox, 'mystery.csv'), 'Foo;Bar\n1;2\n');
      const titles = () => pipeline.sandbox.control.listAll().map((r) => r.title);
      await waitFor(
        'generic-ok.csv read',
        () => ls(data.archive).some((f) => f.endsWith('generic-ok.csv')),
        20_000,
        100,
        state,
      );
      await waitFor('OK-1 created', () => titles().includes('Requisition OK-1'), 20_000, 100, state);
      const heldReports = () => ls(data.reports).filter((f) => /^(legacy-2027|mystery)\./.test(f));
      // a held file's report is written before the file goes back to the inbox: the worker's line comes after both
      const heldSaid = (name: string) => said().includes(`"event":"file.held","inboxName":"${name}"`);
      await waitFor(
        'two files held',
        () => heldReports().length >= 2 && heldSaid('legacy-2027.csv') && heldSaid('mystery.csv'),
        20_000,
        100,
        state,
      );
      expect(ls(data.failed)).toEqual([]);
      expect(ls(data.inbox)).toEqual(['legacy-2027.csv', 'mystery.csv']);
      const legacyReport = heldReports().find((f) => f.startsWith('legacy-2027'))!;
      const notes = await reportNotes(join(data.reports, legacyReport));
      expect(notes[0]).toMatch(/only the mapping profile "legacy" could take it, and it is broken/);
      expect(notes[1]).toMatch(/^Broken profile legacy: mapping profile .*legacy\.yaml: field fields\.external_id/);
      expect(said()).toMatch(/"event":"file.held","inboxName":"mystery\.csv","profiles":\[\{"name":"acme"/);

      // status names both broken profiles and both held files
      const statusEnv = {
        REDIS_URL: pipeline.redisUrl,
        REDIS_PREFIX: pipeline.prefix,
        SOURCING_ACCOUNT: 'hardening',
        RFQ_SYNC_DIR: data.root,
      };
      const st = spawnCli(['status', '--json'], statusEnv);
      expect((await st.exited).code, st.output()).toBe(0);
      const report = JSON.parse(st.output()) as {
        brokenProfiles: Array<{ name: string }>;
        heldFiles: Array<{ inboxName: string; profiles: Array<{ name: string }> }>;
      };
      expect(report.brokenProfiles.map((b) => b.name).sort()).toEqual(['acme', 'legacy']);
      expect(report.heldFiles.map((h) => [h.inboxName, h.profiles.map((p) => p.name)]).sort()).toEqual([
        ['legacy-2027.csv', ['legacy']],
        ['mystery.csv', ['acme']],
      ]);
      // a sweep leaves held files where they are (not read again while nothing changed): two sweeps look at each
      // held file (each look asks Redis whether it is still held) and leave it
      const reportsBefore = ls(data.reports).length;
      const looks = (name: string) =>
        watchCommands(
          pipeline.redisUrl,
          ([cmd, key, field]) => cmd === 'hget' && !!key?.startsWith(pipeline.prefix) && field === name,
        );
      const [legacyLooks, mysteryLooks] = await Promise.all([looks('legacy-2027.csv'), looks('mystery.csv')]);
      await waitFor(
        'two sweeps past both held files',
        () => legacyLooks.count() >= 2 && mysteryLooks.count() >= 2,
        20_000,
        100,
        state,
      );
      legacyLooks.stop();
      mysteryLooks.stop();
      expect(ls(data.reports).length).toBe(reportsBefore);
      expect(ls(data.inbox)).toEqual(['legacy-2027.csv', 'mystery.csv']);

      // the profile is fixed: a reload, and the held file is read
      writeFileSync(join(mappings, 'legacy.yaml'), LEGACY_PROFILE);
      await waitFor(
        'the reload',
        () => /"event":"mappings.reloaded".*fixed: \\?"legacy/.test(said()),
        10_000,
        100,
        state,
      );
      await waitFor(
        'legacy-2027.csv read',
        () => ls(data.archive).some((f) => f.endsWith('legacy-2027.csv')),
        20_000,
        100,
        state,
      );
      await waitFor('L-7 created', () => titles().includes('Requisition L-7'), 20_000, 100, state);
      const l7 = pipeline.sandbox.control.listAll().find((r) => r.title === 'Requisition L-7')!;
      expect(l7.lines.map((l) => [l.external_id, l.product_name, l.qty])).toEqual([
        ['LEG-L-7-1', 'Bearing 6205', 4],
        ['LEG-L-7-2', 'Seal kit', 2],
      ]);
      expect([l7.rfq_category, l7.rfq_location]).toEqual(['Spare parts', 'Plant 2']);
      // the other stays held for "acme", still broken, and is never failed
      await waitFor(
        'mystery.csv held again',
        () => said().split('mystery.csv held in the inbox').length > 2,
        20_000,
        100,
        state,
      );
      expect(ls(data.inbox)).toEqual(['mystery.csv']);
      expect(ls(data.failed)).toEqual([]);
      expect(existsSync(join(data.inbox, 'legacy-2027.csv'))).toBe(false);
      expect(readdirSync(data.processing).filter((f) => !f.startsWith('.'))).toEqual([]);
    },
  );
});
