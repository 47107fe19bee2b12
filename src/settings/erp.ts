/**
 * Settings: The ERP's own purchase-order import files written from each final award (docs/erp-outputs.md): which
 * output profiles, the vendor cross-reference, and the constants an installation must give its ERP (company code,
 * purchasing organisation, business unit...). A profile names the constants it needs; one of them unset stops the
 * worker at start. Part of the one configuration schema (src/settings/config.ts); each default is documented above
 * its field, and the table of docs/operations.md is generated from these comments (scripts/config-doc.ts).
 */
import { z } from 'zod';

/** An ERP constant: free text, trimmed, no line breaks (it lands in one field of the ERP's file). */
const erpValue = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(240, 'must be at most 240 characters')
  .regex(/^[^\r\n\t]*$/, 'must not hold a line break or tab')
  .optional();

/** The constants a profile may name (`settings:` and `{ setting: ... }` columns), each optional until one does. */
export const erpConstantSettings = {
  /** SAP company code (BUKRS), also the `company` a VENDOR_XREF_FILE row may be limited to. Default: unset. */
  ERP_COMPANY_CODE: erpValue,
  /** SAP purchasing organisation (EKORG). Default: unset. */
  ERP_PURCHASING_ORG: erpValue,
  /** SAP purchasing group (EKGRP). Default: unset. */
  ERP_PURCHASING_GROUP: erpValue,
  /**
   * Plant (SAP WERKS) or site (Dynamics 365) the goods are received at, also the `plant` a VENDOR_XREF_FILE row may
   * be limited to. Default: unset.
   */
  ERP_PLANT: erpValue,
  /** Warehouse the goods are received in (Dynamics 365 warehouse). Default: unset. */
  ERP_WAREHOUSE: erpValue,
  /** Oracle Fusion procurement business unit (also the requisitioning and bill-to BU). Default: unset. */
  ERP_BUSINESS_UNIT: erpValue,
  /** Oracle E-Business Suite operating unit id (ORG_ID of the interface tables). Default: unset. */
  ERP_ORG_ID: erpValue,
  /** Oracle buyer (AGENT_NAME): the person the imported orders belong to. Default: unset. */
  ERP_BUYER: erpValue,
  /** Oracle ship-to location code. Default: unset. */
  ERP_SHIP_TO_LOCATION: erpValue,
  /** Oracle ship-to inventory organisation code. Default: unset. */
  ERP_SHIP_TO_ORGANIZATION: erpValue,
  /** NetSuite subsidiary (OneWorld accounts), by name or internal id. Default: unset. */
  ERP_SUBSIDIARY: erpValue,
  /** NetSuite location the goods are received at. Default: unset. */
  ERP_LOCATION: erpValue,
};

export const erpSettings = {
  /**
   * The output profiles whose files each final award writes, comma-separated (a YAML list in the config file):
   * shipped ones (`po-lines-csv`, `sap-po-bapi`, `oracle-ebs-pdoi`, `oracle-fusion-fbdi`, `netsuite-po`, `odoo-po`,
   * `dynamics-365-po`) or your own from ERP_OUTPUTS_DIR. Each writes under `<OUTBOX_DIR>/erp/<profile>/`. A
   * profile that does not load, or a setting it names that is unset, stops the worker at start. Default: none.
   */
  ERP_OUTPUTS: z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^[A-Za-z0-9._-]+$/, 'a profile name holds only letters, digits, . _ -')))
    .default([]),
  /**
   * Folder of your own output profiles (`*.yaml`), looked in before the shipped ones (a name in both: yours).
   * Default: the `erp-outputs/` shipped with rfq-sync.
   */
  ERP_OUTPUTS_DIR: z.string().min(1).optional(),
  /**
   * The vendor cross-reference: a CSV or xlsx with the columns `supplier_key`, `supplier_name`, `erp_vendor_id`
   * (optionally `erp_vendor_site`, `company`, `plant`), re-read when it changes. A winner it does not know holds
   * its RFQ's ERP files (named in `status`, the overview and the trace) until it does. `rfq-sync vendors
   * --xref-draft FILE` writes a draft. Default: unset (every profile that writes the ERP's vendor needs it).
   */
  VENDOR_XREF_FILE: z.string().min(1).optional(),
  ...erpConstantSettings,
};

/** The names a profile may give under `settings:` and in `{ setting: ... }`. */
export const ERP_CONSTANT_NAMES: readonly string[] = Object.keys(erpConstantSettings);
