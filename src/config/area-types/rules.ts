// Configuration rules and request resolution shared by several area types.
import path from 'node:path';
import { DEFAULTS } from '../defaults.js';
import { pointer } from '../faults.js';
import { resolveAsset, unsafeReference } from '../files.js';
import { MldsError } from '../../errors.js';
import { probeSync, type MediaInfo } from '../../media/probe.js';
import type { AreaRules } from './area-type.js';
import type { AreaTaking, NormalizedFields } from './normalized-area.js';

export const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** The params entry a request value names; MLDS_UNKNOWN_PARAM_KEY when it names none. */
export function paramFor(area: AreaTaking<'params'>, value: string): string {
  if (!hasOwn(area.params, value)) {
    const keys = Object.keys(area.params);
    throw new MldsError(
      'MLDS_UNKNOWN_PARAM_KEY',
      `"${area.id}": "${value}" is not one of its params keys ` +
        `(${keys.slice(0, 20).join(', ')}${keys.length > 20 ? ', ...' : ''})`,
      area.id,
    );
  }
  return area.params[value];
}

/** The area's font (the default one when it names none), resolved in fonts/. */
export function fontOf(r: AreaRules): string | undefined {
  const name = typeof r.raw.font === 'string' ? r.raw.font : DEFAULTS.defaultFont;
  const found = resolveAsset(r.dir, 'fonts', name);
  if ('error' in found) r.fault('/font', found.error);
  else if (!/\.(ttf|otf|bdf)$/i.test(found.file)) r.fault('/font', 'must be a .ttf, .otf or .bdf file');
  else return found.file;
  return undefined;
}

/**
 * How a file that is there must look inside: for video and audio its media header (or ffprobe), for pictures their
 * header.
 */
export type MediaCheck =
  { notMedia(info: MediaInfo): string | undefined } | { notPicture(file: string): string | undefined };

function fileCheck(
  dir: string,
  name: string,
  exts: readonly string[],
  media?: MediaCheck,
): { file: string } | { error: string } {
  const unsafe = unsafeReference(name, 'images');
  if (unsafe) return { error: unsafe };
  if (!exts.includes(path.extname(name).toLowerCase())) return { error: `"${name}" must be a ${exts.join(', ')} file` };
  const found = resolveAsset(dir, 'images', name);
  if ('error' in found || !media) return found;
  if ('notPicture' in media) {
    const why = media.notPicture(found.file);
    return why ? { error: `"${name}" ${why}` } : found;
  }
  const probed = probeSync(found.file);
  if ('error' in probed) return { error: `"${name}" cannot be read as ${exts.join(' or ')}: ${probed.error}` };
  // Without ffprobe nothing can be known now; a file that will not play shows a fault on /info instead.
  const why = 'info' in probed ? media.notMedia(probed.info) : undefined;
  return why ? { error: `"${name}" ${why}` } : found;
}

/** The defaultValue as the file writes it. */
export const rawDefault = (r: AreaRules): string | undefined =>
  typeof r.raw.defaultValue === 'string' ? r.raw.defaultValue : undefined;

/** params values and defaultValue naming files in images/: each resolved to its absolute path. */
export function fileFields(
  r: AreaRules,
  exts: readonly string[],
  media?: MediaCheck,
): Pick<NormalizedFields, 'params' | 'defaultValue'> {
  const params = { ...r.params };
  for (const [k, v] of Object.entries(params)) {
    const f = fileCheck(r.dir, v, exts, media);
    if ('error' in f) r.fault(pointer('params', k), f.error);
    else params[k] = f.file;
  }
  let defaultValue = rawDefault(r);
  if (defaultValue !== undefined && defaultValue !== '') {
    const f = fileCheck(r.dir, defaultValue, exts, media);
    if ('error' in f) r.fault('/defaultValue', f.error);
    else defaultValue = f.file;
  }
  return { params, defaultValue };
}

/** A request value of a file type: the file its key names. */
export const resolveFile = (area: AreaTaking<'params'>, value: string) => ({ file: paramFor(area, value) });

/** A file type without a value: its defaultValue file. */
export const fallbackFile = (area: AreaTaking<'params'>) =>
  area.defaultValue ? { file: area.defaultValue } : undefined;
