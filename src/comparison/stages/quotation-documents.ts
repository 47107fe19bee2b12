/** The documents a quotation carries (on itself or on its lines): how many, and their names for the buyer. */

export function countDocs(docs: unknown): number {
  if (Array.isArray(docs)) return docs.length;
  if (docs && typeof docs === 'object') return Object.keys(docs).length;
  return 0;
}

/**
 * The names of attached documents, for the buyer to read beside the prices. The interface does not show the fields
 * of a document entry: the usual name fields are tried (the name shown before the stored file's name: the older
 * documentation's `{file_name: "<hash>.jpg", doc_name: "Arm_Astalos.jpg"}`), then the last part of a URL, then a
 * number.
 */
export function documentNames(docs: unknown): string[] {
  const entries: unknown[] = Array.isArray(docs) ? docs : docs && typeof docs === 'object' ? Object.values(docs) : [];
  return entries.map((d, i) => {
    if (typeof d === 'string' && d.trim() !== '') return d.trim();
    if (d && typeof d === 'object') {
      const o = d as Record<string, unknown>;
      for (const k of ['name', 'doc_name', 'original_name', 'title', 'file_name', 'filename']) {
        const v = o[k];
        if (typeof v === 'string' && v.trim() !== '') return v.trim();
      }
      for (const k of ['url', 'path', 'link']) {
        const v = o[k];
        if (typeof v === 'string' && v.trim() !== '')
          return (
            v
              .trim()
              .replace(/[?#].*$/, '')
              .split('/')
              .filter(Boolean)
              .pop() ?? `document ${i + 1}`
          );
      }
    }
    return `document ${i + 1}`;
  });
}
