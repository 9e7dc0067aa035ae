// Reading a strip of the compositor's scratch canvas back into the RGBA picture buffer.
//
// The canvas is opaque (cairo RGB24): each pixel a native-endian 32-bit word 0x??RRGGBB, so
// bytes B,G,R,x on the little-endian hosts this runs on; rows `canvas.stride` bytes apart.
// The picture buffer holds bytes R,G,B,A (A = 255), rows width*4 apart.
//
// getImageData converts pixel by pixel in a scalar loop into a new zero-filled buffer, which
// is then copied into the picture: under callgrind that was three quarters of a 640x160 scroll
// frame's instructions (the conversion 47 %, zero-filling 14 %, the copy 14 %; the drawing
// itself 15 %). The native helper's converter reads cairo's words as they are, through the
// same vectorised loop the framebuffer's XRGB8888 takes, with R and B swapped and A set,
// straight into the picture. It reads them where cairo keeps them (native/src/canvas-read.cc);
// that reader calls into canvas.node by symbol, so it is used only with the node-canvas version
// the helper was built against. Otherwise the pixels come through toBuffer('raw'), a copy of
// the whole canvas, and getImageData stays for rectangles small against the canvas.
import { Canvas, type CanvasRenderingContext2D } from 'canvas';
import { endianness } from 'node:os';
import { nativeHelperProblem, optionalNativeHelper, type CanvasRead, type NativeHelper } from '../native/helper.js';
import { requireCjs } from '../util/require-cjs.js';
import { FORMATS } from '../output/pixel-format.js';
import { freeBuffer } from './free-buffer.js';

/**
 * A rectangle covering less than 1/RAW_MIN_SHARE of the strip is read with getImageData: copying
 * the whole strip at memory speed (2-4 GB/s on a Cortex-A53, 10-20 here) costs about what
 * getImageData takes for an eighth of its pixels (some 10 ns a pixel there, 3 here).
 */
const RAW_MIN_SHARE = 8;

/** How the read-back gets the pixels (/status `readBack`), and why not in place when it does not. */
export interface ReadBackMode {
  mode: 'in-place' | 'copy' | 'getImageData';
  reason?: string;
}

let helper: NativeHelper | null | undefined;
let inPlace: CanvasRead | null | undefined;
let mode: ReadBackMode = { mode: 'getImageData' };
/** A node-canvas version tests pretend is running. */
let pretendedCanvas: string | undefined;

function runningCanvas(): string {
  return pretendedCanvas ?? (requireCjs('canvas/package.json') as { version: string }).version;
}

function converter(): NativeHelper | null {
  if (helper === undefined) {
    helper = (endianness() === 'LE' && optionalNativeHelper()) || null;
    inPlace = null;
    if (!helper) {
      mode = { mode: 'getImageData', reason: endianness() === 'LE' ? nativeHelperProblem() : 'a big-endian host' };
    } else {
      const running = runningCanvas();
      if (helper.canvasVersion !== running) {
        mode = {
          mode: 'copy',
          reason:
            `the native helper was built against node-canvas ${helper.canvasVersion || 'unknown'}, this is ` +
            `${running}: rebuild it with make native`,
        };
      } else {
        inPlace = helper.canvasReader(Canvas, FORMATS.ARGB8888);
        mode = inPlace
          ? { mode: 'in-place' }
          : { mode: 'copy', reason: "the native helper did not find node-canvas's library in the process" };
      }
    }
  }
  return helper;
}

/** For /status: how pixels are read back now. */
export function readBackMode(): ReadBackMode {
  converter();
  return mode;
}

/**
 * For tests: which way the pixels come, whatever is installed: read in place, copied out with
 * toBuffer('raw') first, getImageData alone (false), or the best there is (undefined).
 */
export function useNativeReadBack(how: 'in-place' | 'copy' | false | undefined): void {
  helper = how === false ? null : undefined;
  inPlace = how === false ? null : undefined;
  if (how === false) mode = { mode: 'getImageData', reason: 'turned off' };
  if (how === 'copy') {
    converter();
    inPlace = null;
    mode = { mode: 'copy', reason: 'turned off' };
  }
}

/** For tests: the read-back decides again as if the running node-canvas were `version` (undefined: the real one). */
export function pretendCanvasVersion(version: string | undefined): void {
  pretendedCanvas = version;
  helper = undefined;
}

/** Whether a read-back now reads the canvas in place (the helper has the reader and found node-canvas). */
export function readsInPlace(): boolean {
  converter();
  return !!inPlace;
}

/**
 * Copies canvas columns [x, x+w) of rows [0, h) into the picture `buffer` (width `W`) at row
 * `y`, column `dx` (x when omitted), as RGBA.
 */
export function readBack(
  canvas: Canvas,
  ctx: CanvasRenderingContext2D,
  x: number,
  w: number,
  h: number,
  buffer: Uint8Array,
  W: number,
  y: number,
  dx = x,
): void {
  const native = converter();
  if (inPlace) {
    inPlace(canvas, x, w, h, buffer, (y * W + dx) * 4, W * 4);
    return;
  }
  if (native && w * h * RAW_MIN_SHARE >= canvas.width * canvas.height) {
    const raw = canvas.toBuffer('raw');
    native.convert(
      x === 0 ? raw : raw.subarray(x * 4),
      w,
      h,
      buffer,
      (y * W + dx) * 4,
      W * 4,
      FORMATS.ARGB8888,
      undefined,
      canvas.stride,
    );
    freeBuffer(raw.buffer);
    return;
  }
  const img = ctx.getImageData(x, 0, w, h).data;
  const row = w * 4;
  // Whole rows are one run of the picture buffer: one copy, no view per row.
  if (w === W) buffer.set(img, y * W * 4);
  else for (let k = 0; k < h; k++) buffer.set(img.subarray(k * row, (k + 1) * row), ((y + k) * W + dx) * 4);
  freeBuffer(img.buffer);
}
