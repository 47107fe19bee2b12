/**
 * The account's dialect (src/sourcing/dialect.ts), shared by every worker through Redis: detected once, kept with
 * its evidence, detected again after DIALECT_MAX_AGE_MS (an empty account proves no filter; a later one may), and
 * completed by what the workers learn on the way (the external_id echo, the edit call).
 * Key: keys.key('dialect'), a JSON string of Dialect.
 */
import type { Redis } from 'ioredis';
import { UnexpectedError, type Logger } from '../core/index.ts';
import { readsFirst } from './rate-limiter.ts';
import {
  detectDialect,
  type Dialect,
  type DialectSettings,
  type Tristate,
  type SourcingPort,
} from '../sourcing/index.ts';
import { defineScript, loadScript, type RedisKeys } from '../redis/index.ts';

const SET_IF_SAME = loadScript<0 | 1>('setIfSame-1.lua');

/** A stored detection older than this is made again (an unproven one sooner: the account may have filled). */
export const DIALECT_MAX_AGE_MS = 6 * 3_600_000;
const UNPROVEN_MAX_AGE_MS = 10 * 60_000;

export interface DialectSource {
  /** The dialect in force (stored, or detected now when none is stored or it is too old). */
  get(): Promise<Dialect>;
  /** Detect again now and store it (`rfq-sync doctor`). */
  refresh(): Promise<Dialect>;
  /** What is stored, without detecting (`status`). */
  stored(): Promise<Dialect | undefined>;
  /**
   * A worker saw the echo (or its absence) on our own RFQ, used the edit call, or measured the list lag (`listLagMs`;
   * `lagStale`: a walk missed our RFQ, so the lag is measured again on the next create).
   */
  learn(fact: {
    echo?: Exclude<Tristate, 'unknown'>;
    edit?: Exclude<Tristate, 'unknown'>;
    listLagMs?: number;
    lagStale?: true;
    evidence: string;
  }): Promise<void>;
}

/** The dialect as stored, without detecting (`status`, which has no sourcing service). */
export async function storedDialect(redis: Redis, keys: RedisKeys): Promise<Dialect | undefined> {
  const raw = await redis.get(keys.key('dialect'));
  return raw ? (JSON.parse(raw) as Dialect) : undefined;
}

