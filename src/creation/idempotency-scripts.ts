/**
 * The idempotency store's Lua scripts (src/redis/lua/: each file opens with its KEYS, ARGV and what it returns),
 * each with the type of its answer: a script that changes what it returns changes its type here, and the store's
 * reading of it fails the typecheck until it follows.
 */
import type { Redis } from 'ioredis';
import { defineScript, loadScript, type ScriptFlag } from '../redis/index.ts';

/** `conflict` and then external_id, holder pairs. */
export type ConflictReply = ['conflict', ...string[]];

export type ClaimReply =
  | ['created', rfqId: string]
  | ['rejected', reason: string]
  | ['undecided', reason: string]
  | ['busy', waitMs: string]
  | ConflictReply
  | ['claimed' | 'posting', previousState: string, claimedJson: string];

export type SeedReply = ['seeded'] | ['exists', state: string] | ConflictReply;

export type RecordReply = ['recorded'] | ['same'] | ['duplicate', existingRfqId: string];

const CLAIM = loadScript<ClaimReply>('claim-7.lua');
const BEGIN_POST = loadScript<ScriptFlag>('beginPost-2.lua');
const PARK = loadScript<ScriptFlag>('park-1.lua');
const SEED_FOR_RECOVERY = loadScript<SeedReply>('seedForRecovery-4.lua');
const UNPARK_TO_POST = loadScript<ScriptFlag>('unparkToPost-1.lua');
const END_ATTEMPT = loadScript<ScriptFlag>('endAttempt-1.lua');
const RECORD = loadScript<RecordReply>('record-5.lua');
const REJECT = loadScript<ScriptFlag>('reject-2.lua');
const MARK_RECONCILED = loadScript<ScriptFlag>('markReconciled-1.lua');
const ADD_SUPPLEMENT = loadScript<ScriptFlag>('addSupplement-1.lua');
const CLEAR_REJECTION = loadScript<ScriptFlag>('clearRejection-1.lua');

/** The scripts defined on the account's connection. */
export function defineIdempotencyScripts(redis: Redis) {
  return {
    claim: defineScript(redis, CLAIM),
    beginPost: defineScript(redis, BEGIN_POST),
    endAttempt: defineScript(redis, END_ATTEMPT),
    record: defineScript(redis, RECORD),
    reject: defineScript(redis, REJECT),
    markReconciled: defineScript(redis, MARK_RECONCILED),
    park: defineScript(redis, PARK),
    unparkToPost: defineScript(redis, UNPARK_TO_POST),
    seedForRecovery: defineScript(redis, SEED_FOR_RECOVERY),
    addSupplement: defineScript(redis, ADD_SUPPLEMENT),
    clearRejection: defineScript(redis, CLEAR_REJECTION),
  };
}

export type IdempotencyScripts = ReturnType<typeof defineIdempotencyScripts>;
