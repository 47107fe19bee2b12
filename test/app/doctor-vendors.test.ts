/**
 * `rfq-sync doctor` reads the account's vendor directory and prints its categories with the number of vendors
 * following each, as IT runs it against the sandbox: the friendly dialect (/v1/vendors, pages), the documented one
 * (/v1/vendor/, "0"-keyed categories), and a service without a directory (said, exit 0, nothing else affected).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.ts';
import { seedVendors } from '../../src/sandbox/vendors.ts';
import { freshPrefix, useRedis } from '../helpers/redis.ts';
import { spawnCli } from '../helpers/cli.ts';

const redis = useRedis();
let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.stop();
  sandbox = undefined;
});

async function doctor(opts: Parameters<typeof startSandbox>[0], args: string[] = []): Promise<string> {
  sandbox = await startSandbox({ seed: 3, pageSize: 8, ...opts });
  const run = spawnCli(['doctor', ...args], {
    REDIS_URL: redis.url,
    REDIS_PREFIX: freshPrefix(),
    SOURCING_BASE_URL: sandbox.url,
    SOURCING_TOKEN: 'sandbox-token',
    HTTP_PORT: '0',
    LOG_LEVEL: 'silent',
    RFQ_SYNC_DIR: '/tmp/rfq-sync-doctor-test',
  });
  const { code } = await run.exited;
  expect(code, run.output()).toBe(0);
  return run.output();
}

/** The sandbox's categories with their vendor counts, as the directory it serves has them. */
function expectedCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const v of seedVendors()) for (const c of v.categories) counts.set(c, (counts.get(c) ?? 0) + 1);
  return counts;
}

describe('doctor: the vendor directory', () => {
  it.each([
    ['friendly', '/v1/vendors'],
    ['docs', '/v1/vendor/'],
  ] as const)('%s dialect: the path, and every category with its number of vendors', async (dialect, path) => {
    const out = await doctor({ dialect });
    expect(out).toMatch(new RegExp(`vendor directory: +GET ${path}: 20 vendors, read .* UTC; CATEGORY_CHECK=warn`));
    expect(out).toContain('categories (17; vendors following each):');
    const listed = out.slice(out.indexOf('categories (17;'));
    const printed = new Map(
      [...listed.matchAll(/^ {2}(\S.*?) +(\d+)$/gm)].map((m) => [m[1]!, Number(m[2])] as [string, number]),
    );
    expect(printed).toEqual(expectedCounts());
  });

  it('a service without a directory: said once, exit 0; --json carries it', async () => {
    const out = await doctor({ vendors: false });
    expect(out).toContain(
      'vendor directory:   none (GET /v1/vendors: 404, GET /v1/vendor/: 404): the service has no vendor directory; CATEGORY_CHECK=warn checks nothing and workbooks show no response rate',
    );
    await sandbox!.stop();
    const json = JSON.parse(await doctor({ vendors: false }, ['--json'])) as { vendorDirectory: unknown };
    expect(json.vendorDirectory).toMatchObject({ outcome: 'absent', vendors: 0, categories: [] });
  });
});
