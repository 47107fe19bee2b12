/**
 * A create as the service stores it (ServiceBehaviour.stores): what a real service rewrites on the way in, so the
 * lists show it other than it was posted.
 */
import type { ServiceBehaviour } from './behaviour.ts';
import type { WireCreateRfq } from './wire-schemas.ts';

export function asStored(body: WireCreateRfq, b: ServiceBehaviour): WireCreateRfq {
  const rules = new Set(b.stores ?? []);
  if (rules.size === 0) return body;
  const spaces = (t: string) => (rules.has('spaces') ? t.replace(/\s+/g, ' ').trim() : t);
  return {
    ...body,
    title: spaces(body.title),
    ...(rules.has('required-date') && body.required_date === undefined ? { required_date: body.due_date } : {}),
    lines: body.lines.map((l) => {
      const name = spaces(l.product_name);
      return {
        ...l,
        product_name: rules.has('name-case') ? name.toUpperCase() : name,
        ...(l.uom !== undefined && rules.has('uom-case') ? { uom: l.uom.toUpperCase() } : {}),
        ...(l.external_id !== undefined && rules.has('external-id')
          ? { external_id: l.external_id.trim().toUpperCase() }
          : {}),
      };
    }),
  };
}
