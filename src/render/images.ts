import { createCanvas, loadImage, type Canvas, type Image } from 'canvas';
import { readFile } from 'node:fs/promises';
import { bufferReader, pictureFault, pictureFileFault, pictureHeader } from '../media/picture-header.js';
import { GifAnimation } from './gif.js';
/** The cache drops least recently used pictures past this; pictures on screen stay alive through their areas. */
const CACHE_BUDGET = 192 * 1024 * 1024;

type Drawable = Image | Canvas;

export type Picture = (
  | { kind: 'still'; image: Drawable }
  | { kind: 'animation'; anim: GifAnimation }
) & {
  width: number;
  height: number;
  bytes: number;
  /** Copies resized for an area, by "w x h": scaling a large picture every frame costs far more than drawing it. */
  fitted: Map<string, Drawable[]>;
};

// Decoded pictures by absolute path, least recently used first. Loading is async, drawing
// is sync: control awaits preloadImage() before it commits new content, so the render
// path only reads the cache.
const cache = new Map<string, Picture>();
const loading = new Map<string, Promise<Picture>>();
let cachedBytes = 0;

async function decode(file: string): Promise<Picture> {
  // By the header alone, remembered per file identity: a picture too large is never read whole, let alone decoded.
  const known = pictureFileFault(file);
  if (known) throw new Error(`${file} ${known}`);
  const bytes = await readFile(file);
  // Again on the bytes decoded: the file may have been replaced since.
  const header = pictureHeader(bufferReader(bytes));
  const fault = pictureFault(header);
  if (fault) throw new Error(`${file} ${fault}`);
  if ('format' in header && header.format === 'gif') {
    const anim = new GifAnimation(bytes);
    const base = { width: anim.width, height: anim.height, fitted: new Map<string, Drawable[]>() };
    if (anim.frameCount === 1) return { kind: 'still', image: anim.frame(0), bytes: anim.bytes, ...base };
    return { kind: 'animation', anim, bytes: anim.bytes, ...base };
  }
  const image = await loadImage(bytes);
  return { kind: 'still', image, width: image.width, height: image.height, bytes: image.width * image.height * 4, fitted: new Map() };
}

function remember(file: string, pic: Picture): void {
  cache.set(file, pic);
  cachedBytes += pic.bytes;
  for (const [f, p] of cache) {
    if (cachedBytes <= CACHE_BUDGET || f === file) break;
    cache.delete(f);
    cachedBytes -= p.bytes;
  }
}

/** Decodes a PNG, JPEG or GIF into the cache; rejects on a missing file, a decoder error or a picture too large. */
export function preloadImage(file: string): Promise<Picture> {
  const hit = cachedPicture(file);
  if (hit) return Promise.resolve(hit);
  let p = loading.get(file);
  if (!p) {
    p = decode(file).then(
      (pic) => { loading.delete(file); remember(file, pic); return pic; },
      (err: unknown) => { loading.delete(file); throw err; },
    );
    loading.set(file, p);
  }
  return p;
}

export function cachedPicture(file: string): Picture | undefined {
  const pic = cache.get(file);
  if (pic) {
    cache.delete(file);
    cache.set(file, pic);
  }
  return pic;
}

/** Drops decoded pictures (after a configuration reload, when files may have changed). */
export function forgetImages(): void {
  cache.clear();
  cachedBytes = 0;
}

/** Size a picture is drawn at in an area: scaled down keeping its aspect ratio, never up. */
export function fitSize(pw: number, ph: number, aw: number, ah: number): { w: number; h: number } {
  const scale = Math.min(1, aw / pw, ah / ph);
  return { w: Math.max(1, Math.round(pw * scale)), h: Math.max(1, Math.round(ph * scale)) };
}

function scaled(src: Drawable, w: number, h: number, into?: Canvas): Canvas {
  const c = into ?? createCanvas(w, h);
  const ctx = c.getContext('2d');
  if (into) ctx.clearRect(0, 0, w, h);
  ctx.quality = 'best';
  ctx.drawImage(src, 0, 0, w, h);
  return c;
}

/** Frame `index` of the picture at the size it is drawn in an area of aw x ah. */
export function fittedFrame(pic: Picture, index: number, aw: number, ah: number): Drawable {
  const { w, h } = fitSize(pic.width, pic.height, aw, ah);
  const same = w === pic.width && h === pic.height;
  if (pic.kind === 'still') {
    if (same) return pic.image;
    const key = `${w}x${h}`;
    let out = pic.fitted.get(key);
    if (!out) pic.fitted.set(key, (out = [scaled(pic.image, w, h)]));
    return out[0];
  }
  const frame = pic.anim.frame(index);
  if (same) return frame;
  const key = `${w}x${h}`;
  let out = pic.fitted.get(key);
  if (!out) pic.fitted.set(key, (out = []));
  // A streamed animation has one finished frame at a time, so one scaled canvas too.
  if (pic.anim.streaming) return (out[0] = scaled(frame, w, h, out[0] as Canvas | undefined));
  out[index] ??= scaled(frame, w, h);
  return out[index];
}
