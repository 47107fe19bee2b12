/**
 * The account's vendor directory in domain terms (the wire format is in vendor-schemas.ts): who the suppliers of the
 * account are, how to reach them, and which categories each follows. Suppliers see the RFQs of the categories they
 * follow, so an RFQ's `rfq_category` decides who can quote (docs/architecture.md#the-vendor-directory).
 */

export interface Vendor {
  /** `_id` on the wire, as a string (an integer in the documentation). */
  id: string;
  /** `sup_name`; '' when the service gave none. */
  name: string;
  type?: string;
  /** `contact_person`. */
  contact?: string;
  /** `sup_email`. */
  email?: string;
  /** `sup_phone`. */
  phone?: string;
  /** The categories it follows, in the order given, without empty names or repeats. */
  categories: string[];
}

/** One vendor record that breaks the schema: left out and reported, never blocking the others. */
export interface InvalidVendor {
  page: number;
  index: number;
  id?: string;
  reason: string;
}

/**
 * What reading the directory found: the vendors (every page, each `_id` once) and the path that answered; or
 * `absent` when neither documented path exists (404 or 405 on both: the service has no directory, said once).
 */
export type VendorListing =
  | { outcome: 'ok'; path: string; vendors: Vendor[]; invalid: InvalidVendor[]; pages: number }
  | { outcome: 'absent'; tried: Array<{ path: string; status: number }> };
