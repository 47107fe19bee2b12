/**
 * The Lua scripts, kept in `lua/` as BullMQ keeps its commands: one file per script, named `<name>-<key count>.lua`,
 * opening with its KEYS, ARGV and what it returns. A line `--- @include "includes/clock"` is replaced at load by
 * that file (path relative to the including file, `.lua` added; each file included once), so a shared piece such as
 * the clock prologue is written once. The files are read when the module is first imported (start), never per call.
 *
 * defineScript registers a script on an ioredis client (defineCommand: EVALSHA with a fallback to EVAL, so a
 * restarted Redis that lost its script cache is handled) and returns a typed caller. Defining twice on one client
 * is harmless.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Redis } from 'ioredis';
import { UnexpectedError } from '../errors.ts';

/** Where the .lua files are: next to this module, so a run from the repository and an installed package both find them. */
export const LUA_DIR = fileURLToPath(new URL('./lua/', import.meta.url));

export interface LuaScript {
  /** The command's name on the ioredis client (`rfqSync` + the file's name). */
  readonly name: string;
  readonly numberOfKeys: number;
  /** The script with its includes in place. */
  readonly lua: string;
  /** The file it was read from, relative to LUA_DIR. */
  readonly file: string;
}

const COMMAND_FILE = /^([a-z][A-Za-z0-9]*)-(\d+)\.lua$/;
const INCLUDE = /^--- @include "([^"]+)"[ \t]*$/gm;

/** Reads `file` (e.g. `claim-7.lua`) from `dir` and resolves its includes. */
export function loadScript(file: string, dir = LUA_DIR): LuaScript {
  const m = COMMAND_FILE.exec(file);
  if (!m) throw new UnexpectedError(`Lua script ${file}: the name must be <name>-<number of keys>.lua`);
  const name = m[1]!;
  return {
    name: `rfqSync${name[0]!.toUpperCase()}${name.slice(1)}`,
    numberOfKeys: Number(m[2]),
    lua: withIncludes(join(dir, file), new Set()),
    file,
  };
}

function withIncludes(path: string, included: Set<string>): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UnexpectedError(
      `Lua script ${path} cannot be read (is src/redis/lua/ shipped?): ${(err as Error).message}`,
      { cause: err },
    );
  }
  return text.replace(INCLUDE, (_line, target: string) => {
    const inc = join(dirname(path), `${target}.lua`);
    if (included.has(inc)) return '';
    included.add(inc);
    return withIncludes(inc, included).replace(/\n$/, '');
  });
}

export type ScriptCaller = (keys: readonly string[], args: ReadonlyArray<string | number>) => Promise<unknown>;

/** Registers `script` on the client. */
export function defineScript(redis: Redis, script: LuaScript): ScriptCaller {
  const { name, numberOfKeys, lua } = script;
  const r = redis as unknown as Record<string, ((...a: Array<string | number>) => Promise<unknown>) | undefined>;
  if (typeof r[name] !== 'function') redis.defineCommand(name, { numberOfKeys, lua });
  return (keys, args) => {
    if (keys.length !== numberOfKeys)
      throw new UnexpectedError(`${name}: expects ${numberOfKeys} keys, got ${keys.length}`);
    return (r[name] as (...a: Array<string | number>) => Promise<unknown>).call(redis, ...keys, ...args);
  };
}
