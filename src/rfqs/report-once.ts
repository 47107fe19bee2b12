/**
 * A record field the service keeps writing in a shape we cannot read is reported once per RFQ and field, not once
 * per poll: the first worker to meet it writes it in `trk:reported` (HSETNX) and warns; later polls and quotation
 * pulls keep it in their results (for `status`) and log it at debug only.
 */
import type { Logger } from '../core/index.ts';
import type { TrackingStore } from './store.ts';

/** A problem met in what the service answered, warned about only the first time (`key`: RFQ and field). */
export interface ToSay {
  key: string;
  fields: Record<string, unknown>;
  msg: string;
}

/** Warn of what is met for the first time (other polls and workers met the rest before). */
export async function sayOnce(store: TrackingStore, log: Logger, said: readonly ToSay[]): Promise<void> {
  if (said.length === 0) return;
  const p = store.redis.pipeline();
  const at = String(Date.now());
  for (const s of said) p.hsetnx(store.k.reported, s.key, at);
  const res = (await p.exec()) ?? [];
  said.forEach((x, i) => {
    const [err, first] = res[i] ?? [null, 0];
    if (err) throw err;
    if (first === 1) log.warn(x.fields, x.msg);
    else log.debug(x.fields, x.msg);
  });
}
