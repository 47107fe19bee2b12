/**
 * Loaded with `node --import` (NODE_OPTIONS) by test/app/cli-load.test.ts: notes every package of node_modules the
 * process resolves, and writes their names to the file named by RFQ_SYNC_TEST_PACKAGES when it exits.
 */
import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const seen = new Set<string>();
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(resolved.url);
    if (m) seen.add(m[1]!);
    return resolved;
  },
});
process.on('exit', () => {
  const out = process.env.RFQ_SYNC_TEST_PACKAGES;
  if (out) writeFileSync(out, [...seen].sort().join('\n'));
});
