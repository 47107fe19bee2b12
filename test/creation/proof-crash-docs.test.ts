/**
 * Proof 2 (docs/architecture.md#proofs-the-tests-run), docs dialect (no external_id echo, capitalised filter, detail
 * call): a worker SIGKILLed at random moments 10+ times creates exactly 300 RFQs. The case: test/creation/proof-crash.ts.
 */
import { crashProof } from './proof-crash.ts';

crashProof('docs');
