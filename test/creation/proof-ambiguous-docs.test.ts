/**
 * Proof 1 (docs/architecture.md#proofs-the-tests-run), docs dialect: lists without external_id, so each lost answer
 * is reconciled by the fingerprint of what was posted. The cases: test/creation/proof-ambiguous.ts.
 */
import { ambiguousAnswersProof } from './proof-ambiguous.ts';

ambiguousAnswersProof('docs', ['502', 'drop']);
