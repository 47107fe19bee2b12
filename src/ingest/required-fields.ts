/**
 * The fields the sourcing service requires, and what a row problem says when one is missing. The real service's
 * create page (ralese/docs `rfq_post.rst`) marks only `description` and a line's `external_id` optional, so title,
 * due and required date, rfq_type, rfq_category, rfq_location and each line's product_name, uom, qty and
 * estimated_price must be there before anything is sent: a service that requires them would refuse the RFQ (422)
 * after the file was archived. The message names the field and the profile setting that fills it.
 */
import { basename } from 'node:path';
import type { FieldName, MappingProfile } from './mapping-profile.ts';

export type RequiredField =
  | 'product_name'
  | 'qty'
  | 'uom'
  | 'estimated_price'
  | 'due_date'
  | 'required_date'
  | 'rfq_type'
  | 'rfq_category'
  | 'rfq_location';

/** The profile settings that can fill a required field, as a person edits them. */
const SETTINGS: Partial<Record<RequiredField, string>> = {
  due_date: 'fields.due_date (a column), or add a due_date_rule (days after ingest)',
  required_date: 'fields.required_date (a column), or add a required_date_rule (days after the due date)',
  estimated_price: 'fields.estimated_price (the line total) or fields.unit_price (total = qty x unit price)',
  rfq_type: 'fields.rfq_type (a column, or the constant Public or Private)',
};

/** Which of the profile's fields fills `field` (estimated_price: either price field). */
function mappedBy(profile: MappingProfile, field: RequiredField): FieldName | undefined {
  if (field === 'estimated_price')
    return profile.fields.estimated_price ? 'estimated_price' : profile.fields.unit_price ? 'unit_price' : undefined;
  return profile.fields[field] ? field : undefined;
}

/** `<field> is required by the sourcing service ...`, naming what to fill in which profile. */
export function missingReason(profile: MappingProfile, field: RequiredField): string {
  const where = `mapping profile "${profile.name}" (${basename(profile.file)}`;
  const setting = SETTINGS[field] ?? `fields.${field} (a column, or a constant)`;
  const by = mappedBy(profile, field);
  if (by === undefined)
    return `${field} is required by the sourcing service and ${where}) does not fill it: set ${setting}`;
  return `${field} is required by the sourcing service and is empty here: fill it in the export, or change ${setting} in ${where}; now fields.${by}: "${profile.fields[by]!.source}")`;
}
