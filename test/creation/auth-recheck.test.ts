/**
 * An auth pause that lifts itself (issue 21): the service refuses every token for a while (its login down, an account
 * suspended and restored), then accepts the same token again. The worker checks the same token on a back-off and
 * resumes by itself; `rfq-sync resume` checks now; a rotated token file that cannot be used is said in the log and in
 * `status`, by the position of the bad character, never the token. Real Redis, the sandbox over HTTP.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { enqueueCreateRfq } from '../../jobs/create-rfq.ts';
import { startWorker, type RunningWorker } from '../../jobs/worker.ts';
import { createLogger } from '../../src/core/logger.ts';
import { closeWorkerContext } from '../../app/runtime/worker-context.ts';
import { redisKeys } from '../../src/redis/redis-keys.ts';
import { checkExactlyOnce } from '../helpers/creation.ts';
import { makeRequisitions } from '../helpers/fixtures.ts';
import { pipelineContext, pipelineEnvVars, type PipelineEnv } from '../helpers/worker-env.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { waitFor } from '../helpers/wait.ts';
import { spawnCli } from '../helpers/cli.ts';
import { collectStatus } from '../../app/commands/status.ts';
import { tempDir } from '../helpers/temp-dir.ts';

// A token whose halves appear nowhere else (paths, URLs), so a leak of either is seen.
const pipeline = usePipeline({ sandbox: { pageSize: 50, accounts: { 'tok-Zq7pW3xK9mV2nB4': 'Outage Buyer Ltd' } } });

// Contexts from pipeline.context() are closed by the harness, after the worker (this hook runs first).
let worker: RunningWorker | undefined;
const dirs: string[] = [];
afterEach(async () => {
  pipeline.sandbox.setFaults({});
  await worker?.close(5_000);
  worker = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const env = (extra: Record<string, string> = {}): PipelineEnv => pipeline.freshEnv(extra);

/** A logger whose JSON lines land in `lines`. */
function capture(): { logger: ReturnType<typeof createLogger>; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const l of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(l) as Record<string, unknown>);
      cb();
    },
  });
  return { logger: createLogger({ level: 'info', destination: sink, pretty: false }), lines };
}

const rfqsOf = (tag: string) =>
  pipeline.sandbox.control.listAll().filter((r) => r.lines.some((l) => l.external_id?.startsWith(`${tag}-`)));

async function cli(args: string[], e: PipelineEnv): Promise<{ code: number | null; out: string }> {
  const p = spawnCli(args, pipelineEnvVars(e));
  const { code } = await p.exited;
  return { code, out: p.output() };
}

