/**
 * `rfq-sync resume`: the sourcing calls are paused because the service refused the token; check the same token now
 * (one cheap authenticated call) instead of waiting for the next check of the back-off. Resumes creation and polling
 * for every worker when the service accepts it. Exit 0: not paused, or resumed; 1: still refused.
 */
import type { Config } from '../../src/settings/index.ts';
import type { Logger } from '../../src/core/index.ts';
import { EXIT_FAILED, EXIT_OK } from '../cli-support.ts';
import { withContext } from './context.ts';

export async function runResumeCommand(config: Config, logger: Logger, out: (line: string) => void): Promise<number> {
  return withContext(config, logger, 'resume', async (ctx) => {
    const r = await ctx.authGate.checkNow();
    for (const p of (await ctx.authGate.status()).tokenProblems ?? [])
      out(`token file ${p.file} on ${p.host} cannot be used: ${p.problem}`);
    if (r.outcome === 'not-paused') {
      out('sourcing calls are not paused for auth (any more): nothing to resume');
      return EXIT_OK;
    }
    if (r.outcome === 'resumed') {
      out(`resumed: ${r.why}; creation and polling go on for every worker`);
      return EXIT_OK;
    }
    out(`still paused: ${r.result}; next automatic check at ${new Date(r.nextCheckAt).toISOString()}`);
    out('Replace the token (SOURCING_TOKEN_FILE is re-read within seconds), or run `rfq-sync resume` again later.');
    return EXIT_FAILED;
  });
}
