/**
 * The webhook channels (docs/notifications.md#channels) against a local HTTP receiver: Microsoft Teams (an Adaptive
 * Card), Slack (mrkdwn text), the generic JSON webhook (the events with their data, an idempotency key, an
 * Authorization header from a file). Each keeps to its time-out and size cap, follows no redirect, and never names
 * its URL (a secret) in an error. The channels are driven directly, as the notify job drives them.
 */
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/logger.ts';
import type { Channel } from '../../src/notify/channel.ts';
import { composeMessage } from '../../src/notify/compose.ts';
import type { NotifyEvent } from '../../src/notify/event-kind.ts';
import { comparisonReady, fileRefused } from '../../src/notify/events/index.ts';
import { CHANNEL_KINDS } from '../../src/notify/notify-settings.ts';
import { secretFile, startHttpReceiver, type HttpReceiver } from '../helpers/notify.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const OUTBOX = '/srv/rfq-sync/outbox';
const SECRET_PATH = '/hooks/T0001/B0002/s3cr3t-webhook-part';
let hook: HttpReceiver;
let dir: string;
const open: Channel[] = [];
beforeAll(async () => {
  hook = await startHttpReceiver();
  dir = tempDir('rfq-notify-hooks-');
});
afterEach(async () => {
  hook.requests.splice(0);
  hook.answer({});
  for (const c of open.splice(0)) await c.close();
});
afterAll(async () => {
  await hook.close();
});

