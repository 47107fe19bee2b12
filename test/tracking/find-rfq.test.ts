/** findListedRfq (comparison jobs, `rfq-sync compare`): another RFQ's bad record does not hide ours; ours bad is an error. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidResponseError } from '../../src/core/errors.ts';
import { createSourcingClient, type SourcingClient } from '../../src/sourcing/client/http-client.ts';
import { findListedRfq } from '../../src/awarding/find-rfq.ts';
import { json, startFakeService, type FakeService } from '../sourcing/fake-service.ts';

let svc: FakeService;
let client: SourcingClient;
const empty = { rfqs: [], links: {} };
const lists: Record<string, unknown> = {
  completed: empty,
  cancelled: empty,
  closed: {
    rfqs: [
      { _id: 7, lines: [{ line_id: { oid: 'a' }, qty: 2 }] },
      { _id: 8, title: 'ours', lines: [{ line_id: 'b', qty: 2 }] },
      { _id: 9, title: 'bad qty', lines: [{ line_id: 'c', qty: 'lots' }] },
    ],
    links: {},
  },
  open: empty,
};
beforeAll(async () => {
  svc = await startFakeService((_req, url, res) =>
    json(res, 200, lists[url.searchParams.get('status') ?? ''] ?? empty),
  );
  client = createSourcingClient({ baseUrl: svc.url, getToken: () => 'tok-find-1234', getRetries: 0 });
});
afterAll(async () => {
  await client.close();
  await svc.stop();
});

describe('findListedRfq', () => {
  it('finds an RFQ listed beside another whose record breaks the schema', async () => {
    const found = await findListedRfq(client, 8);
    expect(found?.state).toBe('closed');
    expect(found?.rfq.title).toBe('ours');
  });

  it('an RFQ whose own identity breaks the schema is an InvalidResponseError naming it (the job retries)', async () => {
    const err = (await findListedRfq(client, 7).catch((e: unknown) => e)) as InvalidResponseError;
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect(err.message).toContain('field lines.0.line_id of RFQ 7');
  });

  it('an RFQ with another field that breaks the schema is found, the field named on it', async () => {
    const found = await findListedRfq(client, 9);
    expect(found?.state).toBe('closed');
    expect(found?.rfq.unreadable).toEqual([{ field: 'lines.0.qty', reason: expect.stringContaining('"lots"') }]);
  });
});
