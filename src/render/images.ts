import { createCanvas, loadImage, type Canvas, type Image } from 'canvas';
import { readFile } from 'node:fs/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  bufferReader,
  pictureFault,
  pictureFileCheck,
  pictureHeader,
  type PictureSize,
} from '../media/picture-header.js';
import { GifAnimation } from './gif.js';
import { BYTES_PER_PIXEL, MEGAPIXEL, defaultPictureMegapixels, pictureBudgetBytes } from '../media/picture-limits.js';

type Drawable = Image | Canvas;

export type Picture = ({ kind: 'still'; image: Drawable } | { kind: 'animation'; anim: GifAnimation }) & {
  width: number;
  height: number;
  bytes: number;
  /** Copies resized for an area, by "w x h": scaling a large picture every frame costs far more than drawing it. */
  fitted: Map<string, Drawable[]>;
};

// Decoded pictures, and what they may take. Loading is async, drawing is sync: control awaits
// preloadImage() before it commits new content, so the render path only reads the cache.
//
// Every decoded picture the service holds is counted against one budget (picture-limits.ts):
// those in the cache, those a content shows (held: never dropped while shown, cached or not),
// those decoded for a command that has not shown them yet (fresh, for at most FRESH_MS), and
// those being decoded (reserved from their headers before a byte is read). A decode that does
// not fit drops cached pictures nobody shows, least recently used first; if it still does not
// fit, it waits for the decodes under way and the fresh pictures to be shown (which lets go of
// what they replace), so two decodes never both overrun it. With nothing to wait for it
// proceeds: a picture within the limit is never refused for what the screen holds.

let maxPixels = defaultPictureMegapixels() * MEGAPIXEL;
let budget = pictureBudgetBytes(maxPixels / MEGAPIXEL);

/** By absolute path, least recently used first. */
const cache = new Map<string, Picture>();
const loading = new Map<string, Promise<Picture>>();
interface Counted {
  cached: boolean;
  holders: number;
  fresh?: NodeJS.Timeout;
}
/** Every picture cached, shown or fresh, counted in `heldBytes`. */
const counted = new Map<Picture, Counted>();
let heldBytes = 0;
let decodingBytes = 0;
let freshPictures = 0;
let waiting: Array<() => void> = [];

/** Long enough for a command's commit and the next frame, which holds the picture: a busy unit takes some 100 ms. */
const FRESH_MS = 2000;

/**
 * After pictures were let go, a full collection before the next decode frees their pixels: V8
 * counts them as external memory but collects on its own schedule, and kept several dropped
 * pictures resident while the next was decoded (four 16-megapixel pictures shown in turn: RSS
 * up to 398 MB without it, 209 MB with it).
 */
const COLLECT_AFTER_BYTES = 16 * 1024 * 1024;
let gc: (() => void) | null | undefined;
/** Bytes of pictures no longer counted since the last collection. */
let uncollected = 0;

/** Sets the largest picture (limits.maxPictureMegapixels) and with it the budget; drops what no longer fits. */
export function setPictureLimit(megapixels: number): void {
  maxPixels = megapixels * MEGAPIXEL;
  budget = pictureBudgetBytes(megapixels);
  makeRoom(0);
}

/** What decoded pictures take now, in bytes, against the budget (tests). */
export function pictureMemory(): { held: number; decoding: number; budget: number; maxPixels: number } {
  return { held: heldBytes, decoding: decodingBytes, budget, maxPixels };
}

function count(pic: Picture): Counted {
  let c = counted.get(pic);
  if (!c) {
    c = { cached: false, holders: 0 };
    counted.set(pic, c);
    heldBytes += pic.bytes;
  }
  return c;
}

function uncountIfFree(pic: Picture, c: Counted): void {
  if (c.cached || c.holders > 0 || c.fresh !== undefined) return;
  counted.delete(pic);
  heldBytes -= pic.bytes;
  uncollected += pic.bytes;
}

/** Decodes waiting for room look again. */
function wake(): void {
  const woken = waiting;
  waiting = [];
  for (const resolve of woken) resolve();
}

function unfresh(pic: Picture): void {
  const c = counted.get(pic);
  if (!c?.fresh) return;
  // The timer's closure holds the picture: it goes now, not when it would have fired.
  clearTimeout(c.fresh);
  c.fresh = undefined;
  freshPictures--;
  uncountIfFree(pic, c);
  wake();
}

/** A command is about to show `pic`: not dropped, and waited for, until a content holds it or FRESH_MS pass. */
function makeFresh(pic: Picture): void {
  const c = count(pic);
  if (c.fresh !== undefined || c.holders > 0) return;
  c.fresh = setTimeout(() => unfresh(pic), FRESH_MS).unref();
  freshPictures++;
}

