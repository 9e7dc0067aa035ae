// The hardware seam between the compositor and a panel, after FPP's channel outputs:
// open -> send* -> close, and open again after the runner (runner.ts) closed a failing output;
// one send at a time, setBrightness whenever the output is open (during a send too), describe
// at any time. An output owns the pixel-format conversion, the frame swap and brightness; the
// compositor only hands it finished frames.

import type { Frame } from '../frame.js';

export type { Frame };

/** What every driver reports on /status. */
interface DetailsBase {
  brightness: number;
  /** Conditions an operator should see even while frames go out (slow link, no receiver...). */
  warnings?: string[];
}
export interface VirtualDetails extends DetailsBase {
  frames: number;
  /** Frames that were written as their changed rectangles only. */
  patched?: number;
}
export interface FbdevDetails extends DetailsBase {
  device: string;
  id?: string;
  resolution?: string;
  virtual?: string;
  format?: string;
  stride?: number;
  buffering?: string;
  vsync?: boolean | 'unknown';
  geometry?: string;
  brightnessBy: string;
  blanked: boolean;
}
export interface ColorlightDetails extends DetailsBase {
  interface: string;
  link: string | undefined;
  speedMbps?: number;
  receivers: Array<{ card: number; firmware: string; cabinet: string; uptimeMs: number }>;
  firmwareMajor: number;
  repeatSyncAndBrightness: boolean;
}
export interface DdpDetails extends DetailsBase {
  target: string;
  via: string;
  sequence: number;
}
/** Driver-specific facts for /status (receiver firmware, framebuffer geometry...). */
export type OutputDetails = VirtualDetails | FbdevDetails | ColorlightDetails | DdpDetails;

export interface Output {
  /** Driver name as shown on /status ("virtual", "fbdev", "colorlight", "ddp"). */
  readonly driver: string;
  /** Acquire the device or socket. Rejects with an Error carrying `code` (errno name) when it cannot. */
  open(): Promise<void>;
  /**
   * Put one frame on the panel. Resolves once the bytes were handed to the device or wire
   * without error (DDP: and no error came back within a settle window); rejects otherwise. The frame must not be
   * retained after it resolves
   * unless copied: its data is the compositor's buffer, updated by the next render. Where
   * `damageSince(frame, shown)` gives rectangles, writing only those is enough.
   * A driver that waits for nothing may finish inside the call: it returns undefined (and
   * throws instead of rejecting), so a frame makes no promise.
   */
  send(frame: Frame): void | Promise<void>;
  /** 0..100. Applied by the hardware when it can, else by scaling pixels in send(). */
  setBrightness(percent: number): Promise<void>;
  /** Release everything open() acquired. Safe to call twice, and after a failed open(). */
  close(): Promise<void>;
  /** Driver-specific facts for /status (receiver firmware, framebuffer geometry...). */
  describe(): OutputDetails;
  /**
   * Errors the device reports between sends, after the send that caused them resolved (a UDP
   * receiver's ICMP "port unreachable"). The runner counts each as a failure.
   */
  onError?(listener: (err: Error) => void): void;
}
