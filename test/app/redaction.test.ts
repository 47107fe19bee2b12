/** Log redaction: the token, the Redis password and any Authorization header never reach the log stream. */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/settings/config.ts';
import { createLogger } from '../../src/core/logger.ts';

function capture() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(String(chunk));
      cb();
    },
  });
  return { stream, text: () => chunks.join('') };
}

const TOKEN = 'sk-live-9f8e7d6c5b4a3210';
const REDIS_PW = 'r3dis-Pa55-word';

describe('log redaction', () => {
  const config = loadConfig({
    SOURCING_BASE_URL: 'https://sourcing.example/esourcing',
    SOURCING_TOKEN: TOKEN,
    REDIS_URL: `rediss://:${REDIS_PW}@redis.example:6380`,
  });

  it('redacts secrets wherever they appear', () => {
    const out = capture();
    const log = createLogger({ destination: out.stream, level: 'debug' });
    log.info({ config }, 'configuration loaded');
    log.info({ headers: { authorization: `Bearer ${TOKEN}` } }, 'lower case header');
    log.info({ headers: { Authorization: `Bearer ${TOKEN}` } }, 'capitalised header');
    log.info({ req: { headers: { AUTHORIZATION: `Bearer ${TOKEN}` } } }, 'upper case header');
    log.info({ deep: { a: { b: { aUtHoRiZaTiOn: 'Basic dXNlcjpwYXNz' } } } }, 'mixed case, deep');
    log.info(
      { rawHeaders: ['content-type', 'application/json', 'Authorization', `Bearer ${TOKEN}`] },
      'raw header array',
    );
    log.info({ url: `https://user:${TOKEN}@sourcing.example/v1/rfqs?token=${TOKEN}` }, 'token inside a URL');
    log.info(`calling with Bearer ${TOKEN} now`);
    log.warn({ redis: config.REDIS_URL }, `connecting to ${config.REDIS_URL}`);
    log.error({ err: new Error(`upstream said: invalid token ${TOKEN}`) }, 'call failed');
    log.error(new Error(`ECONNREFUSED redis://:${REDIS_PW}@10.0.0.5:6379`));
    log.info({ headers: new Headers({ authorization: `Bearer ${TOKEN}` }) }, 'fetch Headers object');
    log.info('interpolated %s', `secret=${TOKEN}`);
    log
      .child({
        authorization: `Bearer ${TOKEN}`,
        url: `https://sourcing.example/v1/rfqs?access_token=${TOKEN}`,
        note: REDIS_PW,
      })
      .info('child bindings');
    const text = out.text();
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(REDIS_PW);
    expect(text).not.toContain('dXNlcjpwYXNz');
    // The lines are still there and still useful.
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(14);
    expect(text).toContain('[REDACTED]');
    expect(text).toContain('sourcing.example/v1/rfqs');
    expect(text).toContain('upstream said: invalid token');
    expect(text).toContain('redis.example:6380');
  });
});
