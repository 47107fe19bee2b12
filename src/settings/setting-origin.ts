/**
 * Where a setting's value came from, in words, for answers that must say what they read (`trace` names the audit
 * folder and how RFQ_SYNC_DIR was chosen: run from another directory, the default `./rfq-sync-data` is another
 * folder).
 */
import type { Config } from './config.ts';

export function settingOrigin<K extends keyof Config>(
  config: Pick<Config, 'given' | K>,
  key: K,
  cwd = process.cwd(),
): string {
  const from = config.given[key];
  const value = String(config[key]);
  return from ? `${key}=${value} from ${from}` : `${key} not set: the default ${value} under ${cwd}`;
}
