/**
 * What the sourcing service can do (the dialect's flags: filter form, unfiltered list, external_id echo, detail and
 * edit calls) is branched on only where it is detected and learned, and by the listing strategy chosen from it
 * (src/sourcing/listing-strategy.ts, account-reading.ts). The poll, the reconcile, the lag probe and every command
 * ask the strategy; none compares a flag itself. Pure: reads the sources.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sources } from '../helpers/sources.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where a flag may be compared, and why. */
const OWNERS = new Map([
  ['src/sourcing/dialect.ts', 'detects the dialect'],
  ['src/sourcing/listing-strategy.ts', 'chooses how the tracked RFQs are read'],
  ['src/sourcing/account-reading.ts', 'chooses how the whole account is read'],
  ['src/sourcing/targeted-read.ts', 'chooses how the RFQs a webhook names are read'],
  ['src/account/dialect-store.ts', 'merges what workers learn into the stored dialect'],
  ['src/creation/header-push.ts', 'the edit call itself: tries it and learns whether the service has it'],
]);
/** A dialect flag compared with one of its values, either way round. */
const FLAG = `\\.(?:filter|unfiltered|echo|detail|edit)`;
const VALUE = `'(?:yes|no|unknown|none|lower|capitalised)'`;
const COMPARE = new RegExp(`${FLAG}\\s*[!=]==?\\s*${VALUE}|${VALUE}\\s*[!=]==?\\s*\\w+${FLAG}\\b`);

function branching(files: Array<{ path: string; text: string }>): string[] {
  return files
    .filter(({ path }) => !OWNERS.has(path))
    .flatMap(({ path, text }) =>
      text.split('\n').flatMap((line, i) => (COMPARE.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [])),
    );
}

describe('dialect flags', () => {
  it('no module of src/, jobs/ or app/ branches on a dialect flag except where the dialect is detected, learned or turned into a listing strategy', () => {
    const files = ['src', 'jobs', 'app'].flatMap((d) =>
      sources(join(ROOT, d)).map((p) => ({ path: relative(ROOT, p), text: readFileSync(p, 'utf8') })),
    );
    for (const owner of OWNERS.keys()) expect(files.map((f) => f.path)).toContain(owner);
    expect(branching(files)).toEqual([]);
  });

  it('the check sees a flag compared either way round (it can fail)', () => {
    const found = branching([
      { path: 'src/account/lag-probe.ts', text: "const list = d.unfiltered === 'yes' ? 'all' : undefined;" },
      { path: 'src/creation/reconcile-walker.ts', text: "if ('yes' === dialect.echo) return;" },
      { path: 'jobs/poll.ts', text: "if (d.filter !== 'none') read();" },
      { path: 'src/account/dialect-store.ts', text: "if (d.echo === 'yes') keep();" },
      { path: 'app/commands/status.ts', text: '`detail call ${d.detail}`' },
    ]);
    expect(found).toEqual([
      "src/account/lag-probe.ts:1: const list = d.unfiltered === 'yes' ? 'all' : undefined;",
      "src/creation/reconcile-walker.ts:1: if ('yes' === dialect.echo) return;",
      "jobs/poll.ts:1: if (d.filter !== 'none') read();",
    ]);
  });
});
