// A Linux framebuffer (/dev/fbN): an LCD on HDMI, or a panel controller that shows up as one.
// The frame sits at the top-left of the visible area; a frame larger than it is a config fault.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { damageSince, mergeDamage, type FrameMark, type Rect } from '../frame.js';
import type { Frame, Output, FbdevDetails } from './types.js';
import { nativeHelper, type FbDevice, type FixScreenInfo, type VarScreenInfo } from '../native/helper.js';
import { brightnessTable, formatName } from './pixel-format.js';

/** Geometry for a device whose ioctls cannot answer (a plain file standing in for one in tests). */
export interface FbGeometry {
  var: VarScreenInfo;
  fix: FixScreenInfo;
}

export interface FbdevOptions {
  /** Used only when FBIOGET_*SCREENINFO fail with ENOTTY/EINVAL/ENOSYS, i.e. the path is not a framebuffer. */
  geometry?: FbGeometry;
  /** /sys/class/backlight/<name>; default: the only backlight there is, if exactly one. */
  backlight?: string | null;
}

const FB_BLANK_UNBLANK = 0;
const FB_BLANK_POWERDOWN = 4;
// ENOSYS too: qemu-user answers an ioctl it has no translation for (FBIOBLANK) with it where a kernel says ENOTTY.
const notAnFbdev = (e: unknown) => ['ENOTTY', 'EINVAL', 'ENOSYS'].includes((e as NodeJS.ErrnoException).code ?? '');

function errnoError(code: string, message: string): Error {
  return Object.assign(new Error(`${code}: ${message}`), { code });
}

function findBacklight(): string | undefined {
  try {
    const all = readdirSync('/sys/class/backlight');
    return all.length === 1 ? join('/sys/class/backlight', all[0]) : undefined;
  } catch {
    return undefined;
  }
}

export class FbdevOutput implements Output {
  readonly driver = 'fbdev';
  private dev: FbDevice | undefined;
  private vinfo: VarScreenInfo | undefined;
  private finfo: FixScreenInfo | undefined;
  private stride = 0;
  private pages = 1;
  private front = 0;
  private vsync: boolean | undefined;
  private brightness = 100;
  private lut: Uint8Array | undefined;
  private blanked = false;
  private readonly backlight: string | undefined;
  private geometrySource: 'ioctl' | 'injected' = 'ioctl';
  /** The frame each page holds (undefined: unknown, draw it whole). */
  private pageShows: Array<number | undefined> = [undefined, undefined];
  /** The last frame drawn, for a back page two frames behind. */
  private lastDrawn: FrameMark | undefined;

  constructor(
    readonly device: string,
    private readonly opts: FbdevOptions = {},
  ) {
    this.backlight = opts.backlight === null ? undefined : (opts.backlight ?? findBacklight());
  }

  async open(): Promise<void> {
    const dev = new (nativeHelper().FbDevice)(this.device);
    try {
      this.readGeometry(dev);
      const v = this.vinfo!,
        fix = this.finfo!;
      this.stride = fix.lineLength || (v.xresVirtual * v.bitsPerPixel) / 8;
      const size = fix.smemLen || this.stride * v.yresVirtual;
      // Touching a mapping past the end of a plain file is SIGBUS, which no catch can stop.
      const st = statSync(this.device);
      if (st.isFile() && st.size < size)
        throw errnoError('ERANGE', `${this.device} holds ${st.size} bytes, the geometry needs ${size}`);
      dev.map(size);
      // Two pages and a driver that pans: draw off-screen and flip, so no half-drawn frame shows.
      this.pages = v.yresVirtual >= 2 * v.yres && fix.ypanstep > 0 ? 2 : 1;
      dev.clear();
      this.front = 0;
      this.pageShows = [undefined, undefined];
      this.lastDrawn = undefined;
      // Back to the top-left page, whatever the previous owner of the device left panned.
      if (this.pages > 1 || v.xoffset || v.yoffset) this.tryPan(dev, 0);
      this.dev = dev;
      this.setBlank(false, true);
    } catch (err) {
      dev.close();
      throw err;
    }
  }

  async send(frame: Frame): Promise<void> {
    const dev = this.dev,
      v = this.vinfo;
    if (!dev || !v) throw errnoError('EBADF', `${this.device} is not open`);
    if (frame.width > v.xres || frame.height > v.yres) {
      throw errnoError(
        'EFBIG',
        `display ${frame.width}x${frame.height} is larger than the framebuffer ${v.xres}x${v.yres} (config fault)`,
      );
    }
    const page = this.pages > 1 ? 1 - this.front : 0;
    if (this.pages === 1) {
      await this.waitVsync(dev);
      this.draw(dev, frame, 0);
      return;
    }
    if (this.pageShows[this.front] === frame.seq) return;
    this.draw(dev, frame, page);
    await this.waitVsync(dev);
    if (this.tryPan(dev, page * v.yres)) this.front = page;
    else this.draw(dev, frame, 0);
  }

