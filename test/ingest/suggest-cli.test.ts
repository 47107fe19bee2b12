/**
 * `rfq-sync check --suggest FILE [--name NAME]` as a user runs it: the profile alone on standard output (redirected
 * into mappings/NAME.yaml it is a working profile), evidence and the check on standard error, nothing written;
 * a long file is read only as far as the sample goes.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { compileProfile } from '../../src/ingest/index.ts';
import { runSuggest } from '../../src/ingest/suggest/command.ts';
import { SAMPLE_ROWS } from '../../src/ingest/suggest/sample.ts';
import { LIMITS } from './suggest-helpers.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const BIN = resolve(import.meta.dirname, '../../bin/rfq-sync.ts');
const SAMPLES = resolve(import.meta.dirname, '../../samples');
const dir = tempDir('suggest-cli-');

function cli(args: string[], env: Record<string, string> = {}) {
  const work = join(dir, 'work');
  mkdirSync(work, { recursive: true });
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: work,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', RFQ_SYNC_DIR: join(dir, 'data'), ...env },
  });
  return { code: r.status, out: r.stdout, err: r.stderr, written: readdirSync(work) };
}

describe('check --suggest', () => {
  it('prints only the profile on stdout, evidence and the check on stderr, writes nothing; the profile works from mappings/', () => {
    const r = cli(['check', '--suggest', join(SAMPLES, 'Sage100_Bedarfsanforderungen.csv'), '--name', 'sage-draft']);
    expect(r.code, r.err).toBe(0);
    expect(r.written).toEqual([]);
    expect(r.out.startsWith('# Drafted by `rfq-sync check --suggest` from Sage100_Bedarfsanforderungen.csv')).toBe(
      true,
    );
    const profile = compileProfile(parseYaml(r.out), 'sage-draft.yaml');
    expect(profile.name).toBe('sage-draft');
    expect(r.err).toContain('evidence for the profile "sage-draft"');
    expect(r.err).toMatch(
      /fields\.estimated_price: \{Gesamtpreis\} \[high\] a line total: "Gesamtpreis" = "Menge" x "Einzelpreis" on 5 of 5 rows/,
    );
    expect(r.err).toContain(
      'would create 3 requisition(s) with 5 line(s); 0 requisition(s) held back, 0 row(s) rejected',
    );

    const mappings = join(dir, 'mappings');
    mkdirSync(mappings, { recursive: true });
    writeFileSync(join(mappings, 'sage-draft.yaml'), r.out);
    const check = cli(['check', join(SAMPLES, 'Sage100_Bedarfsanforderungen.csv')], { MAPPINGS_DIR: mappings });
    expect(check.code, check.out + check.err).toBe(0);
    expect(check.out).toContain('mapping profile "sage-draft"');
    expect(check.out).toContain('  row 3: BA-27-0042-2  Kugelhahn DN 50 PN 40  qty 4 Stk, estimated 4850');
  });

  it('refuses --name without --suggest, --mapping with it, and a name a profile cannot have (exit 2)', () => {
    const file = join(SAMPLES, 'generic-template.csv');
    expect(cli(['check', file, '--name', 'x']).code).toBe(2);
    expect(cli(['check', '--suggest', file, '--mapping', 'generic']).code).toBe(2);
    expect(cli(['check', '--suggest', file, '--name', 'my profile']).code).toBe(2);
  });

  it('a file it cannot draft from is refused in one sentence (exit 2): no data rows, no column for a required field', () => {
    const header = join(dir, 'header-only.csv');
    writeFileSync(header, 'Requisition,Line,Item,Qty\n');
    const r = cli(['check', '--suggest', header]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain('cannot read: header-only.csv: has a header row (row 1) but no data rows below it');
    const narrow = join(dir, 'narrow.csv');
    writeFileSync(narrow, 'A,B\nx,1\ny,2\n');
    const n = cli(['check', '--suggest', narrow]);
    expect(n.code).toBe(2);
    expect(n.err).toContain(
      'cannot read: narrow.csv: has no column of numbers left that could be the quantity (columns: "A", "B")',
    );
  });

  it('--out writes the draft whole, only when one was drafted; never replaces a file without --force', async () => {
    const mappings = join(dir, 'out-mappings');
    const target = join(mappings, 'banf.yaml');
    const banf = join(SAMPLES, 'BANF_Liste_Einkauf.csv');
    // the README's recipe: a working profile in mappings/, nothing on standard output
    const r = cli(['check', '--suggest', banf, '--name', 'banf', '--out', target]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe('');
    expect(r.err).toContain(`profile "banf.yaml" written to ${target}`);
    const written = readFileSync(target, 'utf8');
    expect(compileProfile(parseYaml(written), 'banf.yaml').name).toBe('banf');
    expect(readdirSync(mappings)).toEqual(['banf.yaml']); // no temporary file left beside it

    // a file it cannot draft from: exit 2, nothing on standard output, no file at all (a shell redirect would have
    // left an empty one in mappings/)
    const header = join(dir, 'only-header.csv');
    writeFileSync(header, 'Requisition,Line,Item,Qty\n');
    const none = join(mappings, 'nothing.yaml');
    const failed = cli(['check', '--suggest', header, '--out', none]);
    expect([failed.code, failed.out, existsSync(none)]).toEqual([2, '', false]);
    // --out and --force belong to --suggest
    expect(cli(['check', banf, '--out', none, '--force']).code).toBe(2);

    // the same command in-process, for the refusals
    const suggest = async (out: string, force = false) => {
      const err: string[] = [];
      const code = await runSuggest(banf, { limits: LIMITS, name: 'banf', outFile: out, force }, expect.fail, (l) =>
        err.push(l),
      );
      return { code, err: err.join('\n') };
    };
    // an existing file is refused before anything is drafted, and left as it was; --force replaces it whole
    writeFileSync(target, '# hand-edited\n' + written);
    const again = await suggest(target);
    expect(again.code).toBe(2);
    expect(again.err).toContain(`${target} exists: nothing drafted or written (--force replaces it)`);
    expect(readFileSync(target, 'utf8')).toBe('# hand-edited\n' + written);
    expect((await suggest(target, true)).code).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe(written);
    // a place it cannot write to: exit 2, nothing written, no temporary file
    const blocked = await suggest(join(target, 'under-a-file.yaml'));
    expect(blocked.code).toBe(2);
    expect(blocked.err).toMatch(/cannot write .*under-a-file\.yaml/);
    expect(readdirSync(mappings)).toEqual(['banf.yaml']);
  });

  it('reads a bounded sample: a long file whose end is broken is drafted from its first rows, where a full check refuses it', () => {
    const file = join(dir, 'long-export.csv');
    const rows = ['Requisition,Line,Item,Qty,Unit Price,Due Date'];
    for (let i = 0; i < SAMPLE_ROWS + 3000; i++)
      rows.push(`REQ-${Math.floor(i / 4)},${(i % 4) + 1},Spare part ${i},${1 + (i % 9)},${(i % 50) + 0.5},2027-06-30`);
    writeFileSync(file, rows.join('\n') + '\n');
    appendFileSync(file, 'REQ-X,1,"never closed,1,1,2027-06-30\n');
    const full = cli(['check', file, '--mapping', 'generic']);
    expect(full.code).toBe(2);
    const r = cli(['check', '--suggest', file]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`(the first ${SAMPLE_ROWS} data rows; header on row 1)`);
    expect(r.err).toContain(
      `check of the sample (the first ${SAMPLE_ROWS} data rows; a full check reads the whole file):`,
    );
    expect(r.err).toMatch(/the sample would create 1250 requisition\(s\) with 5000 line\(s\)/);
  });
});
