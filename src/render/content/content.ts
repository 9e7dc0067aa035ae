import type { CanvasRenderingContext2D } from 'canvas';
import type { BoardState } from '../../config/board-source.js';

/**
 * What an area shows, as a function of time. The compositor redraws an area only when
 * key(now) differs from the key it last drew, and the frame loop sleeps until the
 * earliest nextChange(), so both must describe the picture exactly.
 */
export interface Content {
  /**
   * Changes exactly when the picture changes (scroll pixel, GIF frame, clock text). Compared
   * only with this content's own keys: a number (a scroll distance) serves and makes no string.
   */
  key(now: number): string | number;
  /** ms epoch of the next change after `now`; Infinity for a still picture. */
  nextChange(now: number): number;
  /** Paints the content with the area's top-left corner at (ox, oy); the caller has clipped to the area. */
  draw(ctx: CanvasRenderingContext2D, ox: number, oy: number, now: number): void;
  /**
   * Rows of the area (y from its top, h) outside which this content never paints, so a
   * change of key only needs those rows redrawn and read back. Undefined: the whole area.
   */
  rows?(): { y: number; h: number };
  /**
   * Its key takes the same few values over and over (pages in turn), each always the same
   * picture: the compositor may keep the pictures and copy them back instead of drawing.
   */
  readonly repeats?: boolean;
  /** How a text fitted its area and the size it is drawn at (/status `fit`); text contents only. */
  readonly textFit?: TextFit;
  /** Why it cannot show what it should (a file that does not decode, a page that fails); shown on /status. */
  readonly fault?: string;
  /** What /status says of its area beyond fit and fault (a board: the rows it last showed, its feed's state). */
  report?(): ContentReport | undefined;
  /**
   * Lets go of what it holds outside this process's memory (a decoder, a browser page)
   * while nothing draws it; the next key() or draw() takes it up again.
   */
  suspend?(): void;
  /** Ends all of that for good: the content is not drawn again. */
  dispose?(): void;
}

/** What a content reports of its area on /status: the text it shows, as rows; a departure board's state. */
export interface ContentReport {
  text?: string;
  board?: BoardState;
}

/** /status `fit` of a text area: as-is, shrunk, wrapped, paged, scrolled or clipped (by `clippedPx`), at `size` px. */
export interface TextFit {
  fit: string;
  size: number;
  missing?: string[];
  clippedPx?: number;
}

let serial = 0;
/** A process-unique id, so keys of two contents can never collide. */
export function nextContentId(): number {
  return ++serial;
}
