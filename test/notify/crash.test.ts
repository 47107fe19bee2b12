/**
 * One message per event per route across crashes (docs/notifications.md#delivery): the send is recorded before and
 * after. A worker (the shipped `rfq-sync worker`) killed while its mail server has the whole message but has not
 * answered sends that message once more after the restart, as docs/operations.md and docs/notifications.md#delivery say, with the same Message-ID; a message
 * recorded as sent before the crash is not sent again. A real SMTP server in the test holds its answer.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { usePipeline } from '../helpers/pipeline.ts';
import { waitFor } from '../helpers/wait.ts';
import { watchCommands } from '../helpers/monitor.ts';
import { startSmtpCatcher, type SmtpCatcher } from '../helpers/notify.ts';

const pipeline = usePipeline({ tag: 'notify-crash' });
let smtp: SmtpCatcher | undefined;
afterEach(async () => {
  await smtp?.close();
  smtp = undefined;
});

describe('a worker killed while sending', () => {
  it(
    'sends the interrupted message once more (same Message-ID), and nothing already sent',
    { timeout: 60_000 },
    async () => {
      smtp = await startSmtpCatcher();
      const env = pipeline.workerEnv({
        FILE_STABLE_MS: '100',
        JOB_LOCK_MS: '1000',
        STALLED_CHECK_MS: '500',
        POLL_CRON: '0 0 1 1 *',
        NOTIFY_CHANNELS: JSON.stringify({
          mail: { type: 'smtp', host: '127.0.0.1', port: smtp.port, security: 'none', from: 'rfq-sync@example.com' },
        }),
        NOTIFY_ROUTES: JSON.stringify({
          it: { channel: 'mail', to: 'it@example.com', events: ['file-refused'], digest: 'immediate' },
        }),
      });
      const first = await pipeline.spawnWorker(env);
      writeFileSync(join(pipeline.data.inbox, 'first.csv'), 'Nothing,We,Know\n1,2,3\n');
      await smtp.waitFor(1);
      await waitFor('the first send recorded', () => first.output().includes('"event":"notify.sent"'));

      const held = smtp.holdNext();
      writeFileSync(join(pipeline.data.inbox, 'second.csv'), 'Nothing,We,Know\n4,5,6\n');
      await held.arrived; // the server has the whole message; its answer waits
      await first.kill('SIGKILL');
      held.release();

      const second = await pipeline.spawnWorker(env);
      await smtp.waitFor(3);
      await waitFor('the repeat recorded', () => second.output().includes('"event":"notify.sent"'));
      // two stalled checks of the notify queue more (each runs BullMQ's script on its stalled-check key): nothing
      // else goes out
      const checks = await watchCommands(pipeline.redisUrl, (args) =>
        args.some((a) => a.startsWith(pipeline.prefix) && a.endsWith(':notify:stalled-check')),
      );
      await waitFor('two stalled checks of the notify queue', () => checks.count() >= 2);
      checks.stop();
      const subjects = smtp.mails.map((m) => m.parsed.subject);
      expect(subjects).toEqual([
        expect.stringMatching(/^\[rfq-sync\] first\.csv refused: fits no mapping profile/),
        expect.stringMatching(/^\[rfq-sync\] second\.csv refused: fits no mapping profile/),
        expect.stringMatching(/^\[rfq-sync\] second\.csv refused: fits no mapping profile/),
      ]);
      const [, interrupted, repeat] = smtp.mails;
      expect(repeat!.parsed.messageId).toBe(interrupted!.parsed.messageId);
      expect(smtp.mails[0]!.parsed.messageId).not.toBe(repeat!.parsed.messageId);
      expect(second.output()).toContain('"event":"notify.repeat"');
      await second.kill('SIGTERM');
    },
  );
});
