// Every area type, one module each. A new type is a module beside these and one line here.
import { AREA_TYPE_NAMES, type AreaType } from './area-fields.js';
import { audio } from './audio.js';
import { date } from './date.js';
import { departures } from './departures.js';
import { image } from './image.js';
import type { AreaKind } from './area-type.js';
import { dynamic, staticText, text } from './text.js';
import { video } from './video.js';
import { web } from './web.js';

export type { AreaKind } from './area-type.js';

// The behaviour of each type; the names, their order and the fields are area-fields.ts's.
const KINDS: Record<AreaType, AreaKind> = { static: staticText, text, dynamic, image, video, date, audio, web, departures };

const BY_TYPE = new Map<string, AreaKind>(Object.entries(KINDS));

export const AREA_TYPES: readonly AreaType[] = AREA_TYPE_NAMES;

export function kindOf(type: AreaType): AreaKind {
  const k = BY_TYPE.get(type);
  if (!k) throw new Error(`no area type "${type}"`);
  return k;
}

export function isAreaType(type: unknown): type is AreaType {
  return typeof type === 'string' && BY_TYPE.has(type);
}
