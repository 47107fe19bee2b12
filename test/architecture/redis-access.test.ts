/**
 * No file of app/ touches a Redis key: the keys belong to the stores under src/ that read and write them (the
 * idempotency store, the tracking store, the dialect store, the reconcile coordinator...), and app/ goes through
 * them. Precisely, a file of app/:
 *   1. imports from src/redis/redis-keys.ts only `redisKeys` (the account's namespace, which it hands to the stores
 *      when it wires them) and the type `RedisKeys`: never a key builder such as `accountsKey`;
 *   2. reads no key of a namespace or of a store's key map: no `keys.<key>` of RedisKeys, no `.k.<key>` (the stores'
 *      maps), no builder `...Keys(` (reconKeys, trackingKeys) other than `redisKeys`;
 *   3. sends no Redis command that names a key on a client (a receiver named `redis`, `ctx.redis`, `this.redis`...):
 *      every command whose arguments hold a key per ioredis's own command table (keyStart > 0, or movable keys as
 *      EVAL's), and the key scans and batches (scan, keys, multi, pipeline, the *Stream scans). Connection commands
 *      (ping, quit, info) name no key and are allowed.
 * And each family of further keys (`keys.key(family, ...)`, KEY_FAMILIES in redis-keys.ts) is built only in the files
 * named as its owners there: every other file goes through their functions.
 * Pure: reads the sources. The checkers are run on planted violations first, so they are known to be able to fail.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sources } from '../helpers/sources.ts';
import { KEY_FAMILIES, type KeyFamily } from '../../src/redis/redis-keys.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

type CommandTable = Record<string, { keyStart: number; flags: string[] }>;
const table = createRequire(import.meta.url)('@ioredis/commands/built/commands.json') as CommandTable;
const KEY_COMMANDS = new Set([
  ...Object.entries(table)
    .filter(([, c]) => c.keyStart > 0 || c.flags.includes('movablekeys'))
    .map(([name]) => name),
  'scan',
  'keys',
  'multi',
  'pipeline',
]);
const KEY_MEMBERS = ['base', 'externalIds', 'requisition', 'requisitions', 'rfq', 'trackedRfqs', 'fileLedger'];

/** The places in `text` that touch a Redis key, as `line: what`. */
export function redisKeyTouches(text: string): string[] {
  const found: string[] = [];
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    const at = (what: string) => found.push(`${i + 1}: ${what}`);
    if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
    for (const m of line.matchAll(/\bredis\s*\??\.\s*([A-Za-z]+)\s*\(/gi)) {
      const cmd = m[1]!;
      if (KEY_COMMANDS.has(cmd.toLowerCase()) || /Stream$/.test(cmd)) at(`command ${cmd}`);
    }
    for (const m of line.matchAll(/\bkeys\s*\??\.\s*([A-Za-z]+)\b/g))
      if (m[1] === 'key' || KEY_MEMBERS.includes(m[1]!) || m[1] === 'authPause') at(`key keys.${m[1]}`);
    for (const m of line.matchAll(/\.k\.([A-Za-z]+)/g)) at(`key .k.${m[1]}`);
    for (const m of line.matchAll(/\b([a-z]\w*Keys?)\s*\(/g)) if (m[1] !== 'redisKeys') at(`key builder ${m[1]}`);
  });
  for (const m of text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s*from\s*'[^']*redis\/redis-keys\.ts'/g)) {
    const names = m[2]!
      .split(',')
      .map((n) => n.trim().replace(/^type\s+/, ''))
      .filter(Boolean);
    for (const n of names) if (n !== 'redisKeys' && n !== 'RedisKeys') found.push(`import ${n} from redis-keys.ts`);
  }
  return found;
}

/** The key families `text` (the file `path`) builds without owning them, as `line: family`. */
export function foreignFamilies(path: string, text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
    for (const m of line.matchAll(/(?:\.key|\bkeyOf)\(\s*'([^']+)'/g)) {
      const owners: readonly string[] | undefined = KEY_FAMILIES[m[1] as KeyFamily];
      if (!owners?.includes(path)) found.push(`${i + 1}: ${m[1]}`);
    }
  });
  return found;
}

describe('no app/ file touches a Redis key', () => {
  it('the check finds each kind of touch (planted here)', () => {
    const planted = [
      "import { accountsKey, redisKeys, type RedisKeys } from '../src/redis/redis-keys.ts';",
      'const raw = await ctx.redis.get(ctx.keys.key("dialect"));',
      'const h = await redis.hgetall(recon.parked);',
      'await this.redis.multi().hset(a, b, c).exec();',
      'const polls = await pipeline.ctx.redis.lrange(store.k.polls, 0, 9);',
      'const recon = reconKeys(ctx.keys);',
      "const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}:*:reqs`);",
      'await redis.evalsha(sha, 1, key);',
      'const n = await ctx.keys.requisition(id);',
    ].join('\n');
    expect(redisKeyTouches(planted)).toEqual([
      '2: command get',
      '2: key keys.key',
      '3: command hgetall',
      '4: command multi',
      '5: command lrange',
      '5: key .k.polls',
      '6: key builder reconKeys',
      '7: command scan',
      '8: command evalsha',
      '9: key keys.requisition',
      'import accountsKey from redis-keys.ts',
    ]);
    // what app/ may do: wire the namespace, manage its connection, call the stores
    const allowed = [
      "import { redisKeys, type RedisKeys } from '../src/redis/redis-keys.ts';",
      'const keys = redisKeys(config.REDIS_PREFIX, config.account);',
      'await redis.ping();',
      'await redis.quit().catch(() => redis.disconnect());',
      "redis.on('error', () => undefined);",
      'const store = createIdempotencyStore(ctx.redis, ctx.keys);',
      'const d = await storedDialect(ctx.redis, ctx.keys);',
      '// a comment may name ctx.redis.get(ctx.keys.key("x"))',
    ].join('\n');
    expect(redisKeyTouches(allowed)).toEqual([]);
  });

  it('holds for every file of app/', () => {
    const touches = sources(join(ROOT, 'app')).flatMap((f) =>
      redisKeyTouches(readFileSync(f, 'utf8')).map((t) => `${relative(ROOT, f)}:${t}`),
    );
    expect(touches).toEqual([]);
  });
});

describe('each key family is built by its owners only', () => {
  it('the check finds a family built elsewhere (planted here)', () => {
    const text = "const k = ctx.keys.key('trk', 'polls');\nconst d = o.keys.key('dialect');\nkeyOf('notify', 'x');";
    expect(foreignFamilies('src/rfqs/store.ts', text)).toEqual(['2: dialect', '3: notify']);
    expect(foreignFamilies('app/commands/context.ts', text)).toEqual(['1: trk', '2: dialect', '3: notify']);
  });

  it('holds for every file of src/, jobs/, app/ and bin/', () => {
    const foreign = ['src', 'jobs', 'app', 'bin'].flatMap((d) =>
      sources(join(ROOT, d)).flatMap((f) => {
        const path = relative(ROOT, f);
        return foreignFamilies(path, readFileSync(f, 'utf8')).map((t) => `${path}:${t}`);
      }),
    );
    expect(foreign).toEqual([]);
  });

  it('every owner named in KEY_FAMILIES is a file that builds the family', () => {
    const stale = Object.entries(KEY_FAMILIES).flatMap(([family, owners]) =>
      owners
        .filter((o) => !new RegExp(`(?:\\.key|\\bkeyOf)\\(\\s*'${family}'`).test(readFileSync(join(ROOT, o), 'utf8')))
        .map((o) => `${family}: ${o}`),
    );
    expect(stale).toEqual([]);
  });
});
