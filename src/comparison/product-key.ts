/**
 * The key a product's price history is kept under: the ERP's material or item number when the mapping profile maps
 * one (`product_code`), else the product name and unit of measure, normalised (Unicode NFKC, case, spacing), so
 * "Seal kit  NBR" in PC and "seal kit nbr" in pc are one product. Pure.
 */

const normalised = (s: string): string => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

export function productKey(line: { productCode?: string | undefined; product: string; uom: string }): string {
  const code = line.productCode !== undefined ? normalised(line.productCode) : '';
  if (code !== '') return `code:${code}`;
  return `name:${normalised(line.product)}|${normalised(line.uom)}`;
}
