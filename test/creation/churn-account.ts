/** The account the reconcile-churn tests share with other users, and those users' RFQs posted straight to the service. */
export const TOKEN = 'tok-churn';
export const COMPANY = 'Buyer churn';

/** An RFQ of another user of the account (not ours): posted straight to the service; its HTTP status (0: no answer). */
export async function postOtherRfq(sandboxUrl: string, tag: string, i: number): Promise<number> {
  return fetch(`${sandboxUrl}/v1/rfqs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      title: `other ${i}`,
      due_date: String(Date.UTC(2030, 0, 1)),
      rfq_type: 'Public',
      lines: [{ product_name: 'x', qty: 1, external_id: `${tag}-${i}` }],
    }),
  }).then(
    async (r) => (await r.arrayBuffer(), r.status),
    () => 0,
  );
}