describe('an auth pause that lifts itself', () => {
  it('the service refuses every token for a while, then accepts the same one: the worker resumes by itself within the back-off and creates everything once', async () => {
    const { logger, lines } = capture();
    const c = await pipeline.context(env(), logger); // AUTH_CHECK_MS 200 here: checks after 0.2, 0.6, 1.4, 3.0 s...
    worker = startWorker(c, { queues: ['createRfq'] });
    pipeline.sandbox.setFaults({ refuseTokens: true });
    const reqs = makeRequisitions(6, 'outage');
    for (const r of reqs) await enqueueCreateRfq(c.queues, r);
    await waitFor('paused', async () => (await c.authGate.status()).paused, 10_000);
    // The same token is checked again while refused: each check is kept for `status` and said in the log.
    await waitFor('two checks of the same token', async () => ((await c.authGate.status()).checks ?? 0) >= 2, 10_000);
    const during = await c.authGate.status();
    expect(during.lastCheck?.result).toBe('still refused (HTTP 401)');
    expect(lines.some((l) => l.event === 'auth.still-paused')).toBe(true);
    expect(rfqsOf('outage')).toHaveLength(0);

    // The service accepts the same token again (nobody touches anything): due by the back-off's next check.
    const dueAt = (await c.authGate.status()).nextCheckAt!;
    pipeline.sandbox.setFaults({});
    const liftedAt = Date.now();
    await waitFor('resumed by itself', async () => !(await c.authGate.status()).paused, 20_000);
    const resumedAt = Date.now();
    // Within the back-off: no later than the check that was due when the service came back (plus a tick).
    expect(resumedAt).toBeLessThanOrEqual(Math.max(dueAt, liftedAt) + 1_000);
    await waitFor('6 created', async () => (await c.queues.createRfq.getCompletedCount()) === 6, 30_000);
    expect(checkExactlyOnce(rfqsOf('outage'), reqs)).toEqual({ duplicates: [], missing: [], rfqCount: 6 });
    expect(await c.queues.createRfq.getFailedCount()).toBe(0);
    const resumed = lines.find((l) => l.event === 'auth.resumed');
    expect(resumed?.msg).toMatch(/check \d+: the service accepts the same token again/);
  });

  it('`rfq-sync resume` checks the same token now: still paused (exit 1) while refused, resumed (exit 0) once accepted', async () => {
    const e = env();
    // A worker paused and went away: only the command checks the token here.
    const setup = await pipelineContext(e);
    pipeline.sandbox.setFaults({ refuseTokens: true });
    await setup.authGate.pause('createRfq: the sourcing service refused the token (HTTP 401)');
    await closeWorkerContext(setup);
    const redis = new Redis(pipeline.redisUrl);
    const pauseKey = redisKeys(e.prefix, e.account!).authPause;
    try {
      const refused = await cli(['resume'], e);
      expect(refused.code).toBe(1);
      expect(refused.out).toMatch(/still paused: still refused \(HTTP 401\); next automatic check at \d{4}-/);
      expect(await redis.hget(pauseKey, 'lastCheckResult')).toBe('still refused (HTTP 401)');

      pipeline.sandbox.setFaults({});
      const accepted = await cli(['resume'], e);
      expect(accepted.code).toBe(0);
      expect(accepted.out).toMatch(/resumed: check \d+: the service accepts the same token again/);
      expect(await redis.exists(pauseKey)).toBe(0);
    } finally {
      redis.disconnect();
    }
  });

  it('a worker that starts while calls are paused says so at once and checks the same token now', async () => {
    const e = env({ AUTH_CHECK_MS: '300', RFQ_SYNC_DIR: pipeline.data.root });
    const setup = await pipelineContext(e);
    pipeline.sandbox.setFaults({ refuseTokens: true });
    await setup.authGate.pause('createRfq: the sourcing service refused the token (HTTP 401)');
    await closeWorkerContext(setup);
    const w = await pipeline.spawnWorker({ ...pipelineEnvVars(e), LOG_LEVEL: 'info' });
    const said = () =>
      w
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    const atStart = await waitFor('the pause said at start', () =>
      said().find((l) => l.event === 'auth.paused-at-start'),
    );
    expect(atStart.level).toBe(50);
    expect(atStart.msg).toMatch(/^AUTH PAUSE in force since \d{4}-.*HTTP 401.*Checking the same token now/);
    await waitFor('the check made at start', () => said().find((l) => l.event === 'auth.still-paused'));
    pipeline.sandbox.setFaults({});
    await waitFor('resumed by itself', () => said().find((l) => l.event === 'auth.resumed'), 15_000);
    await w.kill('SIGTERM');
  });

  it('a rotated token file that cannot be used is an error in the log and in `status`, naming the position, never the token', async () => {
    const dir = tempDir('rfq-token-');
    dirs.push(dir);
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, pipeline.token);
    const { logger, lines } = capture();
    const e = env({ SOURCING_TOKEN_FILE: tokenFile });
    const c = await pipeline.context(e, logger);
    // rotated with a tab inside, after the 7th character
    const bad = `${pipeline.token.slice(0, 7)}\t${pipeline.token.slice(7)}`;
    writeFileSync(tokenFile, `${bad}\n`);
    const logged = await waitFor(
      'the error line',
      () => lines.find((l) => l.event === 'auth.token-file-unusable'),
      10_000,
    );
    expect(logged.level).toBe(50);
    const where = `a control character (U+0009) at character 8 of ${bad.length}`;
    expect(logged.msg).toContain(`SOURCING_TOKEN_FILE cannot be used: the token in ${tokenFile} holds ${where}`);
    expect(logged.msg).toContain('the last good token stays in use');
    for (const half of [pipeline.token.slice(0, 7), pipeline.token.slice(7)])
      expect(JSON.stringify(lines)).not.toContain(half);

    const report = await collectStatus(c);
    expect(report.tokenProblems).toHaveLength(1);
    expect(report.tokenProblems[0]).toMatchObject({ file: tokenFile });
    expect(report.tokenProblems[0]!.problem).toContain(where);
    // The command as IT runs it: it starts although the file is unusable (it needs no token), and says why.
    const words = (await cli(['status'], e)).out;
    expect(words).toContain(`TOKEN FILE UNUSABLE on `);
    expect(words).toContain(where);
    for (const half of [pipeline.token.slice(0, 7), pipeline.token.slice(7)]) expect(words).not.toContain(half);
    // The last good token is still used meanwhile.
    expect(c.tokens.get()).toBe(pipeline.token);

    writeFileSync(tokenFile, `${pipeline.token}\n`);
    await waitFor('usable again', async () => ((await c.authGate.status()).tokenProblems ?? []).length === 0, 10_000);
    expect(lines.some((l) => l.event === 'auth.token-file-usable')).toBe(true);
  });
});
