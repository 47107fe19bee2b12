/**
 * The Lua scripts live in src/redis/lua/ (issue 15 item 3): one file per command, named with its key count,
 * opening with its KEYS/ARGV/returns; shared pieces (the clock prologue) written once and included. Checked here:
 * the files' shape, that every one compiles on a real Redis with its includes in place, that src keeps no Lua of
 * its own, and that the files ship (npm pack, Docker image).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LUA_DIR, loadScript } from '../../src/redis/redis-scripts.ts';
import { useRedis } from '../helpers/redis.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const commands = readdirSync(LUA_DIR).filter((f) => f.endsWith('.lua'));
const includes = readdirSync(join(LUA_DIR, 'includes')).filter((f) => f.endsWith('.lua'));

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}
const sources = tsFiles(join(ROOT, 'src')).map((p) => ({ path: relative(ROOT, p), text: readFileSync(p, 'utf8') }));

describe('the .lua files', () => {
  it('are there: one per command, named <name>-<key count>.lua, and the includes', () => {
    expect(commands.length).toBeGreaterThanOrEqual(17);
    for (const f of commands) expect(f).toMatch(/^[a-z][A-Za-z0-9]*-\d+\.lua$/);
    expect(includes).toContain('clock.lua');
  });

  it.each(commands)('%s opens with its KEYS, ARGV and returns, and uses exactly the keys its name counts', (file) => {
    const raw = readFileSync(join(LUA_DIR, file), 'utf8');
    const header = /^--\[\[\n([\s\S]*?)\n\]\]\n/.exec(raw);
    expect(header, `${file} opens with a --[[ ... ]] comment`).not.toBeNull();
    const keys = Number(/-(\d+)\.lua$/.exec(file)![1]);
    const body = raw.slice(header![0].length);
    const used = [...body.matchAll(/KEYS\[(\d+)\]/g)].map((m) => Number(m[1]));
    expect(Math.max(0, ...used)).toBe(keys);
    for (let k = 1; k <= keys; k++) expect(header![1], `${file}: KEYS[${k}] described`).toContain(`KEYS[${k}]`);
    if (/ARGV\[/.test(body)) expect(header![1]).toMatch(/ARGV\[1\]/);
    expect(header![1]).toMatch(/Returns/);
  });

  it('read the clock in one place: the include', () => {
    for (const f of commands) expect(readFileSync(join(LUA_DIR, f), 'utf8'), f).not.toContain("redis.call('TIME')");
    expect(readFileSync(join(LUA_DIR, 'includes', 'clock.lua'), 'utf8')).toContain("redis.call('TIME')");
    const claim = loadScript('claim-7.lua');
    expect(claim.lua).not.toContain('@include');
    expect(claim.lua.match(/redis\.call\('TIME'\)/g)).toHaveLength(1);
    expect(claim).toMatchObject({ name: 'rfqSyncClaim', numberOfKeys: 7 });
  });

  it('a file named without its key count, or missing, is refused with the file named', () => {
    expect(() => loadScript('claim.lua')).toThrow(/claim\.lua.*<name>-<number of keys>\.lua/);
    expect(() => loadScript('nowhere-1.lua')).toThrow(/nowhere-1\.lua cannot be read/);
  });
});

describe('on a real Redis', () => {
  const env = useRedis();
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(env.url);
  });
  afterAll(async () => {
    await redis.quit();
  });

  it.each(commands)('%s compiles with its includes in place', async (file) => {
    const s = loadScript(file);
    expect(String(await redis.script('LOAD', s.lua))).toMatch(/^[0-9a-f]{40}$/);
  });
});

describe('src keeps no Lua of its own', () => {
  it('no script text in a .ts file; every .lua file is loaded by src, each with the type of its answer', () => {
    const inline = sources.filter((s) => /(?<![.\w])redis\.call\(/.test(s.text)).map((s) => s.path);
    expect(inline).toEqual([]);
    // loadScript<Reply>('x-1.lua'): the answer's type is what callers read (redis-scripts.ts); one loaded without
    // it would hand its callers `unknown` to cast again
    const untyped = sources.flatMap((s) =>
      [...s.text.matchAll(/loadScript\(\s*'([^']+)'/g)].map((m) => `${s.path}: ${m[1]}`),
    );
    expect(untyped).toEqual([]);
    const loaded = sources.flatMap((s) => [...s.text.matchAll(/loadScript<[^;]+?>\(\s*'([^']+)'\)/g)].map((m) => m[1]));
    expect([...new Set(loaded)].sort()).toEqual([...commands].sort());
  });
});

describe('the files ship', () => {
  it('npm pack and the Docker image take src/ whole', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files?: string[] };
    if (pkg.files) expect(pkg.files.some((f) => /^(\.\/)?src(\/|$)/.test(f))).toBe(true);
    for (const ignore of ['.npmignore', '.dockerignore']) {
      let text = '';
      try {
        text = readFileSync(join(ROOT, ignore), 'utf8');
      } catch {
        continue;
      }
      expect(text, ignore).not.toMatch(/(^|\n)\s*(\*\.lua|src\/?|src\/pipeline\/lua\/?)\s*(\n|$)/);
    }
    expect(readFileSync(join(ROOT, 'Dockerfile'), 'utf8')).toMatch(/^COPY src \.\/src$/m);
  });
});
