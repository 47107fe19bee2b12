/**
 * What IT is told (docs/notifications.md#events), each from where it happens: requisitions held back by a file's
 * invalid lines (ingest), a requisition parked for a decision (create-rfq), the token refused (the auth gate), Redis
 * losing its state (the state epoch), the polls failing for longer than NOTIFY_UNREACHABLE_MS and none finishing for
 * longer than NOTIFY_POLL_STUCK_MS (the poll history). Real Redis, the sandbox, the project's ingest, create-rfq and
 * notify jobs, a local webhook receiver on an `it` route.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkPollHealth } from '../../app/runtime/notify-watch.ts';
import { creatorDeps, enqueueCreateRfq } from '../../jobs/create-rfq.ts';
import { startWorker, type RunningWorker } from '../../jobs/worker.ts';
import { postedBodyOf } from '../../src/creation/fingerprint.ts';
import { contentHashOf } from '../../src/creation/rfq-creator.ts';
import { ingestOneFile } from '../../src/intake/inbox-intake.ts';
import { requisitionId } from '../../src/redis/redis-keys.ts';
import { recordPoll } from '../../src/tracking/poll/poll-history.ts';
import { emptyPollResult } from '../../src/tracking/poll/poll-result.ts';
import { GENERIC_HEADER } from '../helpers/generic-template.ts';
import { genericRows, makeRequisitions } from '../helpers/fixtures.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { waitForQueue } from '../helpers/job-counts.ts';
import { notifyContext, startHttpReceiver, type HttpReceiver } from '../helpers/notify.ts';
import { LEGACY_PROFILE_BROKEN } from '../helpers/profiles.ts';
import { trackingStore } from '../../src/rfqs/store.ts';
import { toCreateRfqRequest } from '../../src/requisitions/index.ts';

const pipeline = usePipeline({ tag: 'it-events' });
let hook: HttpReceiver | undefined;
let worker: RunningWorker | undefined;
afterEach(async () => {
  await worker?.close(2_000);
  await hook?.close();
  worker = hook = undefined;
});

type Told = { events: Array<{ kind: string; title: string; data: Record<string, unknown> }> };

describe('IT events', () => {
  it('held requisitions, a decision needed, the token refused, Redis state lost, polls failing and stuck: one message each', async () => {
    hook = await startHttpReceiver();
    const ctx = await notifyContext(pipeline, {
      NOTIFY_UNREACHABLE_MS: '2000',
      NOTIFY_POLL_STUCK_MS: '60000',
      NOTIFY_CHANNELS: JSON.stringify({ hook: { type: 'webhook', url: `${hook.url}/it` } }),
      NOTIFY_ROUTES: JSON.stringify({ it: { channel: 'hook', events: ['it'], digest: 'immediate' } }),
    });
    worker = startWorker(ctx, { queues: ['ingest', 'createRfq', 'notify'], drainDelaySeconds: 1 });
    const told = async (n: number) => (await hook!.waitFor(n)).map((r) => (r.json as Told).events[0]!);

    // a file with one invalid line: its requisition is held back, the other queued
    const csv = join(pipeline.data.jail, 'mixed.csv');
    writeFileSync(
      csv,
      `${GENERIC_HEADER}\n${genericRows('PR-1', 1)}${genericRows('PR-2', 1).replace(',2,100,', ',two,100,')}`,
    );
    await ingestOneFile(ctx, csv);
    const [held] = await told(1);
    expect(held!.kind).toBe('requisition-held');
    expect(held!.title).toBe('mixed.csv: 1 requisition held back, 1 row rejected');
    expect(held!.data).toMatchObject({ profile: 'generic', held: 1, queued: 1 });

    // a requisition parked after an ambiguous reconcile: its create job tells IT
    const [r] = makeRequisitions(1, 'park');
    const deps = creatorDeps(ctx);
    const body = postedBodyOf(toCreateRfqRequest(r!));
    const claim = await deps.store.claim(
      r!,
      'tok',
      contentHashOf(r!),
      60_000,
      { limiter: deps.limiter, postLeaseMs: 60_000 },
      body,
    );
    // set-up: no permit free at that moment (the other requisition's create, the dialect's reads first): the post
    // begins as a job's does once it has its permit (park takes only a requisition being created; failed under load)
    if (claim.status === 'claimed' && !claim.posting)
      await deps.store.beginPost(requisitionId(r!), 'tok', 60_000, body);
    expect(await deps.store.park(requisitionId(r!), 'tok', 'two RFQs carry its fingerprint')).toBe(true);
    await enqueueCreateRfq(ctx.queues, r!);
    const [, decision] = await told(2);
    expect(decision!.kind).toBe('requisition-decision');
    expect(decision!.title).toBe(`requisition ${requisitionId(r!)} needs a decision: two RFQs carry its fingerprint`);

    // every poll failing for longer than NOTIFY_UNREACHABLE_MS (seen by any worker, told once)
    const store = trackingStore(ctx);
    const t = Date.now();
    for (const ago of [9_000, 6_000, 3_000])
      await recordPoll(ctx, store, {
        ...emptyPollResult(`s${ago}`, t - ago),
        finishedAt: t - ago + 500,
        error: 'listRfqs: connect ECONNREFUSED',
      });
    await checkPollHealth(ctx, t - 10_000);
    await checkPollHealth(ctx, t - 10_000);
    const [, , down] = await told(3);
    expect(down!.kind).toBe('service-unreachable');
    expect(down!.data).toMatchObject({ since: t - 9_000, failedPolls: 3, lastError: 'listRfqs: connect ECONNREFUSED' });
    // no poll finished for longer than NOTIFY_POLL_STUCK_MS
    await checkPollHealth(ctx, t - 10_000, t + 61_000);
    const [, , , stuck] = await told(4);
    expect(stuck!.kind).toBe('poll-stuck');
    expect(stuck!.data).toMatchObject({ lastPollAt: t - 2_500 });

    // the token refused: creation and polling pause, IT is told once
    await ctx.authGate.pause('createRfq: the sourcing service refused the token (HTTP 401)');
    await ctx.authGate.pause('listRfqs: the sourcing service refused the token (HTTP 401)');
    const [, , , , token] = await told(5);
    expect(token!.kind).toBe('token-refused');
    expect(token!.title).toMatch(/^the sourcing service refused the token: creation and polling are paused/);
    await ctx.authGate.resume('test');

    // Redis lost its state (the epoch marker of the data folder is not in Redis)
    expect(await ctx.state.check()).toBe('ok');
    await ctx.redis.del(ctx.keys.key('epoch'));
    expect(await ctx.state.check()).toBe('lost');
    const [, , , , , lost] = await told(6);
    expect(lost!.kind).toBe('redis-state-lost');
    // nothing more: every job that could tell IT has run
    await waitForQueue([ctx.queues.ingest, ctx.queues.createRfq, ctx.queues.notify]);
    expect(hook.requests).toHaveLength(6);
  });

  it('a file held in the inbox for a broken mapping profile: one message naming the profile and why', async () => {
    hook = await startHttpReceiver();
    const mappings = join(pipeline.data.jail, 'mappings');
    mkdirSync(mappings);
    writeFileSync(join(mappings, 'legacy.yaml'), LEGACY_PROFILE_BROKEN);
    const ctx = await notifyContext(pipeline, {
      MAPPINGS_DIR: mappings,
      NOTIFY_CHANNELS: JSON.stringify({ hook: { type: 'webhook', url: `${hook.url}/it` } }),
      NOTIFY_ROUTES: JSON.stringify({ it: { channel: 'hook', events: ['it'], digest: 'immediate' } }),
    });
    worker = startWorker(ctx, { queues: ['ingest', 'notify'], drainDelaySeconds: 1 });
    const csv = join(pipeline.data.jail, 'legacy-1.csv');
    writeFileSync(csv, 'PR,Pos,Item,Qty,Unit,Group\nL-1,1,Bearing,4,pc,Spares\n');
    await ingestOneFile(ctx, csv);
    const [held] = (await hook.waitFor(1)).map((r) => (r.json as Told).events[0]!);
    expect(held!.kind).toBe('file-held');
    expect(held!.title).toBe('legacy-1.csv held in the inbox: its mapping profile is broken');
    expect((held!.data.profiles as string[])[0]).toMatch(
      /^legacy: mapping profile .*legacy\.yaml: field fields\.external_id/,
    );
    expect(readdirSync(pipeline.data.inbox)).toEqual(['legacy-1.csv']);
  });
});
