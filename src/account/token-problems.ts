/**
 * A token file that cannot be used, said aloud. A rotated SOURCING_TOKEN_FILE holding a tab or a line break, an empty
 * one, or one that stays unreadable, is not taken (token-source.ts keeps the last good token): each worker logs it
 * once as an error and keeps it in Redis (one entry per host and file) for `status`, until the file is usable again.
 * The problem names the position of the bad character, never the token.
 */
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import type { Logger } from '../core/index.ts';
import type { RedisKeys } from '../redis/index.ts';

export interface TokenProblem {
  /** The host whose token file it is. */
  host: string;
  file: string;
  problem: string;
  /** Unix ms when it was first seen. */
  at: number;
}

const problemsKey = (keys: RedisKeys): string => keys.key('auth', 'token-problems');

/** Every token file a worker could not use, as the workers reported them. */
export async function readTokenProblems(redis: Redis, keys: RedisKeys): Promise<TokenProblem[]> {
  const raw = await redis.hgetall(problemsKey(keys));
  return Object.values(raw)
    .map((v) => JSON.parse(v) as TokenProblem)
    .sort((a, b) => a.at - b.at);
}

export interface TokenProblemReporter {
  /** The problem of the token file as last read (undefined: usable); logged and stored when it changed. */
  report(problem: string | undefined): Promise<void>;
}

export function tokenProblemReporter(o: {
  redis: Redis;
  keys: RedisKeys;
  logger: Logger;
  file: string;
  host?: string;
}): TokenProblemReporter {
  const host = o.host ?? hostname();
  const field = `${host}|${o.file}`;
  // undefined until the first report: a fixed file clears what an earlier run of this host left
  let last: string | null | undefined;
  return {
    async report(problem) {
      if ((problem ?? null) === last) return;
      if (problem) {
        const entry: TokenProblem = { host, file: o.file, problem, at: Date.now() };
        await o.redis.hset(problemsKey(o.keys), field, JSON.stringify(entry));
        o.logger.error(
          { event: 'auth.token-file-unusable', file: o.file, problem },
          `SOURCING_TOKEN_FILE cannot be used: ${problem}; the last good token stays in use. Write the token alone ` +
            'into the file (a trailing newline is fine)',
        );
      } else {
        const removed = await o.redis.hdel(problemsKey(o.keys), field);
        if (last || removed > 0)
          o.logger.info(
            { event: 'auth.token-file-usable', file: o.file },
            `SOURCING_TOKEN_FILE ${o.file} is usable again`,
          );
      }
      last = problem ?? null;
    },
  };
}
