/**
 * The Lua scripts, kept in `lua/` as BullMQ keeps its commands: one file per script, named `<name>-<key count>.lua`,
 * opening with its KEYS, ARGV and what it returns. A line `--- @include "includes/clock"` is replaced at load by
 * that file (path relative to the including file, `.lua` added; each file included once), so a shared piece such as
 * the clock prologue is written once. The files are read when the module is first imported (start), never per call.
 *
 * defineScript registers a script on an ioredis client (defineCommand: EVALSHA with a fallback to EVAL, so a
 * restarted Redis that lost its script cache is handled) and returns a typed caller. Defining twice on one client
 * is harmless.
 *
 * Each script's answer is typed once, where it is loaded (`loadScript<ClaimReply>('claim-7.lua')`), as ioredis
 * hands it over: a Lua number is a JS integer, a string a string, a table an array, nil and false `null`. Callers
 * read the caller's typed answer instead of casting `unknown`, so a change of a script's answer is a change of that
 * one type, and every caller that no longer fits fails the typecheck (test/redis/lua-scripts.test.ts checks that
 * every script is loaded with its answer's type).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Redis } from 'ioredis';
import { UnexpectedError } from '../core/index.ts';

/** Where the .lua files are: next to this module, so a run from the repository and an installed package both find them. */
export const LUA_DIR = fileURLToPath(new URL('./lua/', import.meta.url));

export interface LuaScript<Reply> {
  /** The command's name on the ioredis client (`rfqSync` + the file's name). */
  readonly name: string;
  readonly numberOfKeys: number;
  /** The script with its includes in place. */
  readonly lua: string;
  /** The file it was read from, relative to LUA_DIR. */
  readonly file: string;
  /** Never set: carries the type of the script's answer to defineScript. */
  readonly reply?: Reply;
}

const COMMAND_FILE = /^([a-z][A-Za-z0-9]*)-(\d+)\.lua$/;
const INCLUDE = /^--- @include "([^"]+)"[ \t]*$/gm;

/** Reads `file` (e.g. `claim-7.lua`) from `dir` and resolves its includes. `Reply` is what the script returns. */
export function loadScript<Reply>(file: string, dir = LUA_DIR): LuaScript<Reply> {
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

/** The answer of a script that returns 1 when it did its work and 0 when it did not. */
export type ScriptFlag = 0 | 1;

export type ScriptCaller<Reply> = (keys: readonly string[], args: ReadonlyArray<string | number>) => Promise<Reply>;

/** Registers `script` on the client. */
export function defineScript<Reply>(redis: Redis, script: LuaScript<Reply>): ScriptCaller<Reply> {
  const { name, numberOfKeys, lua } = script;
  const r = redis as unknown as Record<string, ((...a: Array<string | number>) => Promise<unknown>) | undefined>;
  if (typeof r[name] !== 'function') redis.defineCommand(name, { numberOfKeys, lua });
  return (keys, args) => {
    if (keys.length !== numberOfKeys)
      throw new UnexpectedError(`${name}: expects ${numberOfKeys} keys, got ${keys.length}`);
    // the one cast: what the script returns is declared by its loadScript<Reply>
    return (r[name] as (...a: Array<string | number>) => Promise<Reply>).call(redis, ...keys, ...args);
  };
}
