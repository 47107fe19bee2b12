/**
 * Output profiles read from their folders: ERP_OUTPUTS_DIR first, then the shipped `erp-outputs/` (a name in both:
 * the installation's own). Each named profile is parsed with line numbers kept, so every problem names the file,
 * the line and the field (`erp-outputs/sap-po-bapi.yaml line 14: files.0.columns.3.setting: ...`): the worker
 * refuses to start on any of them (one line each), never at the first award.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LineCounter, parseDocument, type Document } from 'yaml';
import { compileOutputProfile, type ErpProfile, type ProfileProblem } from './output-profile.ts';

export interface LoadedProfiles {
  profiles: ErpProfile[];
  /** One line per problem, naming the file, line and field. */
  problems: string[];
}

/** The profile files (`<name>.yaml`/`.yml`) of a folder by name; none when it cannot be read. */
async function profileFiles(dir: string): Promise<Map<string, string>> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const out = new Map<string, string>();
  for (const n of names.sort())
    if (/\.ya?ml$/i.test(n) && !n.startsWith('.')) out.set(n.replace(/\.ya?ml$/i, ''), join(dir, n));
  return out;
}

/** The line of the node at `path` (or of its nearest parent that has one). */
function lineOf(doc: Document, lines: LineCounter, path: Array<string | number>): number | undefined {
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n), true) as { range?: [number, number, number] } | undefined;
    if (node?.range) return lines.linePos(node.range[0]).line;
  }
  return undefined;
}

function problemLine(file: string, doc: Document, lines: LineCounter, p: ProfileProblem): string {
  const line = lineOf(doc, lines, p.path);
  const field = p.path.length > 0 ? p.path.join('.') : '(top level)';
  return `output profile ${file}${line !== undefined ? ` line ${line}` : ''}: ${field}: ${p.message}`;
}

/** Parses and compiles one profile file. */
export async function loadProfileFile(file: string, stem: string): Promise<ErpProfile | string[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    return [`output profile ${file}: cannot be read: ${(err as Error).message}`];
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true });
  if (doc.errors.length > 0)
    return doc.errors.map(
      (e) => `output profile ${file} line ${e.linePos?.[0]?.line ?? '?'}: not valid YAML: ${e.message.split('\n')[0]}`,
    );
  const compiled = compileOutputProfile(doc.toJS(), file, stem);
  if (compiled.problems) return compiled.problems.map((p) => problemLine(file, doc, lines, p));
  if (compiled.profile.name !== stem)
    return [
      `output profile ${file}: name: "${compiled.profile.name}" must be the file's name (${stem}), as ERP_OUTPUTS names it`,
    ];
  return compiled.profile;
}

/** The profiles `names` (ERP_OUTPUTS), from `ownDir` then `shippedDir`. */
export async function loadOutputProfiles(
  names: readonly string[],
  ownDir: string,
  shippedDir: string,
): Promise<LoadedProfiles> {
  const own = await profileFiles(ownDir);
  const shipped = ownDir === shippedDir ? new Map<string, string>() : await profileFiles(shippedDir);
  const profiles: ErpProfile[] = [];
  const problems: string[] = [];
  for (const name of [...new Set(names)]) {
    const file = own.get(name) ?? shipped.get(name);
    if (!file) {
      const known = [...new Set([...own.keys(), ...shipped.keys()])].sort();
      problems.push(
        `ERP_OUTPUTS: no output profile "${name}" in ${ownDir}${ownDir === shippedDir ? '' : ` or ${shippedDir}`} (${known.join(', ') || 'none'})`,
      );
      continue;
    }
    const loaded = await loadProfileFile(file, name);
    if (Array.isArray(loaded)) problems.push(...loaded);
    else profiles.push(loaded);
  }
  return { profiles, problems };
}

/** Every profile of a folder (the shipped ones, for `rfq-sync` docs and tests). */
export async function loadFolderProfiles(dir: string): Promise<LoadedProfiles> {
  const files = await profileFiles(dir);
  return loadOutputProfiles([...files.keys()], dir, dir);
}
