// Text out of fast-xml-parser's objects, with entities left unprocessed by the parser: the
// five predefined XML entities and character references are decoded here (never longer than
// what was written, so nothing can expand).
const ENTITY = /&(lt|gt|amp|quot|apos|#\d{1,7}|#x[0-9a-fA-F]{1,6});/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** The predefined entities and character references; anything else stays as written. */
export function decodeXmlText(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(ENTITY, (all, name: string) => {
    if (name[0] !== '#') return NAMED[name];
    const cp = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : all;
  });
}

/** The text of an element, whether it has attributes or not. */
export function textOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  if (isObj(v) && typeof v['#text'] === 'string') return v['#text'];
  return undefined;
}

export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
export const isObj = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
