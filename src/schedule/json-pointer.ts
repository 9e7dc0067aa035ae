// RFC 6901 JSON pointers, read-only: "" is the whole document, "/a/0/b~1c" walks object
// members and array indexes ("~1" is "/", "~0" is "~", unescaped in that order).

export type Resolved = { found: true; value: unknown } | { found: false };

const INDEX = /^(0|[1-9]\d*)$/;

/** The value `pointer` names in `doc`, or found: false when any step is missing. */
export function resolvePointer(doc: unknown, pointer: string): Resolved {
  if (pointer === '') return { found: true, value: doc };
  if (!pointer.startsWith('/')) return { found: false };
  let cur = doc;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur)) {
      // "-" names the element after the last one: never present when reading.
      if (!INDEX.test(token) || Number(token) >= cur.length) return { found: false };
      cur = cur[Number(token)];
    } else if (cur !== null && typeof cur === 'object' && Object.hasOwn(cur, token)) {
      cur = (cur as Record<string, unknown>)[token];
    } else {
      return { found: false };
    }
  }
  return { found: true, value: cur };
}
