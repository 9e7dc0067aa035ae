// Sign-text fields (docs/configuration.md, "Sign text"): checked at load, and turned into a
// laid-out block when a value is drawn.
import { pointer } from '../faults.js';
import { parseBoolLike, parseIntLike, parseNumLike } from '../scalars.js';
import { resolveAsset } from '../files.js';
import type { Align, AreaConfig } from '../types.js';
import { BdfError, bitmapScale, bitmapSizes, isBitmapFontFile, loadBdf } from '../../text/bdf.js';
import type { AreaRules } from './area-type.js';
import { fontOf } from './rules.js';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function files(r: AreaRules, key: 'fonts' | 'graphics', folder: 'fonts' | 'images', ok: RegExp, kinds: string): string[] | undefined {
  const list = r.raw[key];
  if (!Array.isArray(list)) return undefined;
  const out: string[] = [];
  list.forEach((name, i) => {
    if (typeof name !== 'string') return;
    const found = resolveAsset(r.dir, folder, name);
    if ('error' in found) r.fault(pointer(key, String(i)), found.error);
    else if (!ok.test(found.file)) r.fault(pointer(key, String(i)), `must be a ${kinds} file`);
    else if (isBitmapFontFile(found.file) && bdfFault(r, pointer(key, String(i)), found.file)) return;
    else out.push(found.file);
  });
  return out;
}

function bdfFault(r: AreaRules, at: string, file: string): boolean {
  try { loadBdf(file); return false; } catch (err) {
    r.fault(at, `cannot be read as a BDF font: ${err instanceof BdfError ? err.message : String(err)}`);
    return true;
  }
}

/** The area's font (TrueType or BDF) and, for a BDF font, the size it draws at. */
function fontLook(r: AreaRules): Partial<AreaConfig> {
  const font = fontOf(r);
  if (!font || !isBitmapFontFile(font)) return { font };
  if (bdfFault(r, '/font', font)) return {};
  const bdf = loadBdf(font);
  const asked = parseIntLike(r.raw.fontSize);
  // Without a fontSize a bitmap font draws at its own pixel size.
  if (asked === undefined) return { font, fontSize: bdf.pixelSize };
  if (!bitmapScale(bdf, asked)) r.fault('/fontSize', `${asked} does not suit the bitmap font ${String(r.raw.font)}: use its pixel size or a whole multiple (${bitmapSizes(bdf, r.height)})`);
  return { font };
}

/** Date areas: a BDF font, antialias. */
export function glyphLook(r: AreaRules): Partial<AreaConfig> {
  return { ...fontLook(r), antialias: str(r.raw.antialias) as AreaConfig['antialias'] };
}

/** A table's columns: together at most as wide as the area; a table's rows are never wrapped. */
export function columnsOf(r: AreaRules): AreaConfig['columns'] {
  const list = r.raw.columns;
  if (!Array.isArray(list)) return undefined;
  const columns = list.map((c: Record<string, unknown>) => ({ width: parseIntLike(c.width) ?? 1, align: (str(c.align) ?? 'left') as Align }));
  const total = columns.reduce((w, c) => w + c.width, 0);
  if (total > r.width) r.fault('/columns', `are ${total} px wide together, the area ${r.width} px`);
  if (parseBoolLike(r.raw.wrap)) r.fault('/wrap', 'does not apply with columns (a cell too wide is cut at its column)');
  // A departures area says what each column shows; a text area's cells are its value's.
  const board = r.raw.type === 'departures';
  list.forEach((c: Record<string, unknown>, i) => {
    if (board && c.field === undefined) r.fault(pointer('columns', String(i)), 'needs a field (route, destination, platform, countdown or time)');
    if (!board && c.field !== undefined) r.fault(pointer('columns', String(i), 'field'), 'applies only to departures areas');
  });
  return columns;
}

export function signTextLook(r: AreaRules): Partial<AreaConfig> {
  const minFontSize = parseIntLike(r.raw.minFontSize);
  const fit = str(r.raw.fit) as AreaConfig['fit'];
  if (minFontSize !== undefined && fit !== 'shrink') r.fault('/minFontSize', 'applies only with fit "shrink"');
  return {
    ...glyphLook(r),
    wrap: parseBoolLike(r.raw.wrap),
    lineSpacing: parseIntLike(r.raw.lineSpacing),
    valign: str(r.raw.valign) as AreaConfig['valign'],
    overflow: str(r.raw.overflow) as AreaConfig['overflow'],
    pageSeconds: parseNumLike(r.raw.pageSeconds),
    fit,
    minFontSize,
    fonts: files(r, 'fonts', 'fonts', /\.(ttf|otf|bdf)$/i, '.ttf, .otf or .bdf'),
    graphics: files(r, 'graphics', 'images', /\.(png|jpe?g|gif)$/i, '.png, .jpg or .gif'),
    markup: str(r.raw.markup) as AreaConfig['markup'],
    scrollDirection: str(r.raw.scrollDirection) as AreaConfig['scrollDirection'],
    columns: columnsOf(r),
    speak: parseBoolLike(r.raw.speak),
  };
}
