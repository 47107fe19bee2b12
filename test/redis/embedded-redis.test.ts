/**
 * The private redis-server the demo and the tests start (src/redis/embedded-redis.ts): a port found free can be taken
 * by another process before redis-server binds it (tests start many at once). The handle must then never point at
 * that other process: with a port given it fails naming the port, without one it starts on another port.
 */
import { createServer, type Server } from 'node:net';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, startEmbeddedRedis, type EmbeddedRedis } from '../../src/redis/embedded-redis.ts';

const started: EmbeddedRedis[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const r of started.splice(0)) await r.stop({ hard: true });
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

/** A process that is not Redis, answering on `port`. */
async function squat(port: number): Promise<void> {
  const s = createServer((sock) =>
    sock
      .on('error', () => undefined)
      .resume()
      .end('HTTP/1.1 400 Bad Request\r\n\r\n'),
  );
  servers.push(s);
  await new Promise<void>((resolve) => s.listen(port, '127.0.0.1', resolve));
}

describe('embedded redis-server', () => {
  it('a port held by something that is not Redis: refused, naming the port', async () => {
    const port = await freePort();
    await squat(port);
    await expect(startEmbeddedRedis({ port, appendonly: false })).rejects.toMatchObject({
      code: 'E_REDIS_PORT_TAKEN',
      message: expect.stringContaining(`port ${port} is taken by another process (not a redis-server)`),
    });
  });

  it("a port held by another redis-server: refused, never handed back as ours (its data is someone else's)", async () => {
    const other = await startEmbeddedRedis({ appendonly: false });
    started.push(other);
    await expect(startEmbeddedRedis({ port: other.port, appendonly: false })).rejects.toMatchObject({
      code: 'E_REDIS_PORT_TAKEN',
      message: expect.stringContaining(`redis-server pid ${other.process.pid}`),
    });
    const redis = new Redis(other.url);
    try {
      expect(await redis.ping()).toBe('PONG'); // the other one was left alone
    } finally {
      redis.disconnect();
    }
  });

  it('its own server answers as itself', async () => {
    const r = await startEmbeddedRedis({ appendonly: false });
    started.push(r);
    const redis = new Redis(r.url);
    try {
      const info = await redis.info('server');
      expect(info).toContain(`process_id:${r.process.pid}`);
    } finally {
      redis.disconnect();
    }
  });
});
