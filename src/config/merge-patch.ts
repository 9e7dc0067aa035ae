// JSON merge patch, RFC 7396 section 2: an object patch merges field by field, `null` removes a
// field, anything else (an array, a string, a number) replaces the target's value whole.
type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The target with the patch applied; neither argument is changed. */
export function applyMergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return patch;
  const out: Record<string, Json> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = applyMergePatch(out[key], value);
  }
  return out;
}
