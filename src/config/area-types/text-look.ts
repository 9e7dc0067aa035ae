// Sign-text fields (docs/configuration.md, "Sign text"): checked at load, and turned into a
// laid-out block when a value is drawn.
import { DEFAULTS, defaultFontSize } from '../defaults.js';
import { pointer } from '../faults.js';
import { parseBoolLike, parseColorParts, parseIntLike, parseNumLike } from '../scalars.js';
import { resolveAsset } from '../files.js';
import type { Rgb } from '../../frame.js';
import { BdfError, bitmapScale, bitmapSizes, isBitmapFontFile, loadBdf } from '../../text/bdf.js';
import type { Align } from '../../text/doc.js';
import type { GLYPH_LOOK, SCROLLING, SIGN_TEXT, TEXT_LOOK } from './area-fields.js';
import type { AreaRules } from './area-type.js';
import type { NormalizedFields, TextArea } from './normalized-area.js';
import { fontOf } from './rules.js';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The fields of the groups of area-fields.ts, as normalized. */
type TextLook = Pick<NormalizedFields, keyof typeof TEXT_LOOK | keyof typeof GLYPH_LOOK>;
type SignTextLook = TextLook & Pick<NormalizedFields, keyof typeof SIGN_TEXT>;
export type Scrolling = Pick<NormalizedFields, keyof typeof SCROLLING>;

function files(
  r: AreaRules,
  key: 'fonts' | 'graphics',
  folder: 'fonts' | 'images',
  ok: RegExp,
  kinds: string,
): string[] | undefined {
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
  try {
    loadBdf(file);
    return false;
  } catch (err) {
    r.fault(at, `cannot be read as a BDF font: ${err instanceof BdfError ? err.message : String(err)}`);
    return true;
  }
}

/** The area's font (TrueType or BDF) and, for a BDF font, the size it draws at. */
function fontLook(r: AreaRules): { font?: string; fontSize?: number } {
  const font = fontOf(r);
  if (!font || !isBitmapFontFile(font)) return { font };
  if (bdfFault(r, '/font', font)) return {};
  const bdf = loadBdf(font);
  const asked = parseIntLike(r.raw.fontSize);
  // Without a fontSize a bitmap font draws at its own pixel size.
  if (asked === undefined) return { font, fontSize: bdf.pixelSize };
  if (!bitmapScale(bdf, asked))
    r.fault(
      '/fontSize',
      `${asked} does not suit the bitmap font ${String(r.raw.font)}: use its pixel size or a whole multiple ` +
        `(${bitmapSizes(bdf, r.height)})`,
    );
  return { font };
}

function rgb(v: unknown): Rgb | undefined {
  const p = parseColorParts(v);
  return p && p.length === 3 ? { r: p[0], g: p[1], b: p[2] } : undefined;
}

/** How a text looks (date areas: a BDF font, antialias): the font resolved, and the size a BDF font draws at. */
export function textLook(r: AreaRules): TextLook {
  const { font, fontSize } = fontLook(r);
  return {
    align: (r.raw.align as Align | undefined) ?? DEFAULTS.align,
    font,
    fontSize: fontSize ?? parseIntLike(r.raw.fontSize) ?? defaultFontSize(r.height),
    fontColor: rgb(r.raw.fontColor) ?? DEFAULTS.fontColor,
    antialias: str(r.raw.antialias) as TextLook['antialias'],
  };
}

/** How a line that does not fit scrolls (text and dynamic areas). */
export function scrolling(r: AreaRules): Scrolling {
  return {
    textFromStart: parseBoolLike(r.raw.textFromStart) ?? DEFAULTS.textFromStart,
    textLiveUpdate: parseBoolLike(r.raw.textLiveUpdate) ?? DEFAULTS.textLiveUpdate,
    headToTail: parseIntLike(r.raw.headToTail) ?? DEFAULTS.headToTail,
    scrollSpeed: parseIntLike(r.raw.scrollSpeed) ?? DEFAULTS.scrollSpeed,
  };
}

/** How an area's text scrolls: its own settings, or the defaults in a type that takes none (static). */
export function scrollingOf(a: TextArea): Scrolling {
  return {
    textFromStart: a.textFromStart ?? DEFAULTS.textFromStart,
    textLiveUpdate: a.textLiveUpdate ?? DEFAULTS.textLiveUpdate,
    headToTail: a.headToTail ?? DEFAULTS.headToTail,
    scrollSpeed: a.scrollSpeed ?? DEFAULTS.scrollSpeed,
  };
}

/**
 * A table's columns: together at most as wide as the area; a table's rows are never wrapped.
 * A board's columns (`board`: a departures area) say what each shows; a text area's cells are its value's.
 */
export function columnsOf(r: AreaRules, board: boolean): NormalizedFields['columns'] {
  const list = r.raw.columns;
  if (!Array.isArray(list)) return undefined;
  const columns = list.map((c: Record<string, unknown>) => {
    const gap = parseIntLike(c.gap);
    return { width: parseIntLike(c.width) ?? 1, align: (str(c.align) ?? 'left') as Align, ...(gap ? { gap } : {}) };
  });
  const total = columns.reduce((w, c) => w + c.width + (c.gap ?? 0), 0);
  if (total > r.width) r.fault('/columns', `are ${total} px wide together, the area ${r.width} px`);
  if (parseBoolLike(r.raw.wrap)) r.fault('/wrap', 'does not apply with columns (a cell too wide is cut at its column)');
  list.forEach((c: Record<string, unknown>, i) => {
    if (board && c.field === undefined)
      r.fault(pointer('columns', String(i)), 'needs a field (route, destination, platform, countdown, time or spacer)');
    if (!board && c.field !== undefined)
      r.fault(pointer('columns', String(i), 'field'), 'applies only to departures areas');
  });
  return columns;
}

/** The sign-text fields and the text's look, checked; `board`: the columns are a departure board's (columnsOf). */
export function signTextLook(r: AreaRules, board = false): SignTextLook {
  const minFontSize = parseIntLike(r.raw.minFontSize);
  const fit = str(r.raw.fit) as SignTextLook['fit'];
  if (minFontSize !== undefined && fit !== 'shrink') r.fault('/minFontSize', 'applies only with fit "shrink"');
  return {
    ...textLook(r),
    wrap: parseBoolLike(r.raw.wrap),
    lineSpacing: parseIntLike(r.raw.lineSpacing),
    valign: str(r.raw.valign) as SignTextLook['valign'],
    overflow: str(r.raw.overflow) as SignTextLook['overflow'],
    pageSeconds: parseNumLike(r.raw.pageSeconds),
    sync: str(r.raw.sync) as SignTextLook['sync'],
    fit,
    minFontSize,
    fonts: files(r, 'fonts', 'fonts', /\.(ttf|otf|bdf)$/i, '.ttf, .otf or .bdf'),
    graphics: files(r, 'graphics', 'images', /\.(png|jpe?g|gif)$/i, '.png, .jpg or .gif'),
    markup: str(r.raw.markup) as SignTextLook['markup'],
    scrollDirection: str(r.raw.scrollDirection) as SignTextLook['scrollDirection'],
    columns: columnsOf(r, board),
    speak: parseBoolLike(r.raw.speak),
  };
}
