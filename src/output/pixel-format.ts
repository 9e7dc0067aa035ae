// Pixel layouts the outputs write, in the kernel's bitfield terms, and the brightness table
// that scales pixels when a panel has no hardware brightness of its own.
import { optionalNativeHelper, type NativeHelper, type PixelFormat } from '../native/helper.js';

const f = (
  bpp: number,
  r: number,
  rl: number,
  g: number,
  gl: number,
  b: number,
  bl: number,
  t = 0,
  tl = 0,
): PixelFormat => ({
  bitsPerPixel: bpp,
  red: { offset: r, length: rl },
  green: { offset: g, length: gl },
  blue: { offset: b, length: bl },
  transp: { offset: t, length: tl },
});

/** Little-endian bitfields, as fb_var_screeninfo reports them on x86 and ARM. */
export const FORMATS = {
  RGB565: f(16, 11, 5, 5, 6, 0, 5),
  /** Bytes B,G,R in memory: what fbdev calls 24 bpp with red at offset 16. */
  BGR888: f(24, 16, 8, 8, 8, 0, 8),
  /** Bytes R,G,B in memory: the wire order of DDP and Colorlight rows. */
  RGB888: f(24, 0, 8, 8, 8, 16, 8),
  XRGB8888: f(32, 16, 8, 8, 8, 0, 8),
  ARGB8888: f(32, 16, 8, 8, 8, 0, 8, 24, 8),
  /** DRM's BGRX8888: bytes X,R,G,B in memory. */
  BGRX8888: f(32, 8, 8, 16, 8, 24, 8),
} as const satisfies Record<string, PixelFormat>;

export function formatName(p: PixelFormat): string {
  const same = (a: PixelFormat, b: PixelFormat) =>
    a.bitsPerPixel === b.bitsPerPixel &&
    (['red', 'green', 'blue', 'transp'] as const).every(
      (c) => a[c].offset === b[c].offset && a[c].length === b[c].length,
    );
  for (const [name, fmt] of Object.entries(FORMATS)) if (same(p, fmt)) return name;
  const c = (b: { offset: number; length: number }) => `${b.offset}/${b.length}`;
  return `${p.bitsPerPixel}bpp r${c(p.red)} g${c(p.green)} b${c(p.blue)} t${c(p.transp)}`;
}

const toLinear = (v: number) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
const toSrgb = (v: number) => (v <= 0.0031308 ? v * 12.92 : 1.055 * v ** (1 / 2.4) - 0.055);

/**
 * 256-entry table scaling light output to `percent`: the scaling happens in linear light, so
 * 50% halves the emitted light instead of darkening mid-tones more than highlights.
 * undefined at 100%, where the outputs skip the table entirely.
 */
export function brightnessTable(percent: number): Uint8Array | undefined {
  const p = Math.min(100, Math.max(0, percent));
  if (p >= 100) return undefined;
  const t = new Uint8Array(256);
  for (let i = 0; i < 256; i++) t[i] = Math.round(255 * toSrgb(toLinear(i / 255) * (p / 100)));
  return t;
}

let native: NativeHelper | null | undefined;

/**
 * RGBA to packed R,G,B bytes: `rows` runs of `pixels` pixels, source runs `srcStride` bytes apart,
 * destination runs `dstStride` apart from dst[offset] (a packet's payload in every row packet).
 * Through the native helper when it is built; DDP must not need it, so a plain loop stands in.
 */
export function rgbaToRgb(
  src: Uint8Array,
  pixels: number,
  dst: Uint8Array,
  offset: number,
  lut?: Uint8Array,
  rows = 1,
  srcStride = pixels * 4,
  dstStride = pixels * 3,
): void {
  if (native === undefined) {
    native = optionalNativeHelper() ?? null;
  }
  if (native) native.convert(src, pixels, rows, dst, offset, dstStride, FORMATS.RGB888, lut, srcStride);
  else rgbaToRgbPortable(src, pixels, dst, offset, lut, rows, srcStride, dstStride);
}

/** The same as rgbaToRgb in plain JavaScript: the fallback, and the reference the tests hold it to. */
export function rgbaToRgbPortable(
  src: Uint8Array,
  pixels: number,
  dst: Uint8Array,
  offset: number,
  lut: Uint8Array | undefined,
  rows: number,
  srcStride: number,
  dstStride: number,
): void {
  for (let r = 0; r < rows; r++) {
    for (let i = 0, s = r * srcStride, d = offset + r * dstStride; i < pixels; i++, s += 4, d += 3) {
      dst[d] = lut ? lut[src[s]] : src[s];
      dst[d + 1] = lut ? lut[src[s + 1]] : src[s + 1];
      dst[d + 2] = lut ? lut[src[s + 2]] : src[s + 2];
    }
  }
}
