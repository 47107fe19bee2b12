/**
 * What column names mean, in the languages of the shipped profiles (English, German) and the ERPs they come from
 * (SAP, Oracle, Dynamics, Odoo, NetSuite, Sage, Business Central). `check --suggest` uses it to propose a column for
 * a field; the values then confirm or refute the proposal (a name alone never decides a qty or a line counter).
 * Names are compared normalised (mapping-profile.ts normalizeHeader: case, spaces and punctuation do not matter).
 */
import { normalizeHeader } from './mapping-profile.ts';

export type Concept =
  | 'requisition' | 'line' | 'lineId' | 'product' | 'specification' | 'itemNumber' | 'uom' | 'qty' | 'unitPrice'
  | 'total' | 'priceUnit' | 'currency' | 'dueDate' | 'requiredDate' | 'title' | 'description' | 'requester'
  | 'rfqType' | 'category' | 'location';

/** Exact names score 3, names containing a word 2 (`Products/Quantity` holds `quantity`). */
const VOCABULARY: Record<Concept, { exact: string[]; contains: string[] }> = {
  requisition: {
    exact: ['requisition', 'purchaserequisition', 'requisitionnumber', 'requisitionno', 'requisitionid', 'reqno', 'reqnumber', 'prnumber', 'prno', 'pr',
      'reference', 'documentnumber', 'documentno', 'bestellanforderung', 'banf', 'banfnr', 'anforderung', 'anforderungsnummer', 'anforderungsnr', 'bedarfsanforderung',
      'belegnummer', 'belegnr', 'req', 'reqid', 'request', 'requestno', 'requestnumber', 'requestid', 'anfrage'],
    contains: ['requisitionnumber', 'requisitionno', 'bestellanforderung', 'requisition', 'anforderungsn'],
  },
  line: {
    exact: ['line', 'linenumber', 'linenum', 'lineno', 'itemofrequisition', 'position', 'pos', 'posbestellanf', 'positionsnummer', 'posnr', 'item', 'itemno', 'lineid', 'zeile'],
    contains: ['linenum', 'lineno', 'linenumber', 'position', 'itemofrequisition', 'posbestellanf'],
  },
  lineId: {
    exact: ['id', 'lineid', 'internalid', 'uniqueid', 'recordid', 'lineuniquekey', 'productsid', 'systemid', 'guid'],
    contains: ['uniqueid', 'internalid', 'lineid', 'productsid', 'lineuniquekey'],
  },
  product: {
    exact: ['item', 'product', 'productname', 'itemname', 'itemdescription', 'shorttext', 'kurztext', 'materialdescription', 'materialkurztext', 'bezeichnung',
      'artikel', 'artikelbezeichnung', 'productsproduct', 'article', 'description', 'beschreibung', 'memo', 'leistung'],
    contains: ['productname', 'itemdescription', 'shorttext', 'kurztext', 'artikelbezeichnung', 'productsproduct', 'itemname', 'materialdescription'],
  },
  specification: {
    exact: ['specification', 'spec', 'specs', 'text', 'details', 'longtext', 'langtext', 'productsdescription', 'linedescription', 'technicalspecification',
      'spezifikation', 'zusatztext', 'notes', 'description', 'beschreibung', 'memo'],
    contains: ['specification', 'spezifikation', 'longtext', 'langtext', 'productsdescription', 'linedescription'],
  },
  itemNumber: {
    exact: ['material', 'materialnumber', 'itemnumber', 'itemcode', 'productcode', 'partnumber', 'partno', 'sku', 'artikelnummer', 'materialnummer', 'artnr', 'no'],
    contains: ['itemnumber', 'itemcode', 'partnumber', 'artikelnummer', 'materialnummer', 'productcode'],
  },
  uom: {
    exact: ['uom', 'unit', 'units', 'unitofmeasure', 'unitofmeasurecode', 'uomcode', 'mengeneinheit', 'einheit', 'me', 'unitmeaslookupcode', 'productsunitofmeasure', 'purchaseunit', 'bme'],
    contains: ['unitofmeasure', 'mengeneinheit', 'unitmeas', 'uom'],
  },
  qty: {
    exact: ['qty', 'quantity', 'quantityrequested', 'requestedquantity', 'angefordertemenge', 'menge', 'bestellmenge', 'bedarfsmenge', 'productsquantity', 'anzahl', 'qtyrequested', 'orderquantity', 'qtyordered', 'quantityordered'],
    contains: ['quantity', 'qty', 'menge', 'anzahl'],
  },
  unitPrice: {
    exact: ['unitprice', 'price', 'valuationprice', 'bewertungspreis', 'preis', 'einzelpreis', 'productsunitprice', 'rate', 'estimatedunitprice', 'netprice', 'nettopreis',
      'unitcost', 'cost', 'directunitcost', 'estimatedprice', 'stückpreis', 'listprice', 'purchaseprice', 'einkaufspreis'],
    contains: ['unitprice', 'unitcost', 'einzelpreis', 'stückpreis', 'valuationprice', 'bewertungspreis', 'preis', 'price', 'rate', 'cost'],
  },
  total: {
    exact: ['estimatedtotal', 'netamount', 'amount', 'total', 'linetotal', 'extendedprice', 'extendedamount', 'gesamtwert', 'gesamtpreis', 'betrag', 'nettowert', 'nettobetrag',
      'value', 'linevalue', 'lineamount', 'totalvalue', 'totalprice', 'estimatedamount', 'summe', 'wert', 'positionswert'],
    contains: ['total', 'amount', 'gesamt', 'betrag', 'nettowert', 'summe', 'extended'],
  },
  priceUnit: {
    exact: ['priceunit', 'preiseinheit', 'per', 'priceper', 'pe', 'pricingunit'],
    contains: ['priceunit', 'preiseinheit', 'priceper'],
  },
  currency: {
    exact: ['currency', 'currencycode', 'waehrung', 'währung', 'curr', 'ccy', 'wäh'],
    contains: ['currency', 'währung', 'waehrung'],
  },
  dueDate: {
    exact: ['duedate', 'deadline', 'agreementdeadline', 'quotedeadline', 'quotationdeadline', 'bidduedate', 'closingdate', 'closedate', 'angebotsfrist', 'abgabefrist',
      'submissiondeadline', 'responsedue', 'responsedeadline', 'rfqduedate', 'quotedue', 'angebotsabgabe', 'bidclosing'],
    contains: ['deadline', 'duedate', 'frist', 'closing', 'due'],
  },
  requiredDate: {
    exact: ['requireddate', 'deliverydate', 'needbydate', 'requesteddate', 'lieferdatum', 'wunschtermin', 'bedarfsdatum', 'dateneeded', 'requireddeliverydate', 'needdate',
      'requestedreceiptdate', 'requesteddeliverydate', 'liefertermin', 'benötigtam', 'neededby', 'requiredby', 'receiveby', 'expectedreceiptdate'],
    contains: ['needby', 'deliverydate', 'requireddate', 'requesteddate', 'lieferdatum', 'liefertermin', 'wunschtermin', 'receiptdate', 'neededby', 'requiredby', 'receiveby', 'delivery'],
  },
  title: {
    exact: ['title', 'name', 'headerdescription', 'subject', 'requisitionname', 'titel', 'betreff', 'purpose', 'requisitiontitle', 'sourcedocument', 'projekt', 'project'],
    contains: ['title', 'titel', 'headerdescription', 'subject', 'betreff'],
  },
  description: {
    exact: ['description', 'businessjustification', 'justification', 'comment', 'comments', 'remarks', 'bemerkung', 'bemerkungen', 'begründung', 'note', 'notes', 'reason', 'memo', 'headermemo'],
    contains: ['justification', 'begründung', 'bemerkung', 'remark', 'comment'],
  },
  requester: {
    exact: ['requisitioner', 'anforderer', 'preparer', 'requestedby', 'requester', 'requestor', 'purchaserepresentative', 'buyer', 'purchasinggroup', 'einkäufergruppe', 'einkaeufer',
      'einkäufer', 'employee', 'createdby', 'besteller', 'mitarbeiter', 'bedarfsträger'],
    contains: ['requisitioner', 'anforderer', 'requestedby', 'requester', 'requestor', 'preparer', 'purchasinggroup', 'einkäufergruppe', 'representative', 'buyer', 'besteller'],
  },
  rfqType: { exact: ['rfqtype', 'type', 'visibility', 'ausschreibungsart', 'sourcingtype'], contains: ['rfqtype'] },
  category: {
    exact: ['category', 'procurementcategory', 'materialgroup', 'warengruppe', 'agreementtype', 'commoditycode', 'itemcategory', 'commodity', 'productgroup', 'class',
      'kategorie', 'itemcategorycode', 'purchasecategory', 'spendcategory', 'kostenart', 'glaccount', 'account'],
    contains: ['category', 'kategorie', 'materialgroup', 'warengruppe', 'commodity'],
  },
  location: {
    exact: ['location', 'site', 'plant', 'werk', 'delivertolocation', 'company', 'warehouse', 'standort', 'shipto', 'lager', 'locationcode', 'deliverto', 'lieferort',
      'subsidiary', 'department', 'kostenstelle', 'costcenter', 'costcentre', 'abteilung'],
    contains: ['location', 'delivertol', 'warehouse', 'standort', 'lieferort', 'plant', 'site', 'werk', 'shipto'],
  },
};

/** How well `header` names `concept`: 3 exact, 2 contains a telling word, 0 no. */
export function nameScore(header: string, concept: Concept): number {
  const k = normalizeHeader(header);
  if (k === '') return 0;
  const v = VOCABULARY[concept];
  if (v.exact.includes(k)) return 3;
  if (v.contains.some((w) => k.includes(w))) return 2;
  return 0;
}
