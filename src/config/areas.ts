import type { AreaType } from './types.js';
import { AREA_TYPES, kindOf } from './area-types/registry.js';
import { COMMON_FIELDS, fieldsOf } from './area-types/area-fields.js';

export { DEFAULTS, defaultFontSize } from './defaults.js';

/** Properties every area type accepts; the rest are each type's (src/config/area-types/area-fields.ts). */
const COMMON = ['type', ...Object.keys(COMMON_FIELDS)];

function appliesTo(): Record<string, AreaType[]> {
  const out: Record<string, AreaType[]> = {};
  for (const p of COMMON) out[p] = [...AREA_TYPES];
  for (const t of AREA_TYPES) {
    for (const p of fieldsOf(t)) (out[p] ??= []).push(t);
  }
  return out;
}

/**
 * Which area properties each type accepts (the specification's "Applies to" column, widened as docs/decisions.md says).
 */
export const APPLIES_TO: Record<string, AreaType[]> = appliesTo();

/** Types whose request value is a key into params. */
export const KEYED: AreaType[] = AREA_TYPES.filter((t) => kindOf(t).keyed);

/** File extensions each file-backed type accepts. */
export const FILE_TYPES: Partial<Record<AreaType, string[]>> = Object.fromEntries(
  AREA_TYPES.flatMap((t) => {
    const f = kindOf(t).files;
    return f ? [[t, [...f]]] : [];
  }),
);
