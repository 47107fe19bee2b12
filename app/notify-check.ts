/**
 * The notification settings split by who needs them. Where notifications are sent (`worker`, `once`, `notify test`,
 * `doctor`) a problem refuses the command, one line per problem (exit 2). The commands that send nothing or only
 * look (`status`, `failed`, `ingest`, `resolve`, `recover`) run whatever those settings say: they print one warning
 * line naming the problems and go on without notifications, so an operator fixing a typo in a route keeps the very
 * commands that show what is wrong.
 */
import type { Config } from '../src/settings/index.ts';
import { ConfigError, scrubSecrets } from '../src/core/index.ts';

/**
 * `refuse`: throw the ConfigError. `warn`: one line on `write` naming every problem (those loadConfig kept in
 * `ignored` too), then the configuration without notifications.
 */
export async function checkNotifySettings(
  config: Config,
  command: string,
  mode: 'refuse' | 'warn',
  write: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
): Promise<Config> {
  const problems = [...(config.ignored ?? [])];
  let checked = config;
  if (config.NOTIFY_CHANNELS !== undefined || config.NOTIFY_ROUTES !== undefined) {
    const { resolveNotifySettings } = await import('../src/notify/index.ts');
    try {
      resolveNotifySettings(config);
    } catch (err) {
      if (!(err instanceof ConfigError) || mode === 'refuse') throw err;
      problems.push(...err.problems);
      checked = { ...config, NOTIFY_CHANNELS: undefined, NOTIFY_ROUTES: undefined };
    }
  }
  if (problems.length > 0)
    write(
      scrubSecrets(
        `rfq-sync: warning: notification settings ignored by \`${command}\` (the worker, once, notify test and doctor refuse them): ${problems.join('; ')}`,
      ),
    );
  return checked;
}
