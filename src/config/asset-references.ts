// The fonts and images a configuration names, found in its JSON (includes expanded) as
// normalize.ts resolves them: what an archive carries and what the configuration digest hashes.
import { APPLIES_TO, DEFAULTS, FILE_TYPES } from './areas.js';
import { pointer } from './faults.js';
import type { AssetFolder } from './files.js';
import type { AreaType } from './types.js';

type Raw = Record<string, unknown>;
const isObj = (v: unknown): v is Raw => v !== null && typeof v === 'object' && !Array.isArray(v);

export interface AssetReference {
  folder: AssetFolder;
  name: string;
  at: string;
}

/** The fonts and images normalize.ts resolves, found the same way in the expanded configuration. */
export function assetReferences(config: Raw): AssetReference[] {
  const refs: AssetReference[] = [];
  for (const [id, d] of Object.entries(isObj(config.displays) ? config.displays : {})) {
    if (!isObj(d)) continue;
    if (isObj(d.startScreen) && typeof d.startScreen.image === 'string') {
      refs.push({ folder: 'images', name: d.startScreen.image, at: pointer('displays', id, 'startScreen', 'image') });
    }
    for (const [layout, l] of Object.entries(isObj(d.layout) ? d.layout : {})) {
      for (const [areaId, a] of Object.entries(isObj(l) ? l : {})) {
        if (!isObj(a)) continue;
        const at = (...s: string[]) => pointer('displays', id, 'layout', layout, areaId, ...s);
        const type = a.type as AreaType;
        if (FILE_TYPES[type]) {
          for (const [k, v] of Object.entries(isObj(a.params) ? a.params : {})) {
            if (typeof v === 'string') refs.push({ folder: 'images', name: v, at: at('params', k) });
          }
          if (typeof a.defaultValue === 'string' && a.defaultValue !== '')
            refs.push({ folder: 'images', name: a.defaultValue, at: at('defaultValue') });
        }
        if (APPLIES_TO.font.includes(type))
          refs.push({
            folder: 'fonts',
            name: typeof a.font === 'string' ? a.font : DEFAULTS.defaultFont,
            at: at('font'),
          });
        // Sign text's lists: MULTI [fo<n>] fonts and [g<n>] graphics.
        for (const [key, folder] of [
          ['fonts', 'fonts'],
          ['graphics', 'images'],
        ] as const) {
          const list = Array.isArray(a[key]) ? (a[key] as unknown[]) : [];
          list.forEach((v, i) => {
            if (typeof v === 'string') refs.push({ folder, name: v, at: at(key, String(i)) });
          });
        }
      }
    }
  }
  return refs;
}