/** A loopback port nobody listens on. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as { port: number };
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

function channel(type: string, options: Record<string, unknown>): Channel {
  const kind = CHANNEL_KINDS.get(type)!;
  const c = kind.create(kind.options.parse(options), { name: `${type}-test`, logger: silentLogger });
  open.push(c);
  return c;
}

function refused(i: number, file = `export-${i}.csv`): NotifyEvent {
  return fileRefused.event({
    file,
    take: `20270101T000000Z-00000${i}_${file}`,
    reason: 'fits no mapping profile',
    failed: `/srv/rfq-sync/failed/x-${i}.csv`,
    report: `${OUTBOX}/reports/${file}.xlsx`,
  });
}

const ready = comparisonReady.event({
  rfqId: 7,
  rfqNo: '2027-7',
  title: 'Pumps',
  version: 1,
  state: 'closed',
  quotations: 3,
  workbook: `${OUTBOX}/comparisons/RFQ-2027-7-7-Pumps-v1.xlsx`,
  bestTotal: '1234.50',
  currency: 'EUR',
  final: false,
  location: 'Plant 1',
});

const compose = (events: NotifyEvent[]) =>
  composeMessage(events, {
    id: 'route-x~w1790000000000',
    route: 'route-x',
    account: 'acct',
    outbox: OUTBOX,
    shownAs: '\\\\files\\rfq-sync\\outbox',
    attachMaxBytes: 0,
  });

describe('webhook channels', () => {
  it('Teams: an Adaptive Card with the subject, a fact set per event, paths as people reach the outbox', async () => {
    hook.answer({ status: 202 });
    await channel('teams', { url: `${hook.url}/teams` }).send(await compose([ready, refused(1)]), undefined);
    const [req] = hook.requests;
    expect(req!.headers['content-type']).toMatch(/^application\/json/);
    const body = req!.json as {
      type: string;
      attachments: Array<{ contentType: string; content: { type: string; body: Array<Record<string, unknown>> } }>;
    };
    expect(body.type).toBe('message');
    expect(body.attachments[0]!.contentType).toBe('application/vnd.microsoft.card.adaptive');
    const card = body.attachments[0]!.content;
    expect(card.type).toBe('AdaptiveCard');
    expect(card.body[0]!.text).toBe('[rfq-sync] 2 events: 1 comparison ready, 1 file refused');
    const facts = card.body
      .filter((b) => b.type === 'FactSet')
      .flatMap((b) => b.facts as Array<{ title: string; value: string }>);
    expect(facts).toContainEqual({
      title: 'Workbook',
      value: '\\\\files\\rfq-sync\\outbox\\comparisons\\RFQ-2027-7-7-Pumps-v1.xlsx',
    });
    expect(facts).toContainEqual({ title: 'Best total', value: '1234.50 EUR' });
  });

  it('Slack: the subject in bold, the text with <, > and & escaped', async () => {
    await channel('slack', { url: `${hook.url}/slack` }).send(await compose([refused(1, '<b>&x.csv')]), undefined);
    const body = hook.requests[0]!.json as { text: string };
    expect(body.text.startsWith('*[rfq-sync] &lt;b&gt;&amp;x.csv refused: fits no mapping profile*\n')).toBe(true);
    expect(body.text).not.toContain('<b>');
  });

  it('generic webhook: the events with their data, an idempotency key, the Authorization header and URL from files', async () => {
    const c = channel('webhook', {
      url_file: secretFile(dir, 'hook-url', `${hook.url}${SECRET_PATH}`),
      authorization_file: secretFile(dir, 'hook-auth', 'Bearer hook-secret-token'),
    });
    await c.send(await compose([refused(1), refused(2)]), undefined);
    const [req] = hook.requests;
    expect(req!.path).toBe(SECRET_PATH);
    expect(req!.headers.authorization).toBe('Bearer hook-secret-token');
    expect(req!.headers['idempotency-key']).toBe('route-x~w1790000000000');
    const body = req!.json as Record<string, unknown> & { events: Array<Record<string, unknown>> };
    expect(body).toMatchObject({ id: 'route-x~w1790000000000', source: 'rfq-sync', account: 'acct', total: 2 });
    expect(body.subject).toBe('[rfq-sync] 2 files refused');
    expect(body.events.map((e) => [e.kind, (e.data as { file: string }).file])).toEqual([
      ['file-refused', 'export-1.csv'],
      ['file-refused', 'export-2.csv'],
    ]);
    expect(String(body.text)).toContain('export-2.csv refused: fits no mapping profile');
  });

  it('each kind keeps to its size cap: fewer events listed, the count whole', async () => {
    const many = Array.from({ length: 300 }, (_, i) => refused(i));
    const message = await compose(many);
    for (const type of ['teams', 'slack', 'webhook'])
      await channel(type, { url: `${hook.url}/${type}`, max_bytes: 4096 }).send(message, undefined);
    expect(hook.requests).toHaveLength(3);
    for (const r of hook.requests) expect(Buffer.byteLength(r.body)).toBeLessThanOrEqual(4096);
    const generic = hook.requests[2]!.json as { total: number; events: unknown[]; omitted: number };
    expect(generic.total).toBe(300);
    expect(generic.events.length).toBeGreaterThan(0);
    expect(generic.events.length + generic.omitted).toBe(300);
    expect((hook.requests[1]!.json as { text: string }).text).toMatch(/\.\.\. and 29\d more/);
  });

  it('a failing receiver: its status, its time-out, no redirect followed, and never the URL in the error', async () => {
    const url = `${hook.url}${SECRET_PATH}`;
    const message = await compose([refused(1)]);
    hook.answer({ status: 500, body: 'upstream broke' });
    await expect(channel('webhook', { url }).send(message, undefined)).rejects.toThrow(
      /^channel webhook-test: the webhook answered HTTP 500: upstream broke$/,
    );
    hook.answer({ status: 302, location: 'http://127.0.0.1:9/elsewhere' });
    await expect(channel('slack', { url }).send(message, undefined)).rejects.toThrow(
      /HTTP 302 \(a redirect: not followed\)/,
    );
    hook.answer({ delayMs: 3_000 });
    const t0 = Date.now();
    const err = await channel('teams', { url, timeout_ms: 300 })
      .send(message, undefined)
      .then(
        () => undefined,
        (e: Error) => e,
      );
    expect(err?.message).toMatch(/no answer within 300 ms/);
    expect(Date.now() - t0).toBeLessThan(2_000);
    hook.answer({});
    await expect(
      channel('webhook', { url: `http://127.0.0.1:${await closedPort()}/x` }).send(message, undefined),
    ).rejects.toThrow(/could not be reached: ECONNREFUSED/);
    expect(hook.requests.map((r) => r.path)).toEqual([SECRET_PATH, SECRET_PATH, SECRET_PATH]);
    for (const e of [err!]) expect(e.message).not.toContain('s3cr3t');
  });
});
