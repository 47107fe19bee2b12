/**
 * The auth pause's check (auth-recheck.ts): the first page of the open list, asked with the paused token. A broken
 * record on that page says nothing about the token; before, it failed every check ("no answer that says
 * (listRfqs: invalid response ...)"), so a pause over an account with one such RFQ never lifted itself.
 */
import { describe, expect, it } from 'vitest';
import { firstPageProbe } from '../../src/account/auth-recheck.ts';
import { AuthError } from '../../src/core/errors.ts';
import { createSourcingClient } from '../../src/sourcing/client/http-client.ts';
import { useSandbox } from '../helpers/sandbox.ts';

const sb = useSandbox({ existing: 3, pageSize: 5 });

describe('the auth check', () => {
  it('passes on a page holding a broken record, and still fails on a refused token', async () => {
    const [first] = sb.sandbox.control.listAll().filter((r) => r.state === 'open');
    sb.sandbox.control.breakField(first!._id, 'lines.0.line_id', null);
    const client = createSourcingClient({ baseUrl: sb.url, getToken: () => sb.token });
    const refused = createSourcingClient({ baseUrl: sb.url, getToken: () => 'not-a-token' });
    try {
      await expect(firstPageProbe(client)).resolves.toBeUndefined();
      await expect(firstPageProbe(refused)).rejects.toBeInstanceOf(AuthError);
    } finally {
      await client.close();
      await refused.close();
    }
  });
});
