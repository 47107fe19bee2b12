/** Redis: connections and queues, the key layout of every record, Lua scripts, replication and the state epoch. */
export { accountsInRedis, registerAccount } from './accounts.ts';
export { type EmbeddedRedis, startEmbeddedRedis } from './embedded-redis.ts';
export { LOCK_RELEASE, LOCK_RENEW } from './lock-scripts.ts';
export { bullPrefix, createQueues, type Queues, type RedisConnectionOptions } from './queues.ts';
export { checkRedis, parseInfo } from './redis-checks.ts';
export { redisKeys, type RedisKeys, requisitionId } from './redis-keys.ts';
export { defineScript, loadScript, type ScriptCaller, type ScriptFlag } from './redis-scripts.ts';
export { replicationWait } from './replication.ts';
export { createStateEpoch, readLostState, type StateEpoch } from './state-epoch.ts';
export { JOB_STATES, queueCounts } from './queue-counts.ts';
export { redisOptionsFromUrl } from './redis-options.ts';
