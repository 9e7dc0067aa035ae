// One area of a layout: the rules every type shares (applicability, coordinates, the fields
// every area has), then the type's own fields and rules from its module in src/config/area-types/.
import { kindOf, isAreaType } from './area-types/registry.js';
import type { AreaSettings } from './area-types/area-type.js';
import { APPLIES_TO, KEYED } from './areas.js';
import { DEFAULTS } from './defaults.js';
import { pointer } from './faults.js';
import { parseColorParts, parseIntLike } from './scalars.js';
import type { AreaConfig, Rgba } from './types.js';

type Raw = Record<string, unknown>;
type Fault = (path: string, message: string) => void;

export type { AreaSettings };

/** `fault` takes pointers relative to the area. Undefined: the area is too broken to keep (the schema said why). */
export function normalizeArea(
  id: string,
  a: Raw,
  dw: number,
  dh: number,
  dir: string,
  settings: AreaSettings,
  fault: Fault,
): AreaConfig | undefined {
  const type = a.type;
  if (!isAreaType(type)) return undefined;
  for (const key of Object.keys(a)) {
    const types = APPLIES_TO[key];
    if (types && !types.includes(type))
      fault(pointer(key), `does not apply to ${type} areas (only to ${types.join(', ')})`);
  }
  const c = typeof a.coordinates === 'string' ? a.coordinates.trim().split(/\s+/).map(Number) : [];
  if (c.length !== 4 || c.some((n) => !Number.isInteger(n))) return undefined;
  const [x, y, X, Y] = c;
  if (x > X || y > Y)
    fault(
      '/coordinates',
      `"${String(a.coordinates)}": the lower-right corner must not be left of or above the upper-left corner`,
    );
  else if (dw > 0 && dh > 0 && (X >= dw || Y >= dh))
    fault(
      '/coordinates',
      `"${String(a.coordinates)}" does not fit the ${dw}x${dh} display (largest corner is ${dw - 1} ${dh - 1})`,
    );
  const width = X - x + 1;
  const height = Y - y + 1;

  const params: Record<string, string> = isObj(a.params)
    ? Object.fromEntries(Object.entries(a.params).map(([k, v]) => [k, String(v)]))
    : {};
  if (KEYED.includes(type) && !isObj(a.params))
    fault('/params', `is required for ${type} areas (the request value is a key into it)`);
  // A pixel font exactly as tall as the area's rows is the common sign case (docs/decisions.md).
  const fontSize = parseIntLike(a.fontSize);
  if (fontSize !== undefined && height > 0 && fontSize > height) {
    fault('/fontSize', `${fontSize} must not be larger than the area height (${height} px)`);
  }

  const base = {
    id,
    type,
    x,
    y,
    width,
    height,
    ttl: parseIntLike(a.ttl),
    backgroundColor: rgba(a.backgroundColor),
    dispEffect: parseIntLike(a.dispEffect) ?? DEFAULTS.effect,
    clearEffect: parseIntLike(a.clearEffect) ?? DEFAULTS.effect,
  };
  // The rest is the type's own: its module makes its area with only its fields.
  return kindOf(type).configure({ id, base, raw: a, dir, width, height, params, settings, fault });
}

function rgba(v: unknown): Rgba | undefined {
  const p = parseColorParts(v);
  if (!p || p.length < 3) return undefined;
  // GD alpha: 0 opaque .. 127 fully transparent.
  return { r: p[0], g: p[1], b: p[2], a: p.length === 4 ? 1 - Math.min(127, p[3]) / 127 : 1 };
}

const isObj = (v: unknown): v is Raw => v !== null && typeof v === 'object' && !Array.isArray(v);