  /** Writes what changed on `page` since it last showed a frame: the damaged rectangles, or the whole frame. */
  private draw(dev: FbDevice, frame: Frame, page: number): void {
    const v = this.vinfo!,
      base = page * v.yres * this.stride;
    const rects = this.rectsFor(frame, this.pageShows[page]);
    this.pageShows[page] = undefined; // until the write is done: a throw leaves the page unknown
    if (!rects) {
      dev.draw(frame.data, frame.width, frame.height, base, this.stride, v, this.lut);
    } else {
      const W = frame.width,
        bytes = v.bitsPerPixel / 8;
      for (const r of rects) {
        dev.draw(
          frame.data.subarray((r.y * W + r.x) * 4),
          r.w,
          r.h,
          base + r.y * this.stride + r.x * bytes,
          this.stride,
          v,
          this.lut,
          W * 4,
        );
      }
    }
    this.pageShows[page] = frame.seq;
    this.lastDrawn = { seq: frame.seq, damage: frame.damage };
  }

  /** A back page is two frames behind: the last frame's damage and this one's together bring it up to date. */
  private rectsFor(frame: Frame, shows: number | undefined): Rect[] | undefined {
    const prev = this.lastDrawn;
    return damageSince(frame, shows) ?? (prev && damageSince(mergeDamage(prev, frame), shows));
  }

  /** false when the driver refuses to pan at all: from then on the output is single-buffered. */
  private tryPan(dev: FbDevice, yoffset: number): boolean {
    try {
      dev.pan(0, yoffset);
      return true;
    } catch (err) {
      if (!notAnFbdev(err)) throw err;
      this.pages = 1;
      return false;
    }
  }

  async setBrightness(percent: number): Promise<void> {
    this.brightness = percent;
    if (this.dev) this.setBlank(percent <= 0);
    if (this.backlight) {
      try {
        const max = Number(readFileSync(join(this.backlight, 'max_brightness'), 'utf8'));
        writeFileSync(join(this.backlight, 'brightness'), String(Math.round((max * percent) / 100)));
        if (this.lut) this.pageShows = [undefined, undefined]; // pixels were scaled: draw them again at full level
        this.lut = undefined;
        return;
      } catch {
        // A backlight we may not write (permissions, vanished): fall back to scaling pixels.
      }
    }
    this.lut = brightnessTable(percent);
    this.pageShows = [undefined, undefined];
  }

  async close(): Promise<void> {
    this.dev?.close();
    this.dev = undefined;
  }

  describe(): FbdevDetails {
    const v = this.vinfo,
      fix = this.finfo;
    return {
      device: this.device,
      ...(v && fix
        ? {
            id: fix.id,
            resolution: `${v.xres}x${v.yres}`,
            virtual: `${v.xresVirtual}x${v.yresVirtual}`,
            format: formatName(v),
            stride: this.stride,
            buffering: this.pages > 1 ? 'double (FBIOPAN_DISPLAY)' : 'single',
            vsync: this.vsync === undefined ? 'unknown' : this.vsync,
            geometry: this.geometrySource,
          }
        : {}),
      brightness: this.brightness,
      brightnessBy: this.backlight ? `backlight ${this.backlight}` : 'pixel scaling',
      blanked: this.blanked,
    };
  }

  private readGeometry(dev: FbDevice): void {
    try {
      this.vinfo = dev.varInfo();
      this.finfo = dev.fixInfo();
      this.geometrySource = 'ioctl';
    } catch (err) {
      if (!notAnFbdev(err) || !this.opts.geometry) throw err;
      this.vinfo = this.opts.geometry.var;
      this.finfo = this.opts.geometry.fix;
      this.geometrySource = 'injected';
    }
  }

  private async waitVsync(dev: FbDevice): Promise<void> {
    if (this.vsync === false || this.geometrySource === 'injected') return;
    this.vsync = await dev.waitVsync();
  }

  private setBlank(blank: boolean, force = false): void {
    if (blank === this.blanked && !force) return;
    try {
      this.dev?.blank(blank ? FB_BLANK_POWERDOWN : FB_BLANK_UNBLANK);
    } catch (err) {
      if (!notAnFbdev(err)) throw err;
    }
    this.blanked = blank;
  }
}

/**
 * The visible size and format of a framebuffer, for configuration checks ("a display larger
 * than its framebuffer is a config fault") before any output opens; the reason when it cannot
 * be read (no device, not a framebuffer, no native helper).
 */
export function probeFramebuffer(
  device: string,
): { width: number; height: number; format: string } | { error: string } {
  try {
    const dev = new (nativeHelper().FbDevice)(device);
    try {
      const v = dev.varInfo();
      return { width: v.xres, height: v.yres, format: formatName(v) };
    } finally {
      dev.close();
    }
  } catch (err) {
    return { error: (err as Error).message };
  }
}
