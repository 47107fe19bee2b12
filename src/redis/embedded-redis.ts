/**
 * A private `redis-server` child process on a free loopback port: used when REDIS_URL is unset (demo, local
 * use) and by the tests, which must run against a real Redis. Never used by `worker` in production.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noRedisServer, redisPortTaken, redisServerSilent, RfqSyncError } from '../core/index.ts';

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

/** Tries on a fresh free port when another process took the one picked first (freePort cannot reserve it). */
const PORT_TRIES = 3;

export async function startEmbeddedRedis(opts: EmbeddedRedisOptions = {}): Promise<EmbeddedRedis> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(opts.port ?? (await freePort()), opts);
    } catch (err) {
      const taken = err instanceof RfqSyncError && err.code === 'E_REDIS_PORT_TAKEN';
      if (!taken || opts.port !== undefined || attempt >= PORT_TRIES) throw err;
    }
  }
}

async function startOn(port: number, opts: EmbeddedRedisOptions): Promise<EmbeddedRedis> {
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
    // the port answering is not enough: another process may hold it (ours then exits, unable to bind)
    const pid = await serverPid(port);
    if (pid !== child.pid) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      throw redisPortTaken(port, pid === undefined ? 'not a redis-server' : `redis-server pid ${pid}`);
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
  if (ownDir && opts.cleanup !== false) removeAtExit(dir);
  return handle;
}

/** Folders removed when this process exits: one listener for all (a test process starts many servers). */
const leftForExit = new Set<string>();
function removeAtExit(dir: string): void {
  if (leftForExit.size === 0)
    process.once('exit', () => {
      for (const d of leftForExit) rmSync(d, { recursive: true, force: true });
    });
  leftForExit.add(dir);
}

/** The process id of the redis-server answering on `port` (INFO server), undefined when it is not one. */
async function serverPid(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    let got = '';
    const done = (pid: number | undefined) => {
      clearTimeout(timer);
      s.destroy();
      resolve(pid);
    };
    const timer = setTimeout(() => done(undefined), 2_000);
    s.once('connect', () => s.write('*2\r\n$4\r\nINFO\r\n$6\r\nserver\r\n'));
    s.on('data', (chunk: Buffer) => {
      got += chunk.toString('latin1');
      const m = /\r\nprocess_id:(\d+)\r\n/.exec(got);
      if (m) done(Number(m[1]));
      else if (!got.startsWith('$')) done(undefined); // an error reply, or not Redis at all
    });
    s.once('error', () => done(undefined));
    s.once('close', () => done(undefined));
  });
}

async function waitForPort(port: number, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (signal?.aborted) return;
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw redisServerSilent(port, timeoutMs);
    await new Promise((r) => setTimeout(r, 25));
  }
}
