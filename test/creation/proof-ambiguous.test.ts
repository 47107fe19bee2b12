/**
 * Proof 1 (docs/architecture.md#proofs-the-tests-run): ambiguous answers. The sandbox stores the RFQ and then answers
 * 502, drops the connection, or stalls past the client's time-out, for 30% of creates. 200 requisitions -> exactly 200
 * RFQs, every external_id once: each lost answer is reconciled from the RFQ lists instead of posting again; in the docs
 * dialect (lists without external_id) by the fingerprint of what was posted.
 */
import { ambiguousAnswersProof } from './proof-ambiguous.ts';

// the docs dialect's cases: proof-ambiguous-docs.test.ts (a file each, so they run side by side)
ambiguousAnswersProof('friendly', ['502', 'drop', 'stall']);
