/**
 * `rfq-sync once` exit codes, spawned as the CLI: with --sandbox (the built-in sandbox and a private redis-server),
 * and its refusal to take real inbox files without SOURCING_BASE_URL.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startHttpReceiver } from '../helpers/notify.ts';
import { spawnCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

function inboxWith(files: Record<string, string | { copy: string }>): string {
  const dir = tempDir('rfq-ops-once-');
  mkdirSync(join(dir, 'inbox'));
  for (const [name, content] of Object.entries(files)) {
    if (typeof content === 'string') writeFileSync(join(dir, 'inbox', name), content);
    else copyFileSync(content.copy, join(dir, 'inbox', name));
  }
  return dir;
}

describe('rfq-sync once', () => {
  it('exits 0 when every file was read and every RFQ created', async () => {
    const dir = inboxWith({
      'generic-template.csv': { copy: resolve(import.meta.dirname, '../../samples/generic-template.csv') },
    });
    // A crash mid-rewrite of the overview left its temporary file in the outbox an hour ago: removed at start.
    const staleTemp = join(dir, 'outbox', '.overview.xlsx.0a1b2c3d.tmp');
    mkdirSync(join(dir, 'outbox'));
    writeFileSync(staleTemp, 'half an overview');
    utimesSync(staleTemp, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    const run = spawnCli(['once', '--sandbox'], { RFQ_SYNC_DIR: dir, HTTP_PORT: '0', FILE_STABLE_MS: '100' });
    const { code } = await run.exited;
    expect(code, run.output().slice(-2000)).toBe(0);
    expect(run.output()).toContain('once: all done');
    expect(existsSync(staleTemp)).toBe(false);
    expect(readdirSync(join(dir, 'archive'))).toHaveLength(1);
    expect(readdirSync(join(dir, 'outbox', 'reports'))).toHaveLength(1);
  });

  it('exits 1 and says why when a file could not be read; IT is told before it exits, the digest window open or not', async () => {
    const dir = inboxWith({ 'mystery-export.csv': 'foo;bar;baz\n1;2;3\n' });
    const hook = await startHttpReceiver();
    try {
      const run = spawnCli(['once', '--sandbox'], {
        RFQ_SYNC_DIR: dir,
        HTTP_PORT: '0',
        FILE_STABLE_MS: '100',
        NOTIFY_DIGEST_MS: '600000',
        NOTIFY_CHANNELS: JSON.stringify({ hook: { type: 'webhook', url: `${hook.url}/it` } }),
        NOTIFY_ROUTES: JSON.stringify({ it: { channel: 'hook', events: ['it'] } }),
      });
      const { code } = await run.exited;
      expect(code, run.output().slice(-2000)).toBe(1);
      expect(run.output()).toMatch(/file mystery-export\.csv refused/);
      expect(readdirSync(join(dir, 'failed'))).toHaveLength(1);
      expect(hook.requests).toHaveLength(1);
      expect((hook.requests[0]!.json as { subject: string }).subject).toMatch(
        /^\[rfq-sync\] mystery-export\.csv refused: /,
      );
    } finally {
      await hook.close();
    }
  });

  it.each([
    ['REDIS_URL set, SOURCING_BASE_URL unset', { REDIS_URL: 'redis://127.0.0.1:1' }],
    ['nothing set', {}],
  ])(
    '%s, no --sandbox: exits 2 naming SOURCING_BASE_URL and touches no file',
    async (_what, env: Record<string, string>) => {
      const dir = inboxWith({
        'generic-template.csv': { copy: resolve(import.meta.dirname, '../../samples/generic-template.csv') },
      });
      const run = spawnCli(['once'], { RFQ_SYNC_DIR: dir, HTTP_PORT: '0', FILE_STABLE_MS: '100', ...env });
      const { code } = await run.exited;
      expect(code, run.output()).toBe(2);
      expect(run.output()).toMatch(/SOURCING_BASE_URL: required for `once` \(nothing was touched/);
      expect(readdirSync(dir).sort()).toEqual(['inbox']);
      expect(readdirSync(join(dir, 'inbox'))).toEqual(['generic-template.csv']);
    },
  );

  it('exits 2 on bad configuration', async () => {
    const run = spawnCli(['once'], { POLL_CRON: 'every minute' });
    const { code } = await run.exited;
    expect(code).toBe(2);
    expect(run.output()).toContain('POLL_CRON: must be a cron expression');
  });
});
