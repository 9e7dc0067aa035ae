import type { CanvasRenderingContext2D } from 'canvas';
import type { AreaState } from '../../control/state.js';

/**
 * Draws one area's content inside its rectangle. The compositor has already clipped to
 * the rectangle and filled the background; a drawer only puts text or pictures on top.
 */
export type AreaDrawer = (ctx: CanvasRenderingContext2D, st: AreaState, now: number) => void;
