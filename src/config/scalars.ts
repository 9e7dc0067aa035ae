// The file may write numbers and booleans as JSON values or as strings ("9199", "true");
// both are accepted everywhere. These parse exactly those two spellings and
// nothing looser ("0x10", " 12", true-as-1 are faults), unlike ajv's coerceTypes.

const INT = /^[+-]?\d+$/;
const NUM = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

export function parseIntLike(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isInteger(v) ? v : undefined;
  if (typeof v === 'string' && INT.test(v)) return Number(v);
  return undefined;
}

export function parseNumLike(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && NUM.test(v)) return Number(v);
  return undefined;
}

export function parseBoolLike(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  return undefined;
}

/** Three (or with alpha four) space-separated integers. */
export function parseColorParts(v: unknown): number[] | undefined {
  if (typeof v !== 'string') return undefined;
  const parts = v.trim().split(/\s+/);
  if (!parts.every((p) => /^\d{1,3}$/.test(p))) return undefined;
  return parts.map(Number);
}
