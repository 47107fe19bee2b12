/**
 * The scripts of a lock held by token under a lease (SET NX PX takes it): renewed and released only by its holder,
 * so a holder that outlived its lease cannot touch the next one's. Shared by the poll lock, the reconcile walk and
 * the list-lag probe.
 */
import { loadScript, type ScriptFlag } from './redis-scripts.ts';

/** KEYS lock; ARGV token, lease ms. */
export const LOCK_RENEW = loadScript<ScriptFlag>('lockRenew-1.lua');
/** KEYS lock; ARGV token. */
export const LOCK_RELEASE = loadScript<ScriptFlag>('lockRelease-1.lua');
