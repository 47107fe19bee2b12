/**
 * Bad notification settings are refused where notifications are sent, and only there (docs/notifications.md#channels):
 * `status`, `failed list` and `ingest` run with one warning line naming the problem, so an operator fixing a typo in
 * a route keeps the commands that show what is wrong; the worker, `notify test` and `doctor` still refuse them (exit 2). Each
 * of the four errors that used to take the diagnostics away, written in the YAML settings file as IT writes it. Real
 * Redis, the real command line.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { freshPrefix } from '../helpers/redis.ts';
import { usePipeline } from '../helpers/pipeline.ts';
import { spawnCli } from '../helpers/cli.ts';

const pipeline = usePipeline({ sandbox: false, tag: 'notify-split' });

type Settings = {
  NOTIFY_CHANNELS: Record<string, object>;
  NOTIFY_ROUTES: Record<string, object>;
  [k: string]: unknown;
};

const good = (): Settings => ({
  NOTIFY_CHANNELS: {
    mail: { type: 'smtp', host: 'mail.example.com', from: 'rfq-sync@example.com' },
    hook: { type: 'webhook', url: 'https://hooks.example.com/it' },
  },
  NOTIFY_ROUTES: {
    buyers: { channel: 'mail', to: ['buyer@example.com'], events: ['procurement'] },
    it: { channel: 'hook', events: ['it'] },
  },
});

const CASES: Array<{ what: string; spoil(s: Settings): void; problem: RegExp }> = [
  {
    what: 'to: buyer.example.com',
    spoil: (s) => void (s.NOTIFY_ROUTES.buyers = { ...s.NOTIFY_ROUTES.buyers, to: 'buyer.example.com' }),
    problem: /NOTIFY_ROUTES\.buyers\.to\.0: is not an e-mail address/,
  },
  {
    what: 'digest: hourly',
    spoil: (s) => void (s.NOTIFY_ROUTES.it = { ...s.NOTIFY_ROUTES.it, digest: 'hourly' }),
    problem: /NOTIFY_ROUTES\.it\.digest: /,
  },
  {
    what: 'event: for events:',
    spoil: (s) => void (s.NOTIFY_ROUTES.it = { channel: 'hook', event: ['it'] }),
    problem: /NOTIFY_ROUTES\.it(\.events)?: .*\bevent/,
  },
  {
    what: 'a channel with no type',
    spoil: (s) => void (s.NOTIFY_CHANNELS.hook = { url: 'https://hooks.example.com/it' }),
    problem: /NOTIFY_CHANNELS\.hook\.type: required/,
  },
  {
    // the same split for the other notification settings: status never reads them either
    what: 'NOTIFY_DIGEST_MS: soon',
    spoil: (s) => void (s.NOTIFY_DIGEST_MS = 'soon'),
    problem: /NOTIFY_DIGEST_MS: must be a whole number/,
  },
];

describe('bad notification settings', () => {
  for (const c of CASES)
    it(`${c.what}: status, failed list and ingest warn in one line and work; the worker, notify test and doctor refuse`, async () => {
      const dir = pipeline.data.root;
      const settings = good();
      c.spoil(settings);
      const cfg = join(dir, 'settings.yaml');
      writeFileSync(cfg, stringify(settings));
      const file = join(dir, 'generic-template.csv');
      copyFileSync(resolve(import.meta.dirname, '../../samples/generic-template.csv'), file);
      const env = {
        RFQ_SYNC_CONFIG: cfg,
        RFQ_SYNC_DIR: dir,
        REDIS_URL: pipeline.redisUrl,
        REDIS_PREFIX: freshPrefix(),
        SOURCING_ACCOUNT: 'split',
      };
      const runs = {
        status: spawnCli(['status'], env),
        failed: spawnCli(['failed', 'list'], env),
        ingest: spawnCli(['ingest', file], env),
        worker: spawnCli(['worker'], {
          ...env,
          SOURCING_BASE_URL: 'http://127.0.0.1:9',
          SOURCING_TOKEN: 'unused',
          HTTP_PORT: '0',
        }),
        notifyTest: spawnCli(['notify', 'test', 'it'], env),
        doctor: spawnCli(['doctor'], { ...env, SOURCING_BASE_URL: 'http://127.0.0.1:9', SOURCING_TOKEN: 'unused' }),
      };
      const codes = Object.fromEntries(
        await Promise.all(Object.entries(runs).map(async ([k, r]) => [k, (await r.exited).code] as const)),
      );
      const out = (k: keyof typeof runs) => runs[k].output();
      expect(
        codes,
        JSON.stringify(Object.fromEntries(Object.keys(runs).map((k) => [k, out(k as keyof typeof runs)]))),
      ).toEqual({
        status: 0,
        failed: 0,
        ingest: 0,
        worker: 2,
        notifyTest: 2,
        doctor: 2,
      });
      for (const k of ['status', 'failed', 'ingest'] as const) {
        const warnings = out(k)
          .split('\n')
          .filter((l) => /warning/i.test(l));
        expect(warnings, out(k)).toHaveLength(1);
        expect(warnings[0]).toMatch(c.problem);
        expect(warnings[0]).toMatch(
          /^rfq-sync: warning: notification settings ignored by `(status|failed list|ingest)`/,
        );
      }
      expect(out('status')).toMatch(/Queues +waiting/);
      expect(out('failed')).toContain('no failed jobs');
      expect(out('ingest')).toContain('queued for ingestion');
      expect(out('worker')).toMatch(c.problem);
      expect(out('notifyTest')).toMatch(c.problem);
      expect(out('doctor')).toMatch(c.problem);
    });
});

describe('a route naming a channel that does not exist', () => {
  it('resolve and recover warn in one line and run (resolve used to exit 2)', async () => {
    const env = {
      RFQ_SYNC_DIR: pipeline.data.root,
      REDIS_URL: pipeline.redisUrl,
      REDIS_PREFIX: freshPrefix(),
      SOURCING_ACCOUNT: 'split',
      SOURCING_BASE_URL: 'http://127.0.0.1:9',
      SOURCING_TOKEN: 'unused',
      NOTIFY_CHANNELS: JSON.stringify({ hook: { type: 'webhook', url: 'https://hooks.example.com/it' } }),
      NOTIFY_ROUTES: JSON.stringify({ it: { channel: 'nowhere', events: ['it'] } }),
    };
    const resolveRun = spawnCli(['resolve', 'generic/PR-1', '--post'], env);
    const recoverRun = spawnCli(['recover', '--since', '2026-11-24'], env);
    expect((await resolveRun.exited).code, resolveRun.output()).toBe(1);
    expect(resolveRun.output()).toContain('generic/PR-1: not waiting for a decision');
    expect((await recoverRun.exited).code, recoverRun.output()).toBe(0);
    expect(recoverRun.output()).toMatch(
      /recover: 0 requisition\(s\) re-seeded from the audit log, 0 queued to reconcile/,
    );
    for (const run of [resolveRun, recoverRun])
      expect(run.output().match(/^rfq-sync: warning: .*$/gm)).toEqual([
        expect.stringMatching(/NOTIFY_ROUTES\.it\.channel: nowhere is not a channel of NOTIFY_CHANNELS$/),
      ]);
  });
});
