// Loads the native helper (native/, built by `make native`) the way sharp loads its binding:
// once, lazily, and on failure keeps one error that names the cause, so the virtual output
// and the rest of the service run without it and every hardware output reports the same reason.
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Bitfield {
  offset: number;
  length: number;
}

/** The kernel's description of a pixel: bits per pixel and where each channel sits. */
export interface PixelFormat {
  bitsPerPixel: number;
  red: Bitfield;
  green: Bitfield;
  blue: Bitfield;
  transp: Bitfield;
}

export interface VarScreenInfo extends PixelFormat {
  xres: number;
  yres: number;
  xresVirtual: number;
  yresVirtual: number;
  xoffset: number;
  yoffset: number;
  grayscale: number;
}

export interface FixScreenInfo {
  id: string;
  smemLen: number;
  lineLength: number;
  type: number;
  visual: number;
  ypanstep: number;
}

export interface FbDevice {
  varInfo(): VarScreenInfo;
  fixInfo(): FixScreenInfo;
  map(length: number): void;
  /** srcStride (default width*4) larger than a row draws a rectangle of a larger frame. */
  draw(
    rgba: Uint8Array,
    width: number,
    height: number,
    byteOffset: number,
    stride: number,
    format: PixelFormat,
    lut?: Uint8Array,
    srcStride?: number,
  ): void;
  clear(): void;
  pan(xoffset: number, yoffset: number): void;
  /** Resolves false when the driver has no vsync ioctl. */
  waitVsync(): Promise<boolean>;
  blank(level: number): void;
  close(): void;
}

export interface PacketSocket {
  /** Sends the packets laid end to end in buf; throws ETIMEDOUT when the queue stays full. */
  sendBatch(buf: Uint8Array, lengths: Uint32Array, timeoutMs?: number): number;
  recv(): Buffer | null;
  close(): void;
}

/** A connected UDP socket; sendBatch throws ECONNREFUSED once the receiver's port is closed. */
export interface UdpSocket {
  sendBatch(buf: Uint8Array, lengths: Uint32Array, timeoutMs?: number): number;
  /**
   * The error the kernel recorded since the last send or call, cleared by reading it: how an
   * ICMP "port unreachable" for a picture already sent is seen.
   */
  takeError(): Error | null;
  close(): void;
}

/** A timerfd on node's event loop (see native/src/timer.cc): fires its callback once per arm(). */
export interface NativeFrameTimer {
  /** Fires once, `us` microseconds from now, replacing an earlier arm. */
  arm(us: number): void;
  disarm(): void;
  /** Releases the fd; arm() afterwards throws EBADF. */
  close(): void;
}

/** Canvas columns [x, x+width) of rows [0, height) into dst at dstOffset, rows dstStride bytes apart. */
export type CanvasRead = (
  canvas: object,
  x: number,
  width: number,
  height: number,
  dst: Uint8Array,
  dstOffset: number,
  dstStride: number,
) => void;

export interface NativeHelper {
  FrameTimer: new (callback: () => void) => NativeFrameTimer;
  FbDevice: new (path: string) => FbDevice;
  PacketSocket: new (ifname: string, etherType?: number) => PacketSocket;
  UdpSocket: new (ipv4: string, port: number) => UdpSocket;
  /** srcStride (default width*4) larger than a row converts a column strip of a frame. */
  convert(
    rgba: Uint8Array,
    width: number,
    height: number,
    dst: Uint8Array,
    dstOffset: number,
    stride: number,
    format: PixelFormat,
    lut?: Uint8Array,
    srcStride?: number,
  ): void;
  /** The node-canvas version the helper was built against: canvasReader is safe with that one only. */
  canvasVersion: string;
  /**
   * A reader of node-canvas canvases' pixels in place, converted to `format`; null when
   * node-canvas's library is not loaded or not the one it knows.
   */
  canvasReader(canvasClass: abstract new (...args: never[]) => object, format: PixelFormat): CanvasRead | null;
  /**
   * Collects with V8's memory reduction and trims malloc's free pages: anonymous memory a
   * burst of allocation left, given back to the kernel.
   */
  releaseMemory(): void;
}

const here = dirname(fileURLToPath(import.meta.url));
/** src/output and dist/output are both two levels below the package root. */
export const NATIVE_PATH =
  process.env.MLDS_NATIVE ?? join(here, '..', '..', 'native', 'build', 'Release', 'mlds_native.node');

let loaded: NativeHelper | undefined;
let failure: Error | undefined;

function load(): NativeHelper {
  if (!existsSync(NATIVE_PATH)) {
    throw Object.assign(
      new Error(
        `native helper not built: ${NATIVE_PATH} is missing. ` +
          'Run `make native` (needs build-essential and python3); only the virtual output works without it',
      ),
      { code: 'ERR_NATIVE_MISSING' },
    );
  }
  try {
    return createRequire(import.meta.url)(NATIVE_PATH) as NativeHelper;
  } catch (err) {
    // A helper built for another Node ABI or a broken build: say so rather than a bare dlopen message.
    const cause = (err as Error).message.split('\n')[0];
    throw Object.assign(
      new Error(`native helper at ${NATIVE_PATH} cannot be loaded: ${cause}. Rebuild it with \`make native\``),
      { code: 'ERR_NATIVE_LOAD', cause: err },
    );
  }
}

/** The helper, or throws the one error that explains why it is not there. */
export function nativeHelper(): NativeHelper {
  if (loaded) return loaded;
  if (failure) throw failure;
  try {
    loaded = load();
    return loaded;
  } catch (err) {
    failure = err as Error;
    throw failure;
  }
}

/** The helper, or undefined when it cannot be loaded: for what works without it (nativeHelperProblem() says why). */
export function optionalNativeHelper(): NativeHelper | undefined {
  try {
    return nativeHelper();
  } catch {
    return undefined;
  }
}

/** For /status: undefined when the helper loads, else the reason it does not. */
export function nativeHelperProblem(): string | undefined {
  try {
    nativeHelper();
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}
