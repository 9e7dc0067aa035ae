import { registerFont } from 'canvas';
import path from 'node:path';

// node-canvas (pango) only sees a .ttf once it is registered under a family name, and
// registration must precede the canvases that use it; one family per file keeps two
// fonts with the same internal name apart.
const families = new Map<string, string>();

/** The family name to put in ctx.font for a font file (registered on first use). */
export function fontFamily(file: string | undefined): string {
  if (!file) return DEFAULT_FAMILY;
  let family = families.get(file);
  if (!family) {
    family = `mlds-${families.size}-${path.basename(file, path.extname(file)).replace(/[^A-Za-z0-9]/g, '')}`;
    registerFont(file, { family });
    families.set(file, family);
  }
  return family;
}

export const DEFAULT_FAMILY = 'DejaVu Sans';

export function cssFont(sizePx: number, file: string | undefined): string {
  return `${sizePx}px "${fontFamily(file)}"`;
}
