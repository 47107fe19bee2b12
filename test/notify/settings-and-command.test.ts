/**
 * The notification settings as IT writes them in the YAML settings file (docs/notifications.md): a bad channel or
 * route is refused at start with one line per problem naming the setting (never a secret), and
 * `rfq-sync notify test ROUTE` sends one message through the route now: exit 0 when it went, 1 when the channel
 * failed (saying why), 2 for a route that does not exist.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadConfig } from '../../src/settings/config.ts';
import { ConfigError } from '../../src/core/errors.ts';
import { resolveNotifySettings } from '../../src/notify/notify-settings.ts';
import { spawnCli } from '../helpers/cli.ts';
import { localhostTls, secretFile, startSmtpCatcher } from '../helpers/notify.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('rfq-notify-settings-');

function problemsOf(settings: Record<string, unknown>): string[] {
  const file = join(dir, `cfg-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, stringify(settings));
  try {
    resolveNotifySettings(loadConfig({ RFQ_SYNC_CONFIG: file, RFQ_SYNC_DIR: dir }));
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return [...err.problems];
    throw err;
  }
}

describe('notification settings', () => {
  it('one line per problem, naming the setting, never echoing a secret', () => {
    const problems = problemsOf({
      NOTIFY_CHANNELS: {
        mail: {
          type: 'smtp',
          host: 'mail.example.com',
          user: 'rfq',
          password: 'very-secret-pw',
          security: 'none',
          from: 'a@b.c',
        },
        pager: { type: 'pager', url: 'https://x' },
        teams: { type: 'teams', url_file: join(dir, 'missing-url') },
        hook: { type: 'webhook', url: 'ftp://nope' },
        slack: { type: 'slack', url: 'https://hooks.example.com/x', timeout_ms: 10 },
        tickets: { type: 'webhook', url: 'https://tickets.example.com/hook' },
      },
      NOTIFY_ROUTES: {
        it: { channel: 'mail', events: ['it', 'file-exploded'] },
        buyers: { channel: 'slack', to: 'buyer@example.com', events: ['procurement'] },
        lost: { channel: 'nowhere', events: ['all'] },
        tickets: { channel: 'tickets', to: 'x@example.com', events: ['it'] },
      },
    });
    expect(problems).toEqual([
      'NOTIFY_CHANNELS.mail.security: none would send the password unencrypted: use starttls or tls (none only without AUTH or on loopback)',
      'NOTIFY_CHANNELS.pager.type: pager is not a channel kind (smtp, teams, slack, webhook)',
      `NOTIFY_CHANNELS.teams.url_file: cannot read ${join(dir, 'missing-url')}: ENOENT`,
      'NOTIFY_CHANNELS.hook.url: must be a URL starting with http:// or https://',
      'NOTIFY_CHANNELS.slack.timeout_ms: must be at least 100',
      'NOTIFY_ROUTES.it.events: file-exploded is not an event (procurement, it, all, comparison-ready, award-final, supplier-response-low, file-refused, file-held, requisition-held, requisition-decision, token-refused, service-unreachable, redis-state-lost, poll-stuck, audit-unwritable, channel-failing, erp-vendor-missing)',
      'NOTIFY_ROUTES.lost.channel: nowhere is not a channel of NOTIFY_CHANNELS',
      'NOTIFY_ROUTES.tickets.to: only for e-mail channels (tickets is a webhook channel)',
    ]);
    expect(problems.join('\n')).not.toContain('very-secret-pw');
    // the shape itself is checked with the rest, where notifications are used (reading the configuration leaves it
    // to them: the commands that send nothing go on, test/notify/settings-split.test.ts)
    const resolved = (env: Record<string, string>) => () =>
      resolveNotifySettings(loadConfig({ RFQ_SYNC_DIR: dir, ...env }));
    expect(resolved({ NOTIFY_ROUTES: '{it: {channel: mail, events: [it], to: not-an-address}}' })).toThrow(
      /NOTIFY_ROUTES\.it\.to\.0: is not an e-mail address/,
    );
    expect(resolved({ NOTIFY_CHANNELS: '{broken' })).toThrow(/NOTIFY_CHANNELS: is not a YAML or JSON mapping/);
  });

  it('routes expand procurement and it; an e-mail route needs its recipients', () => {
    const file = join(dir, 'ok.yaml');
    writeFileSync(
      file,
      stringify({
        NOTIFY_CHANNELS: { mail: { type: 'smtp', host: 'localhost', from: 'a@b.c' } },
        NOTIFY_ROUTES: {
          p: { channel: 'mail', to: ['buyer@example.com'], events: ['procurement'], locations: ['Plant 1'] },
        },
      }),
    );
    const s = resolveNotifySettings(loadConfig({ RFQ_SYNC_CONFIG: file, RFQ_SYNC_DIR: dir }));
    // erp-vendor-missing is for procurement and IT both: in either group
    expect([...s.routes.get('p')!.events]).toEqual([
      'comparison-ready',
      'award-final',
      'supplier-response-low',
      'erp-vendor-missing',
    ]);
    expect(
      problemsOf({
        NOTIFY_CHANNELS: { m: { type: 'smtp', host: 'h', from: 'a@b.c' } },
        NOTIFY_ROUTES: { r: { channel: 'm', events: ['it'] } },
      }),
    ).toEqual(['NOTIFY_ROUTES.r.to: required: the e-mail addresses this route sends to']);
  });
});

describe('rfq-sync notify test ROUTE', () => {
  it('sends one test message over STARTTLS with AUTH (exit 0); a refusing server: exit 1 and why; no such route: exit 2', async () => {
    const smtp = await startSmtpCatcher({ users: { it: 'cmd-secret-pw' } });
    try {
      const cfg = join(dir, 'cmd.yaml');
      writeFileSync(
        cfg,
        stringify({
          NOTIFY_CHANNELS: {
            mail: {
              type: 'smtp',
              host: 'localhost',
              port: smtp.port,
              user: 'it',
              password_file: secretFile(dir, 'cmd-pw', 'cmd-secret-pw'),
              from: 'rfq-sync@example.com',
              ca_file: localhostTls().certFile,
            },
          },
          NOTIFY_ROUTES: { it: { channel: 'mail', to: ['it@example.com'], events: ['it'] } },
        }),
      );
      const env = { RFQ_SYNC_CONFIG: cfg, RFQ_SYNC_DIR: dir };
      const ok = spawnCli(['notify', 'test', 'it'], env);
      expect((await ok.exited).code, ok.output()).toBe(0);
      expect(ok.output()).toContain('sent a test message through route it (smtp channel mail) to it@example.com');
      expect(smtp.mails).toHaveLength(1);
      expect(smtp.mails[0]!.secure).toBe(true);
      expect(smtp.mails[0]!.parsed.subject).toBe('[rfq-sync] test message of route it: notifications reach you');

      smtp.refuse('relay denied');
      const failing = spawnCli(['notify', 'test', 'it'], env);
      expect((await failing.exited).code).toBe(1);
      expect(failing.output()).toMatch(/channel mail: the mail server did not take the message \(SMTP 451\)/);
      expect(failing.output()).not.toContain('cmd-secret-pw');

      const missing = spawnCli(['notify', 'test', 'nope'], env);
      expect((await missing.exited).code).toBe(2);
      expect(missing.output()).toContain('notify test nope: no such route in NOTIFY_ROUTES (routes: it)');
    } finally {
      await smtp.close();
    }
  });
});
