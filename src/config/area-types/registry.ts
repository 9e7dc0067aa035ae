// Every area type, one module each. A new type is its fields in area-fields.ts, a module beside
// these and one line here (the compiler asks for it).
import { AREA_TYPE_NAMES, type AreaType } from './area-fields.js';
import { audio } from './audio.js';
import { date } from './date.js';
import { departures } from './departures.js';
import { image } from './image.js';
import type { AreaKind } from './area-type.js';
import type { AreaOf } from './normalized-area.js';
import { dynamic, staticText, text } from './text.js';
import { video } from './video.js';
import { web } from './web.js';

export type { AreaKind } from './area-type.js';

// The behaviour of each type, each taking its own type's area; the names, their order and the
// fields are area-fields.ts's.
const KINDS: { readonly [T in AreaType]: AreaKind<AreaOf<T>> } = {
  static: staticText,
  text,
  dynamic,
  image,
  video,
  date,
  audio,
  web,
  departures,
};

const BY_TYPE = new Map<string, AreaKind>(Object.entries(KINDS));

export const AREA_TYPES: readonly AreaType[] = AREA_TYPE_NAMES;

/** The behaviour of `type`'s areas: hand its methods an area of that type (`kindOf(area.type).resolve(area, v)`). */
export function kindOf(type: AreaType): AreaKind {
  const k = BY_TYPE.get(type);
  if (!k) throw new Error(`no area type "${type}"`);
  return k;
}

export function isAreaType(type: unknown): type is AreaType {
  return typeof type === 'string' && BY_TYPE.has(type);
}