export function createDialectSource(o: {
  redis: Redis;
  keys: RedisKeys;
  port: Pick<SourcingPort, 'listRfqPages' | 'getRfq'>;
  settings: DialectSettings;
  logger: Logger;
}): DialectSource {
  const key = o.keys.key('dialect');
  let cached: Dialect | undefined;
  let detecting: Promise<Dialect> | undefined;

  const stored = () => storedDialect(o.redis, o.keys);
  const setIfSame = defineScript(o.redis, SET_IF_SAME);
  const fresh = (d: Dialect) =>
    Date.now() - d.detectedAt < (d.filterBasis === 'unproven' ? UNPROVEN_MAX_AGE_MS : DIALECT_MAX_AGE_MS);
  const refresh = async (): Promise<Dialect> => {
    const beforeRaw = (await o.redis.get(key)) ?? '';
    const before = beforeRaw ? (JSON.parse(beforeRaw) as Dialect) : undefined;
    // every reconcile, probe and poll waits for the dialect: its reads take their permits ahead of the creates
    const d = await readsFirst(() =>
      detectDialect(o.port, o.settings, {
        echo: before?.echo === 'unknown' ? undefined : before?.echo,
        edit: before?.edit === 'unknown' ? undefined : before?.edit,
        ...(before?.listLagMs !== undefined ? { listLagMs: before.listLagMs, listLagAt: before.listLagAt } : {}),
      }),
    );
    // stored only over what the detection started from: what a worker learned meanwhile (seconds of list reads)
    // is carried into it, not written over
    for (let attempt = 1, read = beforeRaw; ; attempt++) {
      if ((await setIfSame([key], [read, JSON.stringify(d)])) === 1) break;
      if (attempt >= 10) throw new UnexpectedError('the stored dialect kept changing while a detection was stored');
      read = (await o.redis.get(key)) ?? '';
      if (read) carryLearned(d, before, JSON.parse(read) as Dialect);
    }
    o.logger.info(
      {
        event: 'dialect.detected',
        filter: d.filter,
        basis: d.filterBasis,
        unfiltered: d.unfiltered,
        echo: d.echo,
        detail: d.detail,
        edit: d.edit,
      },
      `sourcing dialect: filter ${d.filter} (${d.filterBasis}), unfiltered list ${d.unfiltered}, external_id echo ${d.echo}, detail call ${d.detail}`,
    );
    for (const l of d.unknownLabels)
      o.logger.warn(
        { event: 'dialect.unknown-label', label: l },
        `RFQ status label "${l}" is not in the label mapping; its RFQs' state is not read from it`,
      );
    cached = d;
    return d;
  };

  return {
    async get() {
      // read each time (one GET): what another worker learned (the echo, the list lag) is in force at once
      const s = await stored().catch((err: unknown) => {
        if (cached && fresh(cached)) return cached;
        throw err;
      });
      if (s && fresh(s)) return (cached = s);
      // one detection per process at a time
      detecting ??= refresh().finally(() => (detecting = undefined));
      return detecting;
    },
    refresh,
    stored,
    async learn(fact) {
      // read, change, then set only if nobody wrote meanwhile (another learn, here or on another worker, or a
      // detection): else read again and apply the fact to what is there now, so no learned fact is lost
      for (let attempt = 1; ; attempt++) {
        const raw = (await o.redis.get(key)) ?? '';
        const d = raw ? (JSON.parse(raw) as Dialect) : cached && { ...cached, evidence: [...cached.evidence] };
        if (!d) return;
        const changed =
          (fact.echo !== undefined && d.echo !== fact.echo) ||
          (fact.edit !== undefined && d.edit !== fact.edit) ||
          (fact.listLagMs !== undefined && d.listLagMs !== fact.listLagMs) ||
          (fact.lagStale !== undefined && d.listLagAt !== 0);
        if (!changed) return;
        applyFact(d, fact, o.settings);
        if ((await setIfSame([key], [raw, JSON.stringify(d)])) === 1) {
          cached = d;
          break;
        }
        if (attempt >= 10)
          throw new UnexpectedError(`the stored dialect kept changing while ${fact.evidence} was stored`);
      }
      o.logger.info({ event: 'dialect.learned', ...fact }, `sourcing dialect: ${fact.evidence}`);
    },
  };
}

/** A learned fact applied to a dialect (the settings that force a fact win over what is learned). */
function applyFact(d: Dialect, fact: Parameters<DialectSource['learn']>[0], settings: DialectSettings): void {
  const lag = fact.listLagMs !== undefined || fact.lagStale !== undefined;
  if (fact.echo !== undefined && settings.SOURCING_EXTERNAL_ID_ECHO === 'auto') d.echo = fact.echo;
  if (fact.edit !== undefined && settings.SOURCING_EDIT_CALL === 'auto') d.edit = fact.edit;
  if (fact.listLagMs !== undefined) {
    d.listLagMs = fact.listLagMs;
    d.listLagAt = Date.now();
  }
  if (fact.lagStale) d.listLagAt = 0; // kept in force until measured again
  const topic = fact.echo !== undefined ? 'external_id echo' : lag ? 'list lag' : 'edit call';
  d.evidence = [...d.evidence.filter((e) => !e.startsWith(topic)), fact.evidence];
}

/** What was learned between `before` (what a detection started from) and `now` (stored meanwhile), put into `d`. */
function carryLearned(d: Dialect, before: Dialect | undefined, now: Dialect): void {
  const topics: string[] = [];
  if (now.echo !== (before?.echo ?? 'unknown')) {
    d.echo = now.echo;
    topics.push('external_id echo');
  }
  if (now.edit !== (before?.edit ?? 'unknown')) {
    d.edit = now.edit;
    topics.push('edit call');
  }
  if (now.listLagAt !== before?.listLagAt) {
    d.listLagMs = now.listLagMs;
    d.listLagAt = now.listLagAt;
    topics.push('list lag');
  }
  const learned = now.evidence.filter((e) => topics.some((t) => e.startsWith(t)));
  d.evidence = [...d.evidence.filter((e) => !topics.some((t) => e.startsWith(t))), ...learned];
}
