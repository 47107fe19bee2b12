/**
 * `rfq-sync intake [--take-over]`: which data folder does intake for the account (src/intake/intake-folder.ts) and
 * whether this host's is it; `--take-over` makes this host's folder the intake folder from now on (a host replaced,
 * the share moved). Files left in the old folder's processing/ are not read here: they are named so IT moves them.
 */
import type { Config } from '../../src/settings/index.ts';
import type { Logger } from '../../src/core/index.ts';
import { describeFolder, readIntakeFolder, takeOverIntake, thisFolder } from '../../src/intake/index.ts';
import { EXIT_OK } from '../cli-support.ts';
import { withReadContext } from './context.ts';

export async function runIntakeCommand(
  config: Config,
  logger: Logger,
  o: { takeOver?: boolean },
  out: (line: string) => void,
): Promise<number> {
  return withReadContext(config, logger, 'intake', async (ctx) => {
    const account = ctx.config.account;
    if (o.takeOver) {
      const { now, before } = await takeOverIntake(ctx);
      out(`intake for account ${account}: ${describeFolder(now)} from now on`);
      if (before && before.id !== now.id)
        out(
          `before: ${describeFolder(before)}; its workers now refuse to start (exit 2) unless INTAKE=off. Files still ` +
            'in its inbox/ or processing/ are not read here: move them into this inbox.',
        );
      return EXIT_OK;
    }
    const [holder, mine] = await Promise.all([
      readIntakeFolder(ctx.redis, ctx.keys),
      thisFolder(ctx.config.folders.root),
    ]);
    if (!holder) {
      out(`no data folder does intake for account ${account} yet: the first worker with INTAKE on records its own`);
      out(`this host: ${describeFolder(mine)}`);
      return EXIT_OK;
    }
    out(
      `intake for account ${account}: ${describeFolder(holder)}${holder.since ? ` since ${new Date(holder.since).toISOString()}` : ''}`,
    );
    out(
      holder.id === mine.id
        ? `this host: ${describeFolder(mine)}: the intake folder`
        : `this host: ${describeFolder(mine)}: NOT the intake folder (a worker here needs the same data folder, or INTAKE=off; \`--take-over\` moves intake here)`,
    );
    return EXIT_OK;
  });
}
