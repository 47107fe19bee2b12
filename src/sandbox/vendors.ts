/**
 * The sandbox's vendor directory: the account's suppliers and the categories they follow, seeded the same way at
 * every start (the same for every account). Each category of the shipped samples (after their profiles'
 * category_map) is followed by four to six vendors, so the autopilot's quotes (three per RFQ) show response rates
 * below 100 % and vendors who did not quote. The first eight vendors are the autopilot's suppliers of old.
 */

export interface SandboxVendor {
  _id: number;
  sup_name: string;
  sup_type: string;
  contact_person: string;
  sup_email: string;
  sup_phone: string;
  categories: string[];
  comp_srl: string;
}

/** The service's categories the sandbox's suppliers follow. */
export const SANDBOX_CATEGORIES = [
  'Office supplies',
  'IT hardware',
  'IT services',
  'Furniture',
  'Maintenance',
  'Packaging',
  'Tools',
  'Consumables',
  'Components',
  'Fasteners',
  'Lubricants',
  'Industrial gases',
  'Electrical',
  'Safety',
  'Lab supplies',
  'Facility services',
  'Services',
] as const;

/** The account's suppliers; the first eight are the autopilot's own pool for categories nobody follows. */
export const SUPPLIER_NAMES = [
  'Acme Industrial Supply',
  'Nordic Parts AB',
  'Global Components Ltd',
  'Müller & Söhne GmbH',
  'Pacific Trading Co',
  'Atlas Office Solutions',
  'Brightline Electrical',
  'Summit Safety Gear',
  'Keystone Fasteners',
  'Orbit IT Services',
  'Delta Lab Supply',
  'Rhein Hydraulik KG',
  'Cobalt Facility Services',
  'Harbor Packaging Inc',
  'Vertex Tools',
  'Lumen Lubricants',
  'Polar Gases SA',
  'Granite Furniture Works',
  'Beacon Consumables',
  'Iris Computers',
];

const CONTACTS = ['Alvin', 'Adam', 'Berit', 'Chen', 'Dana', 'Emil', 'Fatma', 'Goran', 'Hana', 'Ivo'];

/** Vendors per category: 4, 5 or 6, in turn. */
const perCategory = (i: number): number => 4 + (i % 3);

export function seedVendors(): SandboxVendor[] {
  const vendors: SandboxVendor[] = SUPPLIER_NAMES.map((sup_name, i) => ({
    _id: i + 1,
    sup_name,
    sup_type: i % 3 === 0 ? 'PT' : i % 3 === 1 ? 'GmbH' : 'Ltd',
    contact_person: `${CONTACTS[i % CONTACTS.length]} ${sup_name.split(' ')[0]}`,
    sup_email: `sales@${sup_name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')}.example`,
    sup_phone: `030 555 ${String(100 + i).padStart(4, '0')}`,
    categories: [],
    comp_srl: '1',
  }));
  // Round-robin with a stride, so a vendor follows two to five categories and each category a different crowd.
  let next = 0;
  SANDBOX_CATEGORIES.forEach((category, ci) => {
    for (let k = 0; k < perCategory(ci); k++) {
      vendors[next % vendors.length]!.categories.push(category);
      next += 7;
    }
    next++;
  });
  return vendors;
}

/** The vendors following a category (same text after trimming), in directory order. */
export function followersOf(vendors: readonly SandboxVendor[], category: string | undefined): SandboxVendor[] {
  if (category === undefined) return [];
  const c = category.trim();
  return vendors.filter((v) => v.categories.includes(c));
}
