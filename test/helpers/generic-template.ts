/** The header row of the project's generic template (mappings/generic.yaml, samples/generic-template.csv). */
export const GENERIC_HEADER = [
  'Requisition',
  'Line',
  'Item',
  'Specification',
  'UoM',
  'Qty',
  'Estimated Total',
  'Title',
  'Description',
  'Due Date',
  'Required Date',
  'RFQ Type',
  'Category',
  'Location',
];
