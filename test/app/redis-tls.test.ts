/**
 * REDIS_URL with rediss:// (TLS) and a password, end to end: a real redis-server with TLS on and requirepass, a
 * private CA trusted through NODE_EXTRA_CA_CERTS, `rfq-sync status --json` spawned as the CLI. Skipped where
 * openssl or a TLS-enabled redis-server is missing.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/redis/embedded-redis.ts';
import { spawnCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
const PASSWORD = 'tls-Redis-pa55';

function openssl(dir: string, args: string[]): void {
  const r = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`openssl ${args.join(' ')}: ${r.stderr}`);
}

async function listening(port: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => (s.end(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

describe.skipIf(!hasOpenssl)('rediss:// with a password', () => {
  let dir: string;
  let port: number;
  let server: ChildProcess | undefined;
  let tlsAvailable = false;

  beforeAll(async () => {
    dir = tempDir('rfq-ops-tls-');
    openssl(dir, [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '2',
      '-subj',
      '/CN=rfq-sync test CA',
    ]);
    writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
    openssl(dir, [
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'server.key',
      '-out',
      'server.csr',
      '-subj',
      '/CN=127.0.0.1',
    ]);
    openssl(dir, [
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'server.pem',
      '-days',
      '2',
      '-extfile',
      'san.ext',
    ]);
    port = await freePort();
    server = spawn(
      'redis-server',
      [
        '--port',
        '0',
        '--tls-port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'yes',
        '--maxmemory-policy',
        'noeviction',
        '--requirepass',
        PASSWORD,
        '--tls-cert-file',
        join(dir, 'server.pem'),
        '--tls-key-file',
        join(dir, 'server.key'),
        '--tls-ca-cert-file',
        join(dir, 'ca.pem'),
        '--tls-auth-clients',
        'no',
      ],
      { stdio: 'ignore' },
    );
    server.on('error', () => undefined);
    tlsAvailable = await listening(port, 5_000);
  });
  afterAll(() => {
    server?.kill('SIGKILL');
  });

  it('status connects over TLS with the password and never prints it', async (t) => {
    if (!tlsAvailable) t.skip();
    const env = {
      REDIS_URL: `rediss://:${PASSWORD}@127.0.0.1:${port}/0`,
      NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem'),
      SOURCING_ACCOUNT: 'acme',
    };
    const run = spawnCli(['status', '--json'], env);
    const { code } = await run.exited;
    expect(code, run.output()).toBe(0);
    expect(JSON.parse(run.output()).queues).toHaveProperty('create-rfq');
    expect(run.output()).not.toContain(PASSWORD);

    // Without trusting the CA the certificate is refused: TLS is really verified.
    const untrusted = spawnCli(['status', '--json'], { REDIS_URL: env.REDIS_URL, SOURCING_ACCOUNT: 'acme' });
    const r2 = await untrusted.exited;
    expect(r2.code).toBe(1);
    expect(untrusted.output()).toMatch(/cannot reach Redis at rediss:\/\/:(\*\*\*|\[REDACTED\])@127\.0\.0\.1/);
    expect(untrusted.output()).not.toContain(PASSWORD);
  });
});
