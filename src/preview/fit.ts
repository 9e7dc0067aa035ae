import path from 'node:path';
import { pointer } from '../config/faults.js';
import type { ServiceConfig, TextArea } from '../config/types.js';
import { kindOf } from '../config/area-types/registry.js';
import type { ConfigText } from '../config/area-types/area-type.js';
import { needsLayout, signTextContent } from '../render/content/sign-text.js';
import { multiFitFault } from '../config/area-types/multi-fit.js';
import { TextContent } from '../render/content/text.js';
import { PACKAGE_FONT_DIR, useFontDirs } from '../text/fonts.js';

/** The font folders the service renders with (its own fonts/ first): widths depend on the fallback chain. */
export function fontDirsOf(config: ServiceConfig): string[] {
  return [path.join(config.dir, 'fonts'), PACKAGE_FONT_DIR];
}

/**
 * Width of `text` in the area's font (whole px, rounded up), whether the panel scrolls it,
 * and how many pixels of its widest line pages cut at the area's edge (overflow "pages"
 * without wrap). The renderer's own contents decide, so the verdict is what the panel does.
 * The font folders must be in use (useFontDirs) first.
 */
export function measureLine(
  area: TextArea,
  text: string,
  fontSize = area.fontSize,
): { width: number; scrolls: boolean; clippedPx?: number } {
  if (needsLayout(area, text)) {
    const block = signTextContent({ area, text, size: fontSize, color: area.fontColor, pxPerSecond: 1, origin: 0 });
    return { width: block.blockWidth, scrolls: block.scrolls, clippedPx: block.textFit.clippedPx };
  }
  const line = new TextContent({
    text,
    style: { font: area.font, size: fontSize, color: area.fontColor },
    width: area.width,
    height: area.height,
    align: area.align,
    pxPerSecond: 1,
    headToTail: 0,
    origin: 0,
  });
  return { width: Math.ceil(line.strip.width), scrolls: line.scrolls };
}

const quote = (s: string) => JSON.stringify(s.length > 60 ? s.slice(0, 57) + '...' : s);

/**
 * Texts the configuration itself puts in an area (a static area's params, a text area's
 * defaultValue) that are wider than the area: the panel scrolls them, which the
 * specification says goes unnoticed, or cuts a line at the edge (pages without wrap).
 * Warnings, not faults: both are allowed.
 */
export function fitWarnings(config: ServiceConfig): string[] {
  useFontDirs(fontDirsOf(config));
  const out: string[] = [];
  const check = (where: string, area: TextArea, { text, key }: ConfigText) => {
    const what = key === undefined ? 'defaultValue ' : `params ${quote(key)} text `;
    // A MULTI page that does not fit is refused in a command (one selecting its key).
    const multi = multiFitFault(area, text, area.fontSize);
    if (multi) {
      const refused = key !== undefined ? '; a command selecting it is refused' : '';
      out.push(`${where}: ${what}${quote(text)}: ${multi}${refused}`);
      return;
    }
    const line = measureLine(area, text);
    if (line.scrolls)
      out.push(`${where}: ${what}${quote(text)} is ${line.width} px wide and will scroll in ${area.width} px`);
    if (line.clippedPx)
      out.push(
        `${where}: ${what}${quote(text)} has a line ${line.clippedPx} px wider than the area (${area.width} px): ` +
          `its end is cut (overflow "pages" without wrap)`,
      );
  };
  for (const d of config.displays) {
    for (const [name, layout] of d.layouts) {
      for (const a of layout.areas) {
        const at = pointer('displays', d.id, 'layout', name, a.id);
        kindOf(a.type).configTexts?.(a, (area, text) => check(at, area, text));
      }
    }
  }
  return out;
}
