/**
 * Short and abbreviated column headers, beside the full names of header-vocabulary.ts: the ALV short headers SAP GUI
 * lists write ("Text with Tabs", "Unconverted", spreadsheet) in English and German logons (`Purch.Req.`, `Un`, `BUn`,
 * `OUn`, `Valn Price`, `Deliv.Date`, `Plnt`, `PGr`; `Banf`, `Pos`, `BME`, `Bewertpreis`, `Lieferdat.`, `Werk`, `EKG`),
 * and the abbreviations of other list reports. Keys are normalised headers (normalizeHeader: `Purch.Req.` ->
 * `purchreq`); a short header names its concept exactly (score 3). WEAK lists names that say a concept only when no
 * better column does (score 2): a bare `Name` may be the item's name, or a requisition's, or a person's.
 */

/** Exact short names per concept (the concept names of header-vocabulary.ts). */
export const SHORT_HEADERS: Readonly<Record<string, readonly string[]>> = {
  requisition: ['purchreq', 'purchreqn', 'purreq', 'preq', 'bestellanf', 'banfnummer', 'prqn', 'anfnr', 'anfnummer'],
  line: ['itm', 'reqitem', 'banfpos', 'itemofreq'],
  product: ['itemtext', 'shorttxt', 'kurztxt'],
  itemNumber: ['matl', 'matnr', 'materialno', 'matno'],
  uom: ['un', 'bun', 'oun', 'orderunit', 'baseunit', 'bestellme', 'basisme', 'meh', 'ounit'],
  qty: ['qtyreq', 'reqqty', 'qtyrequested', 'anfmenge'],
  unitPrice: ['valnprice', 'valprice', 'valuationpr', 'bewertpreis', 'bewertungspr', 'netpr', 'bewpreis'],
  priceUnit: ['peh', 'prunit', 'priceun'],
  currency: ['crcy', 'cur', 'waers', 'währg', 'waehrg', 'whrg'],
  requiredDate: ['delivdate', 'deliverydt', 'delivdt', 'reqdate', 'reqmtdate', 'lieferdat', 'lfdat', 'liefdat'],
  requester: ['pgr', 'purgroup', 'purchgroup', 'ekg', 'ekgrp', 'einkgrp', 'requisnr', 'requisitnr', 'anford'],
  category: ['matlgroup', 'matlgrp', 'matgroup', 'warengrp', 'wgr', 'matgr'],
  location: ['plnt', 'storloc', 'sloc', 'lgort', 'lgo'],
};

/** Names that say a concept weakly (score 2). */
export const WEAK_HEADERS: Readonly<Record<string, readonly string[]>> = {
  product: ['name'],
};
