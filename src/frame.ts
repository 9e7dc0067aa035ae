/**
 * One finished picture: tightly packed RGBA, width*height*4 bytes, never mutated after
 * hand-over. Made by render/, taken by output/ and http/: it belongs to none of them.
 */
export interface Frame {
  width: number;
  height: number;
  data: Uint8Array;
  /** Monotonic frame counter of the unit that made it. */
  seq: number;
}
