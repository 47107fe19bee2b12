/**
 * For `check --suggest`: the categories the account's suppliers follow, read from the service's vendor directory
 * when a service is configured (SOURCING_BASE_URL and its token), so the draft's rfq_category is checked against
 * them (src/ingest/suggest/categories.ts). Bounded in time; a service that cannot be asked is said, never fatal.
 */
import type { Config } from '../../src/settings/index.ts';
import type { FollowedCategories } from '../../src/ingest/suggest/index.ts';
import { silentLogger } from '../../src/core/index.ts';

/** The whole read (all pages) gives up after this long. */
const READ_MS = 15_000;

export async function followedCategories(config: Config): Promise<FollowedCategories | undefined> {
  const baseUrl = config.SOURCING_BASE_URL;
  if (!baseUrl) return undefined; // no service configured: nothing to check against
  const token = config.token;
  if (!token) return { unavailable: 'no token (SOURCING_TOKEN or SOURCING_TOKEN_FILE)' };
  // loaded only when there is a service to ask: their entries bring BullMQ and Redis' client, which a draft without
  // a service never needs (test/app/cli-load.test.ts)
  const [{ sourcingClientOptions }, { createSourcingClient }, { categoryCounts }] = await Promise.all([
    import('../../src/account/index.ts'),
    import('../../src/sourcing/client/index.ts'),
    import('../../src/vendors/index.ts'),
  ]);
  const client = createSourcingClient(
    sourcingClientOptions(config, { baseUrl, getToken: () => token, logger: silentLogger }),
  );
  try {
    const listing = await client.listVendors({ signal: AbortSignal.timeout(READ_MS) });
    if (listing.outcome === 'absent') return { unavailable: 'the service has no vendor directory' };
    const categories = categoryCounts(listing.vendors).map((c) => c.category);
    return { categories, source: `GET ${listing.path}: ${listing.vendors.length} vendors` };
  } catch (err) {
    return { unavailable: `${baseUrl} could not be asked: ${(err as Error).message}` };
  } finally {
    await client.close();
  }
}
