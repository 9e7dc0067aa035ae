import { registerFont } from 'canvas';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renamedCopy } from './font-copies.js';

// node-canvas (pango) only sees a font file once it is registered with fontconfig, and pango
// then picks a face by the family and style names inside the file, whatever name registerFont
// is given: DejaVuSans-Bold.ttf in two folders drew the regular face. So each file is
// registered as a copy renamed to a family of its own (font-rename.ts), and the face drawn is
// the file named. Registration is process-wide and cannot be undone: once per file.
const families = new Map<string, string>();
/** Families of every font found in the font folders, in search order: the fallback chain. */
let fallbackChain: string[] = [];
/** The files behind fallbackChain, in the same order (for which characters they have). */
let chainFiles: string[] = [];
let defaultFile: string | undefined;

/**
 * Monochrome symbol fonts from Debian (fonts-symbola, in the Makefile's APT_PKGS; Noto's
 * symbols when installed), last in the chain: 🚌 ♿ ⚠ ✈ → draw as symbols in the text's colour.
 */
const SYMBOL_FONTS = [
  '/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf',
  '/usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf',
];
const SYSTEM_DEFAULT_FILE = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

/** The package's own fonts/ (src/render and dist/render both sit two levels below the root). */
export const PACKAGE_FONT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fonts');
const DEFAULT_NAME = 'DejaVuSans.ttf';
/** System family used when no DejaVuSans.ttf is in any font folder (fonts-dejavu-core). */
const SYSTEM_DEFAULT = 'DejaVu Sans';

/** Files fontconfig refused (missing, not a font), with the reason: shown as faults, drawn in the default font. */
const refused = new Map<string, string>();

function register(file: string): string | undefined {
  let family = families.get(file);
  if (!family && !refused.has(file)) {
    family = `mlds${families.size}${path.basename(file, path.extname(file)).replace(/[^A-Za-z0-9]/g, '')}`;
    try {
      registerFont(renamedCopy(file, family) ?? file, { family });
      families.set(file, family);
    } catch (err) {
      refused.set(file, err instanceof Error ? err.message : String(err));
      family = undefined;
    }
  }
  return family;
}

/** Font files that could not be used, by path. */
export function fontFaults(): Map<string, string> {
  return new Map(refused);
}

/**
 * Registers every .ttf/.otf in the given folders (service fonts/ first, then the package's).
 * A glyph missing from an area's font is then looked up in these files, in this order,
 * before pango falls back to system fonts or draws a box: the panel's own fonts decide.
 */
export function useFontDirs(dirs: string[] = [PACKAGE_FONT_DIR]): void {
  const chain: string[] = [];
  const files = new Map<string, string>();
  defaultFile = undefined;
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir)
        .filter((n) => /\.(ttf|otf)$/i.test(n))
        .sort();
    } catch {
      continue;
    }
    // The default font leads the fallback chain so a missing glyph looks like the rest of the UI.
    if (!defaultFile && names.includes(DEFAULT_NAME)) defaultFile = path.join(dir, DEFAULT_NAME);
    for (const n of names) {
      const family = register(path.join(dir, n));
      if (family) {
        chain.push(family);
        files.set(family, path.join(dir, n));
      }
    }
  }
  for (const file of SYMBOL_FONTS) {
    const family = existsSync(file) ? register(file) : undefined;
    if (family) {
      chain.push(family);
      files.set(family, file);
    }
  }
  const lead = (defaultFile && register(defaultFile)) || SYSTEM_DEFAULT;
  fallbackChain = [lead, ...chain.filter((f) => f !== lead)];
  chainFiles = fallbackChain.map(
    (f) => files.get(f) ?? (f === lead && defaultFile ? defaultFile : SYSTEM_DEFAULT_FILE),
  );
}

/** ctx.font value for a size in px and an area font file (undefined: the default font). */
export function cssFont(sizePx: number, file: string | undefined): string {
  if (fallbackChain.length === 0) useFontDirs();
  const first = (file && register(file)) || fallbackChain[0];
  const list = [first, ...fallbackChain.filter((f) => f !== first)];
  return `${sizePx}px ${list.map((f) => `"${f}"`).join(', ')}`;
}

/** Font files of the fallback chain in order, the default font first. */
export function fallbackFiles(): string[] {
  if (fallbackChain.length === 0) useFontDirs();
  return chainFiles;
}
