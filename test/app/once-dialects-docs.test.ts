/**
 * `rfq-sync once` against the docs dialect of the service (no external_id echo, capitalised filter, detail call), a
 * quarter of the creates answered 502 after commit: exit 0, exactly one RFQ per requisition. The case:
 * test/app/once-dialects.ts.
 */
import { onceAgainstDialect } from './once-dialects.ts';

onceAgainstDialect('docs', 'capitalised');
