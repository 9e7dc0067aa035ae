// `mlds test`'s legibility check of a display that states its LED pitch and the distance it is
// read from (docs/rendering.md, "Legibility"): capital height against the distance, text against
// background contrast, and departures that scroll without a stop. Warnings only: a configuration
// may knowingly differ (a sign read from closer than its stated distance).
import type { AreaConfig, DisplayConfig, ServiceConfig } from '../config/types.js';
import type { Rgb } from '../frame.js';
import { pointer } from '../config/faults.js';
import { capHeightPx } from '../text/cap-height.js';
import { faceFor } from '../text/faces.js';
import { useFontDirs } from '../text/fonts.js';
import { fontDirsOf } from './fit.js';

const MM_PER_FOOT = 304.8;

/**
 * Minimum capital height in mm at a horizontal viewing distance, for a sign whose characters
 * stand more than 120 in (3050 mm) above the floor, as platform signs hang: the low-resolution
 * variable message sign table (4 in under 20 ft, then 1/5 in a foot), and ADA 703.5.5's row
 * for static signs at that height (3 in under 21 ft, then 1/8 in a foot).
 */
export function minCapHeightMm(viewingDistanceM: number): { vms: number; ada: number } {
  const feet = (viewingDistanceM * 1000) / MM_PER_FOOT;
  const beyond = (from: number) => Math.max(0, feet - from);
  return { vms: 4 * 25.4 + (25.4 / 5) * beyond(20), ada: 3 * 25.4 + (25.4 / 8) * beyond(21) };
}

/** Relative luminance of an sRGB colour (WCAG 2). */
export function luminance(c: Rgb): number {
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}

/** Contrast as the ADA's advisory states it, (B1 - B2) / B1 with B1 the lighter; 0 for two blacks. */
export function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return hi === 0 ? 0 : (hi - lo) / hi;
}

const BLACK: Rgb = { r: 0, g: 0, b: 0 };
/** The area's background as it shows: its colour over the unit's black by its alpha; none: black. */
function shownBackground(a: AreaConfig): Rgb {
  const bg = a.backgroundColor;
  if (!bg) return BLACK;
  return { r: bg.r * bg.a, g: bg.g * bg.a, b: bg.b * bg.a };
}

const fmt = (n: number, digits = 0) => n.toFixed(digits);

function areaWarnings(d: DisplayConfig, layout: string, a: AreaConfig): string[] {
  if (!('fontSize' in a)) return [];
  const at = pointer('displays', d.id, 'layout', layout, a.id);
  const out: string[] = [];
  if (d.pitchMm !== undefined && d.viewingDistanceM !== undefined) {
    // A text that shrinks to fit may be drawn down to minFontSize: the smallest is what is read.
    const shrinks = 'fit' in a && a.fit === 'shrink';
    const size = shrinks && 'minFontSize' in a && a.minFontSize !== undefined ? a.minFontSize : a.fontSize;
    let capPx: number | undefined;
    try {
      capPx = capHeightPx(faceFor(a.font, size, 'antialias' in a && a.antialias === 'none'));
    } catch {
      /* a bitmap font at a size it cannot take: its fault is reported elsewhere */
    }
    if (capPx !== undefined) {
      const capMm = capPx * d.pitchMm;
      const need = minCapHeightMm(d.viewingDistanceM);
      if (capMm < need.vms) {
        out.push(
          `${at}: capital height ${capPx} px x ${d.pitchMm} mm = ${fmt(capMm, 1)} mm at fontSize ${size} ` +
            `is under the ${fmt(need.vms)} mm a viewing distance of ${d.viewingDistanceM} m needs ` +
            `(changeable message sign; ADA 703.5.5 asks ${fmt(need.ada)} mm of a static sign)`,
        );
      }
    }
  }
  const bg = shownBackground(a);
  const c = contrast(a.fontColor, bg);
  if (c < 0.7) {
    const col = (x: Rgb) => `${Math.round(x.r)} ${Math.round(x.g)} ${Math.round(x.b)}`;
    out.push(`${at}: contrast of text ${col(a.fontColor)} on background ${col(bg)} is ${fmt(c * 100)} %, under 70 %`);
  }
  // A board (an area holding `departures`) pages unless told to scroll.
  if ('departures' in a && (a.overflow ?? 'pages') !== 'pages') {
    const how = `overflow "${a.overflow}"`;
    out.push(`${at}: departures scroll continuously (${how}): a row that moves is hard to read; use overflow "pages"`);
  }
  return out;
}

/** The legibility warnings of every display that states pitchMm or viewingDistanceM. */
export function legibilityWarnings(config: ServiceConfig): string[] {
  useFontDirs(fontDirsOf(config));
  const out: string[] = [];
  for (const d of config.displays) {
    if (d.pitchMm === undefined && d.viewingDistanceM === undefined) continue;
    if (d.pitchMm === undefined || d.viewingDistanceM === undefined) {
      const missing = d.pitchMm === undefined ? 'pitchMm' : 'viewingDistanceM';
      out.push(`${pointer('displays', d.id)}: no ${missing}: character height is not checked`);
    }
    for (const [name, layout] of d.layouts) for (const a of layout.areas) out.push(...areaWarnings(d, name, a));
  }
  return out;
}
