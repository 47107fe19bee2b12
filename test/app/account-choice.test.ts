/**
 * The Redis-only commands (status, failed, ingest) as an administrator runs them: no sourcing token needed, the
 * account found in Redis when there is only one (and said), several accounts ask for --account, and `ingest FILE`
 * says when no worker of the account is running.
 */
import { copyFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closeWorkerContext } from '../../app/runtime/worker-context.ts';
import { freshPrefix } from '../helpers/redis.ts';
import { pipelineContext } from '../helpers/worker-env.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { spawnCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const pipeline = usePipeline();

async function workerRanFor(prefix: string, account: string): Promise<void> {
  const ctx = await pipelineContext({
    redisUrl: pipeline.redisUrl,
    baseUrl: pipeline.sandboxUrl,
    token: pipeline.token,
    prefix,
    account,
  });
  await closeWorkerContext(ctx);
}

describe('which account a Redis-only command acts on', () => {
  it('the only account in Redis is used and named; with two, --account is asked for and chooses', async () => {
    const prefix = freshPrefix();
    const env = { REDIS_URL: pipeline.redisUrl, REDIS_PREFIX: prefix };
    await workerRanFor(prefix, 'acme');
    const one = spawnCli(['status', '--json'], env);
    expect((await one.exited).code, one.output()).toBe(0);
    expect(one.output()).toContain('account acme (the only one in Redis');

    await workerRanFor(prefix, 'beta');
    const two = spawnCli(['status'], env);
    expect((await two.exited).code).toBe(2);
    expect(two.output()).toMatch(/several accounts \(acme, beta\): choose one with --account or SOURCING_ACCOUNT/);
    const chosen = spawnCli(['--account', 'beta', 'failed', 'list'], env);
    expect((await chosen.exited).code, chosen.output()).toBe(0);
    expect(chosen.output()).not.toMatch(/several accounts/);
  });

  it('status needs no sourcing token, even with SOURCING_BASE_URL set', async () => {
    const run = spawnCli(['status', '--json'], {
      REDIS_URL: pipeline.redisUrl,
      REDIS_PREFIX: freshPrefix(),
      SOURCING_BASE_URL: 'https://sourcing.example.com/esourcing',
    });
    expect((await run.exited).code, run.output()).toBe(0);
    expect(run.output()).not.toMatch(/SOURCING_TOKEN/);
  });

  it('ingest FILE says when no worker of the account is running', async () => {
    const dir = tempDir('rfq-ingest-noworker-');
    const file = join(dir, 'generic-template.csv');
    copyFileSync(resolve(import.meta.dirname, '../../samples/generic-template.csv'), file);
    const run = spawnCli(['ingest', file], {
      REDIS_URL: pipeline.redisUrl,
      REDIS_PREFIX: freshPrefix(),
      SOURCING_ACCOUNT: 'lonely',
      RFQ_SYNC_DIR: dir,
    });
    expect((await run.exited).code, run.output()).toBe(0);
    expect(run.output()).toMatch(/queued for ingestion/);
    expect(run.output()).toMatch(
      /no worker of account lonely is running: the file waits in .*processing until one starts/,
    );
  });
});
