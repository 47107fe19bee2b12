/**
 * Secrets as operators get them wrong: a token file with a line break inside (two tokens pasted, a CR), a wrong
 * Redis password, a password with unencoded `:` `/` `@` in REDIS_URL. Each is a configuration error (exit 2) naming
 * the setting, never the value; a trailing newline in a token file is trimmed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/settings/config.ts';
import { freePort } from '../../src/redis/embedded-redis.ts';
import { spawnCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('rfq-secrets-');
const file = (name: string, content: string) => {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
};
let server: ChildProcess | undefined;
afterAll(() => server?.kill('SIGKILL'));

describe('secrets operators get wrong', () => {
  it.each([
    ['two tokens on two lines', 'tok-FIRST-1234\ntok-SECOND-5678\n', /a line break at character 15/],
    ['a CR inside (Windows editor)', 'tok-ONLY\r-part2', /a line break at character 9/],
    ['a control character', 'zzTOKENzz\u0007QQbellQQ', /a control character \(U\+0007\) at character 10/],
  ])('token file with %s: exit 2 naming SOURCING_TOKEN_FILE, never the value', async (_what, content, reason) => {
    const tokenFile = file(`token-${Math.random()}`, content);
    const run = spawnCli(['poll'], {
      SOURCING_BASE_URL: 'https://sourcing.example.com',
      SOURCING_TOKEN_FILE: tokenFile,
      REDIS_URL: 'redis://127.0.0.1:1',
    });
    expect((await run.exited).code).toBe(2);
    expect(run.output()).toMatch(/SOURCING_TOKEN_FILE: the token in .* holds/);
    expect(run.output()).toMatch(reason);
    for (const part of content.split(/[\r\n\u0007]/).filter(Boolean)) expect(run.output()).not.toContain(part);
  });

  it('a trailing newline is trimmed', () => {
    const c = loadConfig({
      SOURCING_BASE_URL: 'https://sourcing.example.com',
      SOURCING_TOKEN_FILE: file('token-ok', 'tok-OK-1234\r\n'),
    });
    expect(c.token).toBe('tok-OK-1234');
  });

  it('a wrong Redis password exits 2 (configuration), the password not printed', async () => {
    const port = await freePort();
    server = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--requirepass',
        'right-Pa55word',
      ],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 100; i++) {
      const up = await new Promise<boolean>((r) =>
        connect(port, '127.0.0.1')
          .once('connect', function (this: import('node:net').Socket) {
            this.end();
            r(true);
          })
          .once('error', () => r(false)),
      );
      if (up) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const run = spawnCli(['status'], {
      REDIS_URL: `redis://:wrong-Pa55word@127.0.0.1:${port}`,
      SOURCING_ACCOUNT: 'acme',
    });
    expect((await run.exited).code, run.output()).toBe(2);
    expect(run.output()).toMatch(/refused the credentials .*check the password in REDIS_URL/);
    expect(run.output()).not.toContain('wrong-Pa55word');
  });

  it.each(['Alpha1/Bravo2:Charlie3@Delta4', 'Echo5:Fox6/Golf7', 'Hotel8@India9/Juliet0'])(
    'REDIS_URL with the unencoded password %s: exit 2, no part of it printed',
    async (pw) => {
      const run = spawnCli(['status'], { REDIS_URL: `redis://:${pw}@127.0.0.1:6390/0`, SOURCING_ACCOUNT: 'acme' });
      expect((await run.exited).code, run.output()).toBe(2);
      expect(run.output()).toMatch(
        /REDIS_URL: is not a valid URL: a password holding : \/ @ # \? % must be percent-encoded/,
      );
      for (const part of pw.split(/[:/@]/)) expect(run.output()).not.toContain(part);
    },
  );
});
