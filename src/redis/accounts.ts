/**
 * The accounts whose workers ran under a prefix (key: accountsKey): a worker registers its own at start; a command
 * given no account reads them to find the only one.
 */
import type { Redis } from 'ioredis';
import { accountsKey } from './redis-keys.ts';

export async function registerAccount(redis: Redis, prefix: string, account: string): Promise<void> {
  await redis.sadd(accountsKey(prefix), account);
}

/**
 * The registered accounts; none registered (an installation older than the register): the accounts whose
 * requisition index is there, at most about 100.
 */
export async function accountsInRedis(redis: Redis, prefix: string): Promise<string[]> {
  const found = new Set(await redis.smembers(accountsKey(prefix)));
  if (found.size === 0) {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*:reqs`, 'COUNT', 1000);
      cursor = next;
      for (const k of keys) found.add(k.slice(prefix.length + 1, -':reqs'.length));
    } while (cursor !== '0' && found.size < 100);
  }
  return [...found].sort();
}
