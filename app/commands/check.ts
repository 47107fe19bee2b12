/**
 * `rfq-sync check FILE`: a dry run of one export (the profile chosen and why, the requisitions, every row problem),
 * as text or one JSON document; `--suggest` drafts a profile instead. No side effects. The readers load only here.
 */
import type { Config } from '../../src/settings/index.ts';
import { ConfigError, terminalText, type Logger } from '../../src/core/index.ts';
import { EXIT_CONFIG } from '../cli-support.ts';
import { followedCategories } from './suggest-vendors.ts';

export interface CheckOptions {
  mapping?: string;
  suggest?: boolean;
  name?: string;
  out?: string;
  force?: boolean;
  json?: boolean;
}

export async function runCheckCommand(
  config: Config,
  _logger: Logger,
  file: string,
  opts: CheckOptions,
): Promise<number> {
  const limits = {
    maxFileBytes: config.MAX_FILE_BYTES,
    maxXlsxUncompressedBytes: config.MAX_XLSX_UNCOMPRESSED_BYTES,
    maxXlsxEntries: config.MAX_XLSX_ENTRIES,
    maxInMemoryBytes: config.MAX_IN_MEMORY_READ_BYTES,
  };
  // commander has conflicts but no "only with": these are checked here
  for (const o of ['name', 'out', 'force'] as const)
    if (opts[o] !== undefined && !opts.suggest) throw new ConfigError([`--${o}: only with --suggest`]);
  if (opts.force && opts.out === undefined) throw new ConfigError(['--force: only with --out']);
  if (opts.suggest) {
    const { runSuggest } = await import('../../src/ingest/suggest/index.ts');
    return runSuggest(
      file,
      {
        limits,
        name: opts.name,
        outFile: opts.out,
        force: opts.force,
        followedCategories: () => followedCategories(config),
      },
      (text) => process.stdout.write(text),
      (line) => process.stderr.write(`${terminalText(line)}\n`),
    );
  }
  const { loadProfileCatalog, runCheck } = await import('../../src/ingest/index.ts');
  let catalog;
  try {
    catalog = await loadProfileCatalog(config.folders.mappings);
  } catch (err) {
    process.stderr.write(`rfq-sync: ${(err as Error).message}\n`);
    return EXIT_CONFIG;
  }
  // One broken profile never stops the others: said (in the JSON document with --json), skipped; a file only it
  // could take is held for it.
  if (!opts.json)
    for (const b of catalog.broken)
      process.stderr.write(`rfq-sync: broken mapping profile skipped: ${terminalText(b.reason)}\n`);
  const { profiles, broken } = catalog;
  // every line names export text (ids, names, cells): terminal-safe, one line each (the JSON escapes its own)
  return runCheck(
    file,
    { profiles, broken, mappingName: opts.mapping, limits },
    (line) => process.stdout.write(`${opts.json ? line : terminalText(line)}\n`),
    opts.json ? 'json' : 'text',
  );
}
