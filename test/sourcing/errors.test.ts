/**
 * Every error class the client raises, provoked over real HTTP (sandbox faults, or a hand-written service for
 * answers the sandbox never gives), and the promise that the bearer token appears in no error and no log line.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  AuthError,
  InvalidResponseError,
  MAX_ERROR_BODY_CHARS,
  PermanentHttpError,
  RateLimitError,
  RfqSyncError,
  TransientHttpError,
} from '../../src/core/errors.ts';
import {
  createSourcingClient,
  type SourcingClient,
  type SourcingClientOptions,
} from '../../src/sourcing/client/http-client.ts';
import type { CreateRfqRequest, ListedRfq } from '../../src/sourcing/types.ts';
import { useSandbox } from '../helpers/sandbox.ts';
import { captureLogs, json, startFakeService, type FakeService } from './fake-service.ts';

const TOKEN = 'tok-Very-Secret-7f3a9c';
const env = useSandbox({
  accounts: { [TOKEN]: 'Gamma Retail', 'tok-suspended-0003': 'Delta Ltd' },
  disabledTokens: ['tok-suspended-0003'],
});
const logs = captureLogs();
const errorsSeen: unknown[] = [];

const clients: SourcingClient[] = [];
function client(o: Partial<SourcingClientOptions> = {}): SourcingClient {
  const c = createSourcingClient({
    baseUrl: env.url,
    getToken: () => TOKEN,
    baseBackoffMs: 10,
    logger: logs.logger,
    ...o,
  });
  clients.push(c);
  return c;
}
afterEach(async () => {
  env.sandbox.setFaults({});
  env.sandbox.resetStats();
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
afterAll(() => {
  // The promise the user relies on: the credential is in no error message and no log line.
  expect(errorsSeen.length).toBeGreaterThan(10);
  for (const e of errorsSeen) {
    expect(String((e as Error).message)).not.toContain(TOKEN);
    expect(JSON.stringify(e, Object.getOwnPropertyNames(e))).not.toContain(TOKEN);
  }
  expect(logs.text()).not.toContain(TOKEN);
  expect(logs.text()).not.toMatch(/Bearer\s+tok-/);
});

async function failure(p: Promise<unknown> | (() => Promise<unknown>)): Promise<RfqSyncError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    errorsSeen.push(e);
    return e as RfqSyncError;
  }
  throw new Error('expected a failure');
}

async function drain(it: AsyncIterable<unknown>): Promise<number> {
  let n = 0;
  for await (const _ of it) n++;
  return n;
}

const body: CreateRfqRequest = {
  title: 'PR-9 cleaning',
  due_date: '1893456000000',
  rfq_type: 'Private',
  lines: [{ product_name: 'Mop', qty: 4, estimated_price: 40, external_id: 'cl-1' }],
};

const calls = (op: string, status?: string) => {
  const s = env.sandbox.stats().calls[op] ?? {};
  return status === undefined ? Object.values(s).reduce((a, b) => a + b, 0) : (s[status] ?? 0);
};

describe('auth', () => {
  it('401 for an unknown token: AuthError, not retried, token not in the message', async () => {
    const err = await failure(drain(client({ getToken: () => `${TOKEN}-wrong` }).listRfqs('open')));
    expect(err).toBeInstanceOf(AuthError);
    expect((err as AuthError).status).toBe(401);
    expect(err.kind).toBe('auth');
    expect(calls('listRfqs')).toBe(1);
    expect(err.message).not.toContain(`${TOKEN}-wrong`);
  });

  it('403 for a suspended account: AuthError', async () => {
    const err = await failure(client({ getToken: () => 'tok-suspended-0003' }).createRfq(body));
    expect(err).toBeInstanceOf(AuthError);
    expect((err as AuthError).status).toBe(403);
  });

  it('a token replaced between calls is picked up (getToken per request)', async () => {
    let token = 'tok-old-revoked';
    const c = client({ getToken: () => token });
    expect(await failure(drain(c.listRfqs('open')))).toBeInstanceOf(AuthError);
    token = TOKEN;
    expect(await drain(c.listRfqs('open'))).toBeGreaterThanOrEqual(0);
  });
});

describe('rate limiting (429)', () => {
  it('a GET waits the Retry-After the service asks for, then succeeds', async () => {
    env.sandbox.setFaults({ rateLimit: { burst: 2, retryAfterSeconds: 1 } });
    const started = performance.now();
    await drain(client().listRfqs('open'));
    const elapsed = performance.now() - started;
    expect(calls('listRfqs', '429')).toBe(2);
    expect(calls('listRfqs', '200')).toBe(1);
    // two waits of 1 s each, honoured (measured), not back-off of a few ms
    expect(elapsed).toBeGreaterThanOrEqual(1950);
    expect(elapsed).toBeLessThan(4000);
  });

  it('a Retry-After beyond the cap is not slept: RateLimitError carries it so the job is rescheduled', async () => {
    env.sandbox.setFaults({ rateLimit: { burst: 5, retryAfterSeconds: 120 } });
    const started = performance.now();
    const err = await failure(drain(client({ retryAfterCapMs: 30_000 }).listRfqs('open')));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfterMs).toBe(120_000);
    expect(err.retryable).toBe(true);
    expect(calls('listRfqs')).toBe(1);
  });

  it('a POST answered 429 is not retried', async () => {
    env.sandbox.setFaults({ rateLimit: { burst: 1, retryAfterSeconds: 1 } });
    const err = await failure(client().createRfq(body));
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfterMs).toBe(1000);
    expect(calls('createRfq')).toBe(1);
    expect(env.sandbox.stats().rfqsCreated).toBe(0);
  });
});

describe('5xx, resets and time-outs', () => {
  it('a GET is retried on 5xx and succeeds once the service recovers', async () => {
    env.sandbox.setFaults({ down: true });
    let seen = 0;
    const c = client({
      onCall: () => {
        if (++seen === 2) env.sandbox.setFaults({}); // recovers after the second failure
      },
    });
    await drain(c.listRfqs('open'));
    expect(calls('listRfqs', '503')).toBe(2);
    expect(calls('listRfqs', '200')).toBe(1);
    expect(logs.text()).toContain('sourcing call failed, retrying');
  });

  it('a GET gives up after its retries with TransientHttpError', async () => {
    env.sandbox.setFaults({ errorRate: 1 });
    const err = await failure(drain(client({ getRetries: 2 }).listRfqs('open')));
    expect(err).toBeInstanceOf(TransientHttpError);
    expect((err as TransientHttpError).status).toBeGreaterThanOrEqual(500);
    expect(calls('listRfqs')).toBe(3);
  });

  it('a POST is never retried on 5xx', async () => {
    env.sandbox.setFaults({ errorRate: 1 });
    const err = await failure(client({ getRetries: 5 }).createRfq(body));
    expect(err).toBeInstanceOf(TransientHttpError);
    expect(calls('createRfq')).toBe(1);
  });

  it('commit then 502: the RFQ is stored, the caller gets a transient error (ambiguous, one call)', async () => {
    env.sandbox.setFaults({ commitThenFail: { rate: 1, mode: '502' } });
    const before = env.sandbox.control.listAll().length;
    const err = await failure(client().createRfq(body));
    expect(err).toBeInstanceOf(TransientHttpError);
    expect((err as TransientHttpError).status).toBe(502);
    expect(env.sandbox.control.listAll().length).toBe(before + 1);
    expect(calls('createRfq')).toBe(1);
  });

  it('commit then dropped connection: TransientHttpError without status, not retried', async () => {
    env.sandbox.setFaults({ commitThenFail: { rate: 1, mode: 'drop' } });
    const err = await failure(client().createRfq(body));
    expect(err).toBeInstanceOf(TransientHttpError);
    expect((err as TransientHttpError).status).toBeUndefined();
    expect(env.sandbox.stats().commitThenFail).toBe(1);
    expect(calls('createRfq')).toBe(1);
  });

  it('commit then stall: the headers time-out ends the wait with TransientHttpError', async () => {
    env.sandbox.setFaults({ commitThenFail: { rate: 1, mode: 'stall', stallMs: 5000 } });
    const started = performance.now();
    const err = await failure(client({ headersTimeoutMs: 300 }).createRfq(body));
    expect(performance.now() - started).toBeLessThan(2500);
    expect(err).toBeInstanceOf(TransientHttpError);
    expect(err.message).toMatch(/timeout/i);
  });

  it('a slow GET times out and is retried', async () => {
    // undici's parser timers are coarse (up to ~0.5 s late), hence the wide margin between time-out and latency
    env.sandbox.setFaults({ latencyMs: 3000 });
    const err = await failure(drain(client({ headersTimeoutMs: 200, getRetries: 1 }).listRfqs('open')));
    expect(err).toBeInstanceOf(TransientHttpError);
    expect(err.message).toContain('UND_ERR_HEADERS_TIMEOUT');
    expect(env.sandbox.stats().requestTimes).toHaveLength(2); // first attempt and one retry reached the service
  });

  it('a refused connection is a transient error', async () => {
    const err = await failure(
      drain(
        createSourcingClient({
          baseUrl: 'http://127.0.0.1:1',
          getToken: () => TOKEN,
          getRetries: 1,
          baseBackoffMs: 5,
          logger: logs.logger,
        }).listRfqs('open'),
      ),
    );
    expect(err).toBeInstanceOf(TransientHttpError);
    expect(err.message).toContain('ECONNREFUSED');
  });
});

describe('permanent 4xx and invalid answers', () => {
  let fake: FakeService;
  afterEach(async () => {
    await fake?.stop();
  });

  it('a 4xx is permanent, keeps status and at most 2 KiB of body, scrubbed of the token', async () => {
    fake = await startFakeService((req, _url, res) => {
      // a careless service that echoes the credential back in its error page
      json(res, 422, { error: 'unprocessable', echo: req.headers.authorization, filler: 'x'.repeat(10_000) });
    });
    const err = await failure(client({ baseUrl: fake.url }).createRfq(body));
    expect(err).toBeInstanceOf(PermanentHttpError);
    const p = err as PermanentHttpError;
    expect(p.status).toBe(422);
    expect(p.kind).toBe('data');
    expect(p.body!.length).toBeLessThanOrEqual(MAX_ERROR_BODY_CHARS);
    expect(p.body).toContain('unprocessable');
    expect(p.body).not.toContain(TOKEN);
    expect(fake.requests).toHaveLength(1);
  });

  it('a broken JSON body is an InvalidResponseError', async () => {
    env.sandbox.setFaults({ invalidJsonRate: 1 });
    const err = await failure(drain(client().listRfqs('open')));
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect((err as InvalidResponseError).field).toBe('(body)');
  });

  it('an RFQ with a field of the wrong type is read without it, the field named on the RFQ', async () => {
    const { _id } = await client().createRfq(body);
    env.sandbox.setFaults({ schemaBreakRate: 1 });
    const listed: ListedRfq[] = [];
    for await (const r of client().listRfqs('open')) listed.push(r);
    const ours = listed.find((r) => r._id === _id);
    expect(ours?.lines[0]?.qty).toBeUndefined();
    expect(ours?.unreadable).toEqual([{ field: 'lines.0.qty', reason: expect.stringContaining('(was "lots")') }]);
  });

  it('a quotation with a wrong field is read without it, the field named on the quotation', async () => {
    const { _id } = await client().createRfq(body);
    env.sandbox.control.submitQuotation(_id, { sup_name: 'Acme', prices: ['9.50'] });
    env.sandbox.setFaults({ schemaBreakRate: 1 });
    const broken = await client().listQuotations(_id);
    expect(broken.invalid).toEqual([]);
    expect(broken.quotations).toHaveLength(1);
    expect(broken.quotations[0]).toMatchObject({ sup_name: 'Acme', revision_no: undefined });
    expect(broken.quotations[0]!.detail.map((d) => d.price)).toEqual(['9.50']);
    expect(broken.quotations[0]!.unreadable).toEqual([
      { field: 'revision_no', reason: expect.stringContaining('(was "latest")') },
    ]);
  });
});
