// Every area type, one module each. A new type is a module beside these and one line here.
import type { AreaType } from '../types.js';
import { audio } from './audio.js';
import { date } from './date.js';
import { image } from './image.js';
import type { AreaKind } from './area-type.js';
import { dynamic, staticText, text } from './text.js';
import { video } from './video.js';
import { web } from './web.js';

export type { AreaKind } from './area-type.js';

// In the specification's order: fault messages list types in it ("only to text, dynamic").
const KINDS: readonly AreaKind[] = [staticText, text, dynamic, image, video, date, audio, web];

const BY_TYPE = new Map<string, AreaKind>(KINDS.map((k) => [k.type, k]));

export const AREA_TYPES: readonly AreaType[] = KINDS.map((k) => k.type);

export function kindOf(type: AreaType): AreaKind {
  const k = BY_TYPE.get(type);
  if (!k) throw new Error(`no area type "${type}"`);
  return k;
}

export function isAreaType(type: unknown): type is AreaType {
  return typeof type === 'string' && BY_TYPE.has(type);
}
