/**
 * Proof 2 (docs/architecture.md#proofs-the-tests-run): crashes. A worker process creating RFQs for 300 requisitions is
 * killed with SIGKILL at random moments, at least 10 times, and restarted each time. Result: exactly 300 RFQs, every
 * external_id once, no requisition lost, no job stuck (nothing waiting, active, delayed or failed at the end). In both
 * dialects of the service (friendly: external_id echoed, lower-case filter; docs: no echo, capitalised filter, detail
 * call).
 */
import { crashProof } from './proof-crash.ts';

// the docs dialect: proof-crash-docs.test.ts (a file each, so they run side by side)
crashProof('friendly');
