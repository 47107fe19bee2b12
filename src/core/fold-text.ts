/**
 * Text as services store it, to compare what we posted with what they show: Unicode-compatible form, runs of white
 * space as one, trimmed, lower case (a service may upper-case units and names, collapse spaces). One rule for the
 * reconcile's matching (src/creation/fingerprint.ts) and the ERP ids of outputs (src/comparison/erp-line-ids.ts).
 */
export function foldText(v: string | undefined | null): string {
  return (v ?? '').normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();
}
