/** Real redis-server per test file, on a free port; a fresh key prefix per test. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { startEmbeddedRedis, type EmbeddedRedis } from '../../src/redis/embedded-redis.ts';

export function useRedis(opts: { appendonly?: boolean } = {}): { readonly redis: EmbeddedRedis; readonly url: string } {
  let redis: EmbeddedRedis | undefined;
  beforeAll(async () => {
    redis = await startEmbeddedRedis({ appendonly: opts.appendonly ?? false });
  });
  afterAll(async () => {
    await redis?.stop();
  });
  return {
    get redis() {
      if (!redis) throw new Error('redis not started yet (use inside a test)');
      return redis;
    },
    get url() {
      if (!redis) throw new Error('redis not started yet (use inside a test)');
      return redis.url;
    },
  };
}

/** A fresh BullMQ/key prefix per test so tests never see each other's queues. */
export function freshPrefix(): string {
  return `t${randomUUID().replace(/-/g, '').slice(0, 12)}`;
}