function drop(file: string, pic: Picture): void {
  cache.delete(file);
  const c = counted.get(pic);
  if (!c) return;
  c.cached = false;
  uncountIfFree(pic, c);
}

/** Drops cached pictures nobody shows, least recently used first, until `bytes` more fit. */
function makeRoom(bytes: number, keep?: string): void {
  for (const [file, pic] of cache) {
    if (heldBytes + decodingBytes + bytes <= budget) break;
    const c = counted.get(pic);
    if (file === keep || (c && (c.holders > 0 || c.fresh !== undefined))) continue;
    drop(file, pic);
  }
}

async function collect(): Promise<void> {
  if (gc === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as () => void;
    } catch {
      gc = null;
    }
  }
  uncollected = 0;
  if (!gc) return;
  gc();
  // node-canvas frees a picture's pixels in its finalizer, which node runs after the collection.
  await new Promise((r) => setImmediate(r));
}

/** Bytes a picture takes while it is decoded (a GIF: the screen, a frame's copy, the canvas). */
function decodeBytes(h: PictureSize): number {
  return h.width * h.height * BYTES_PER_PIXEL * (h.format === 'gif' ? 3 : 1);
}

async function reserve(bytes: number): Promise<void> {
  for (;;) {
    makeRoom(bytes);
    if (uncollected >= COLLECT_AFTER_BYTES) await collect();
    if (heldBytes + decodingBytes + bytes <= budget || (decodingBytes === 0 && freshPictures === 0)) break;
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  decodingBytes += bytes;
}

function unreserve(bytes: number): void {
  decodingBytes -= bytes;
  wake();
}

async function decodePicture(bytes: Buffer, file: string): Promise<Picture> {
  // Again on the bytes decoded: the file may have been replaced since.
  const header = pictureHeader(bufferReader(bytes));
  const fault = pictureFault(header, maxPixels);
  if (fault) throw new Error(`${file} ${fault}`);
  if ((header as PictureSize).format === 'gif') {
    const anim = new GifAnimation(bytes, undefined, maxPixels);
    const base = { width: anim.width, height: anim.height, fitted: new Map<string, Drawable[]>() };
    // A still GIF keeps its one canvas; the animation's screen goes with it.
    if (anim.frameCount === 1)
      return { kind: 'still', image: anim.frame(0), bytes: anim.width * anim.height * BYTES_PER_PIXEL, ...base };
    return { kind: 'animation', anim, bytes: anim.bytes, ...base };
  }
  const image = await loadImage(bytes);
  return {
    kind: 'still',
    image,
    width: image.width,
    height: image.height,
    bytes: image.width * image.height * BYTES_PER_PIXEL,
    fitted: new Map(),
  };
}

async function load(file: string): Promise<Picture> {
  // By the header alone, remembered per file identity: a picture too large is never read whole, let alone decoded.
  const checked = pictureFileCheck(file, maxPixels);
  if ('fault' in checked) throw new Error(`${file} ${checked.fault}`);
  const reserved = decodeBytes(checked);
  await reserve(reserved);
  try {
    const pic = await decodePicture(await readFile(file), file);
    // Counted before the reservation ends, so a decode waiting for it sees it.
    count(pic).cached = true;
    cache.set(file, pic);
    makeFresh(pic);
    makeRoom(0, file);
    return pic;
  } finally {
    unreserve(reserved);
  }
}

/** Decodes a PNG, JPEG or GIF into the cache; rejects on a missing file, a decoder error or a picture too large. */
export function preloadImage(file: string): Promise<Picture> {
  const hit = cachedPicture(file);
  if (hit) {
    makeFresh(hit);
    return Promise.resolve(hit);
  }
  let p = loading.get(file);
  if (!p) {
    p = load(file).finally(() => loading.delete(file));
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

/** A content shows `pic` until it lets go (letGoOfPicture): it stays counted and is not dropped meanwhile. */
export function holdPicture(pic: Picture): void {
  count(pic).holders++;
  unfresh(pic);
}

export function letGoOfPicture(pic: Picture): void {
  const c = counted.get(pic);
  if (!c || c.holders === 0) return;
  c.holders--;
  uncountIfFree(pic, c);
  wake();
}

/**
 * Drops decoded pictures (after a configuration reload, when files may have changed); those shown stay counted until
 * let go.
 */
export function forgetImages(): void {
  for (const [file, pic] of cache) drop(file, pic);
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
