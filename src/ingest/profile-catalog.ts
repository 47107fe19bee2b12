/**
 * The profiles of a mapping folder, read so that one bad file never stops the others: each `*.yaml` that parses and
 * validates is a profile; one that does not (YAML syntax, the schema, a name already taken) is a broken profile,
 * kept with its reason and, as far as it can be read, what it would claim (its file-name patterns, its columns, its
 * sheet), so a file only it could take is held for it instead of refused (broken-profiles.ts). The folder's hash
 * (names and bytes) says when it changed.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { MappingError } from '../core/index.ts';
import { compileProfile, parseTemplate, templateColumns, type MappingProfile } from './mapping-profile.ts';

export interface BrokenProfile {
  /** The profile's file (as its path in the folder). */
  file: string;
  /** Its name: the `name:` it gives when that much can be read, else the file name. */
  name: string;
  /** Why it is not used, one line naming the file (and the field). */
  reason: string;
  /** What it would take, as far as it could be read; undefined when nothing could (e.g. not YAML at all). */
  claims?: ProfileClaims;
}

export interface ProfileClaims {
  filenameGlobs: string[];
  /** Every column its field templates and match.headers name. */
  columns: string[];
  sheet?: string;
}

export interface ProfileCatalog {
  profiles: MappingProfile[];
  broken: BrokenProfile[];
  /** Profile files (names), sorted. */
  files: string[];
  /** sha256 of every file's name and bytes, 12 hex: changes whenever a profile is added, removed or edited. */
  hash: string;
}

/**
 * Every `*.yaml`/`*.yml` in `dir` (sorted by file name; dot files are editors' and rfq-sync's temporary files). A
 * folder that cannot be read, or holds no profile file at all, is a MappingError (a configuration problem).
 */
export async function loadProfileCatalog(dir: string): Promise<ProfileCatalog> {
  const folder = await readProfileFolder(dir);
  const profiles: MappingProfile[] = [];
  const broken: BrokenProfile[] = [];
  const seen = new Map<string, string>();
  for (const { name: n, path: file, bytes } of folder.entries) {
    if (bytes instanceof Error) {
      broken.push({ file, name: stem(n), reason: `mapping profile ${file}: cannot be read: ${bytes.message}` });
      continue;
    }
    const doc = parseDocument(bytes.toString('utf8'));
    const raw = partial(doc);
    const claims = claimsOf(raw);
    const given = (raw as { name?: unknown } | undefined)?.name;
    const named = typeof given === 'string' ? given : stem(n);
    if (doc.errors.length > 0) {
      const why = doc.errors[0]!.message.split('\n')[0];
      broken.push({
        file,
        name: named,
        reason: `mapping profile ${file}: not valid YAML: ${why}`,
        ...(claims ? { claims } : {}),
      });
      continue;
    }
    try {
      const profile = compileProfile(raw, file);
      const other = seen.get(profile.name.toLowerCase());
      if (other)
        throw new MappingError(
          `mapping profile ${file}: field name: "${profile.name}" is already the name of ${other}`,
        );
      seen.set(profile.name.toLowerCase(), file);
      profiles.push(profile);
    } catch (err) {
      if (!(err instanceof MappingError)) throw err;
      broken.push({ file, name: named, reason: err.message, ...(claims ? { claims } : {}) });
    }
  }
  return { profiles, broken, files: folder.entries.map((e) => e.name), hash: folder.hash };
}

/** The hash of the mapping folder as loadProfileCatalog gives it, without parsing a profile. */
export async function mappingFolderHash(dir: string): Promise<string> {
  return (await readProfileFolder(dir)).hash;
}

/** The profile files of `dir` with their bytes (or why they could not be read), and the folder's hash. */
async function readProfileFolder(
  dir: string,
): Promise<{ entries: Array<{ name: string; path: string; bytes: Buffer | Error }>; hash: string }> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => /\.ya?ml$/i.test(n) && !n.startsWith('.')).sort();
  } catch (err) {
    throw new MappingError(`mapping folder ${dir} cannot be read: ${(err as Error).message}`, { cause: err });
  }
  if (names.length === 0) throw new MappingError(`mapping folder ${dir} holds no *.yaml profile`);
  const h = createHash('sha256');
  const entries: Array<{ name: string; path: string; bytes: Buffer | Error }> = [];
  for (const name of names) {
    const path = join(dir, name);
    const bytes = await readFile(path).catch((err: Error) => err);
    h.update(name)
      .update('\0')
      .update(bytes instanceof Error ? Buffer.alloc(0) : bytes)
      .update('\0');
    entries.push({ name, path, bytes });
  }
  return { entries, hash: h.digest('hex').slice(0, 12) };
}

/**
 * The valid profiles of `dir`, or the first broken one's reason as a MappingError: for commands that must not run on
 * part of the folder (`recover`).
 */
export async function loadProfiles(dir: string): Promise<MappingProfile[]> {
  const c = await loadProfileCatalog(dir);
  if (c.broken.length > 0) throw new MappingError(c.broken[0]!.reason);
  return c.profiles;
}

function stem(fileName: string): string {
  return fileName.replace(/\.ya?ml$/i, '');
}

/** What a YAML document holds as far as it could be parsed (a syntax error leaves the rest unread). */
function partial(doc: ReturnType<typeof parseDocument>): unknown {
  try {
    return doc.toJS();
  } catch {
    return undefined;
  }
}

/** A broken profile's file-name patterns, columns and sheet, read leniently; undefined when it names neither. */
function claimsOf(raw: unknown): ProfileClaims | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as {
    match?: { filename?: unknown; headers?: unknown };
    fields?: unknown;
    source?: { sheet?: unknown };
  };
  const strings = (v: unknown): string[] =>
    typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  const filenameGlobs = strings(r.match?.filename);
  const columns = new Set(strings(r.match?.headers));
  if (r.fields && typeof r.fields === 'object')
    for (const v of Object.values(r.fields)) {
      if (typeof v !== 'string') continue;
      try {
        for (const c of templateColumns(parseTemplate(v))) columns.add(c);
      } catch {
        // a template that does not parse claims no column
      }
    }
  if (filenameGlobs.length === 0 && columns.size === 0) return undefined;
  const sheet = typeof r.source?.sheet === 'string' ? r.source.sheet : undefined;
  return { filenameGlobs, columns: [...columns], ...(sheet ? { sheet } : {}) };
}
