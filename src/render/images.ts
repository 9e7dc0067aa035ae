import { createCanvas, loadImage, type Canvas, type Image } from 'canvas';
import { readFile } from 'node:fs/promises';
import { decodeGif, type GifFrame } from './areas/gif.js';

export type Picture =
  | { kind: 'still'; width: number; height: number; image: Image | Canvas }
  | { kind: 'animation'; width: number; height: number; frames: GifFrame[]; totalMs: number };

// Decoded pictures by absolute path. Loading is async, drawing is sync: control awaits
// preloadImage() before it commits new content, so the render path only reads the cache.
const cache = new Map<string, Picture>();
const loading = new Map<string, Promise<Picture>>();
// Pictures resized for an area, by path and size: scaling a large picture on every frame
// of an animation would cost far more than drawing it.
const fitted = new Map<string, Array<Image | Canvas>>();

function isGif(b: Uint8Array): boolean {
  return b.length > 6 && b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38;
}

async function decode(file: string): Promise<Picture> {
  const bytes = await readFile(file);
  if (isGif(bytes)) {
    const frames = decodeGif(bytes);
    if (frames.length === 0) throw new Error(`${file}: GIF has no frames`);
    const { width, height } = frames[0].canvas;
    if (frames.length === 1) return { kind: 'still', width, height, image: frames[0].canvas };
    return { kind: 'animation', width, height, frames, totalMs: frames.reduce((s, f) => s + f.delayMs, 0) };
  }
  const image = await loadImage(bytes);
  return { kind: 'still', width: image.width, height: image.height, image };
}

/** Decodes a PNG, JPEG or GIF into the cache; rejects on a missing file or a decoder error. */
export function preloadImage(file: string): Promise<Picture> {
  const hit = cache.get(file);
  if (hit) return Promise.resolve(hit);
  let p = loading.get(file);
  if (!p) {
    p = decode(file).then(
      (pic) => { cache.set(file, pic); loading.delete(file); return pic; },
      (err: unknown) => { loading.delete(file); throw err; },
    );
    loading.set(file, p);
  }
  return p;
}

export function cachedPicture(file: string): Picture | undefined {
  return cache.get(file);
}

/** Drops decoded pictures (after a configuration reload, when files may have changed). */
export function forgetImages(): void {
  cache.clear();
  fitted.clear();
}

/** Size a picture is drawn at in an area: scaled down keeping its aspect ratio, never up. */
export function fitSize(pw: number, ph: number, aw: number, ah: number): { w: number; h: number } {
  const scale = Math.min(1, aw / pw, ah / ph);
  return { w: Math.max(1, Math.round(pw * scale)), h: Math.max(1, Math.round(ph * scale)) };
}

/** The picture's frames at the size they are drawn in an area of aw x ah. */
export function fittedFrames(file: string, pic: Picture, aw: number, ah: number): Array<Image | Canvas> {
  const { w, h } = fitSize(pic.width, pic.height, aw, ah);
  const key = `${file}\n${w}x${h}`;
  let out = fitted.get(key);
  if (!out) {
    const sources = pic.kind === 'still' ? [pic.image] : pic.frames.map((f) => f.canvas);
    out = w === pic.width && h === pic.height ? sources : sources.map((src) => {
      const c = createCanvas(w, h);
      const ctx = c.getContext('2d');
      ctx.quality = 'best';
      ctx.drawImage(src, 0, 0, w, h);
      return c;
    });
    fitted.set(key, out);
  }
  return out;
}
