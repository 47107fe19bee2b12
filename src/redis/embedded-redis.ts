/**
 * A private `redis-server` child process on a free loopback port: used when REDIS_URL is unset (demo, local
 * use) and by the tests, which must run against a real Redis. Never used by `worker` in production.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noRedisServer, redisServerSilent } from '../errors.ts';

export interface EmbeddedRedis {
  url: string;
  port: number;
  dir: string;
  process: ChildProcess;
  /** SIGKILL when `hard`, else SIGTERM; waits for the process to exit. */
  stop(opts?: { hard?: boolean }): Promise<void>;
  /** Start again on the same port and data dir (AOF replays), e.g. after `stop()`. */
  restart(): Promise<void>;
}

export interface EmbeddedRedisOptions {
  /** Append-only file on (survives restart). Default true: this project's contract says Redis persists. */
  appendonly?: boolean;
  port?: number;
  dir?: string;
  /** Remove the data dir on stop. Default true when the dir was created here. */
  cleanup?: boolean;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export async function startEmbeddedRedis(opts: EmbeddedRedisOptions = {}): Promise<EmbeddedRedis> {
  const port = opts.port ?? (await freePort());
  const ownDir = opts.dir === undefined;
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'rfq-sync-redis-'));
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    opts.appendonly === false ? 'no' : 'yes',
    '--appendfsync',
    'everysec',
    '--maxmemory-policy',
    'noeviction',
    '--protected-mode',
    'yes',
    '--loglevel',
    'warning',
  ];
  let child: ChildProcess;
  const launch = async (): Promise<void> => {
    child = spawn('redis-server', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const spawnError = new Promise<never>((_, reject) => {
      child.once('error', (err: NodeJS.ErrnoException) => {
        reject(err.code === 'ENOENT' ? noRedisServer() : err);
      });
    });
    const ready = new AbortController();
    try {
      await Promise.race([waitForPort(port, 10_000, ready.signal), spawnError]);
    } finally {
      ready.abort(); // stop probing at once when the spawn failed, so a missing binary fails fast
    }
  };
  await launch();
  const handle: EmbeddedRedis = {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    get process() {
      return child;
    },
    async stop(o = {}) {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill(o.hard ? 'SIGKILL' : 'SIGTERM');
        await exited;
      }
    },
    async restart() {
      await handle.stop();
      await launch();
    },
  };
  // The data dir outlives stop() so restart() can replay the AOF; it goes when the process exits.
  if (ownDir && opts.cleanup !== false) process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return handle;
}

async function waitForPort(port: number, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (signal?.aborted) return;
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.end();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw redisServerSilent(port, timeoutMs);
    await new Promise((r) => setTimeout(r, 25));
  }
}
