// The hardware seam between the compositor and a panel, after FPP's channel outputs:
// open -> (prepare -> send)* -> close. An output owns the pixel-format conversion,
// the frame swap and brightness; the compositor only hands it finished frames.

/** One finished picture: tightly packed RGBA, width*height*4 bytes, never mutated after hand-over. */
export interface Frame {
  width: number;
  height: number;
  data: Uint8Array;
  /** Monotonic frame counter of the compositor that made it. */
  seq: number;
}

export interface Output {
  /** Driver name as shown on /status ("virtual", "fbdev", "colorlight", "ddp"). */
  readonly driver: string;
  /** Acquire the device or socket. Rejects with an Error carrying `code` (errno name) when it cannot. */
  open(): Promise<void>;
  /**
   * Put one frame on the panel. Resolves once the bytes were handed to the device or wire
   * without error (DDP: and no error came back within a settle window); rejects otherwise. The frame must not be retained after it resolves
   * unless copied (the virtual output keeps it: frames are immutable).
   */
  send(frame: Frame): Promise<void>;
  /** 0..100. Applied by the hardware when it can, else by scaling pixels in send(). */
  setBrightness(percent: number): Promise<void>;
  /** Release everything open() acquired. Safe to call twice, and after a failed open(). */
  close(): Promise<void>;
  /** Driver-specific facts for /status (receiver firmware, framebuffer geometry...). */
  describe(): Record<string, unknown>;
  /**
   * Errors the device reports between sends, after the send that caused them resolved (a UDP
   * receiver's ICMP "port unreachable"). The runner counts each as a failure.
   */
  onError?(listener: (err: Error) => void): void;
}
