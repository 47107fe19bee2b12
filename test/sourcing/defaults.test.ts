/**
 * One set of defaults: a transport or client built without an option runs with what src/settings/config.ts declares for the
 * matching setting, so code that builds a client by hand (bench, tools, tests) behaves as the configured service.
 */
import { describe, expect, it } from 'vitest';
import { rawConfigSchema } from '../../src/settings/config.ts';
import { clientSettings, createSourcingClient } from '../../src/sourcing/client/http-client.ts';
import { useSandbox } from '../helpers/sandbox.ts';
import { transportSettings } from '../../src/sourcing/transport/types.ts';

const schemaDefault = (key: keyof typeof rawConfigSchema.shape): unknown => rawConfigSchema.shape[key].parse(undefined);

describe("the transport's and client's defaults are the config schema's", () => {
  it('time-outs, retries and connections', () => {
    const s = transportSettings({});
    expect({
      connectTimeoutMs: s.connectTimeoutMs,
      headersTimeoutMs: s.headersTimeoutMs,
      bodyTimeoutMs: s.bodyTimeoutMs,
      callDeadlineMs: s.callDeadlineMs,
      getRetries: s.getRetries,
      connections: s.connections,
    }).toEqual({
      connectTimeoutMs: schemaDefault('SOURCING_CONNECT_TIMEOUT_MS'),
      headersTimeoutMs: schemaDefault('SOURCING_HEADERS_TIMEOUT_MS'),
      bodyTimeoutMs: schemaDefault('SOURCING_BODY_TIMEOUT_MS'),
      callDeadlineMs: schemaDefault('SOURCING_CALL_DEADLINE_MS'),
      getRetries: schemaDefault('SOURCING_GET_RETRIES'),
      connections: schemaDefault('SOURCING_CONNECTIONS'),
    });
  });

  it('pages', () => {
    expect(clientSettings({})).toEqual({
      maxPages: schemaDefault('SOURCING_MAX_PAGES'),
      pageConcurrency: schemaDefault('SOURCING_PAGE_CONCURRENCY'),
    });
  });

  it('options given still win', () => {
    expect(transportSettings({ getRetries: 0, connections: 2 })).toMatchObject({ getRetries: 0, connections: 2 });
    expect(clientSettings({ maxPages: 3 }).maxPages).toBe(3);
  });
});

describe('over HTTP', () => {
  const env = useSandbox({ accounts: { 'tok-defaults-0001': 'Defaults Ltd' } });

  it('a GET that keeps failing is tried 1 + SOURCING_GET_RETRIES times by a client given no retries', async () => {
    env.sandbox.setFaults({ errorRate: 1 });
    const client = createSourcingClient({ baseUrl: env.url, getToken: () => 'tok-defaults-0001', baseBackoffMs: 1 });
    try {
      await expect(client.listRfqPages('open')[Symbol.asyncIterator]().next()).rejects.toMatchObject({
        code: 'E_TRANSIENT',
      });
      const calls = Object.values(env.sandbox.stats().calls.listRfqs ?? {}).reduce((a, b) => a + b, 0);
      expect(calls).toBe(1 + Number(schemaDefault('SOURCING_GET_RETRIES')));
    } finally {
      await client.close();
    }
  });
});
