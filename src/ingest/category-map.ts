/**
 * A profile's `category_map:`: the ERP's values (SAP material groups, Oracle category codes...) to the sourcing
 * service's categories, the ones its suppliers follow. An exact key wins, else one that differs only in letter case;
 * a value the map does not name is sent as it is, with a warning (the map is meant to be complete).
 */
export interface CategoryMap {
  exact: Map<string, string>;
  folded: Map<string, string>;
}

export function compileCategoryMap(raw: Record<string, string> | undefined): CategoryMap | undefined {
  if (!raw) return undefined;
  const exact = new Map<string, string>();
  const folded = new Map<string, string>();
  for (const [k, v] of Object.entries(raw)) {
    exact.set(k.trim(), v.trim());
    if (!folded.has(k.trim().toLowerCase())) folded.set(k.trim().toLowerCase(), v.trim());
  }
  return { exact, folded };
}

/** The service's category for the ERP's `value`, or undefined when the map does not name it. */
export function mapCategory(map: CategoryMap, value: string): string | undefined {
  const v = value.trim();
  return map.exact.get(v) ?? map.folded.get(v.toLowerCase());
}
