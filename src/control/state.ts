import type { AreaConfig, Rgb } from '../config/types.js';

/** What one area shows right now. Written only by src/control; read by render and status. */
export interface AreaState {
  area: AreaConfig;
  /** Where the content came from: the request, the area's defaultValue, or nothing (blank). */
  source: 'request' | 'default' | 'none';
  /** The raw request value (a params key for static/image/video/audio/web, the text for text/dynamic). */
  value?: string;
  /** Text to draw (text, dynamic, static). */
  text?: string;
  /** Absolute path of the file to show or play (image, video, audio). */
  file?: string;
  /** Page to render (web). */
  url?: string;
  fontColor?: Rgb;
  fontSize?: number;
  /** ms epoch when this content was set. */
  setAt: number;
  /** ms epoch when ttl expires (undefined: never). */
  expiresAt?: number;
  /** Content that could not be shown (missing file, decoder error); shown on /info. */
  fault?: string;
}

export interface CommandRecord {
  query: string;
  at: number;
  inumber?: string;
  source: string;
}

export interface FaultRecord {
  code: string;
  message: string;
  field?: string;
  at: number;
  query: string;
}

export interface DisplayState {
  id: string;
  /** Active layout name; undefined before the first command (the display shows black). */
  layout?: string;
  /** ms epoch when the layout was activated. */
  layoutSetAt: number;
  areas: Map<string, AreaState>;
  /** Bumped on every change, so renderers know when to redraw. */
  version: number;
  lastCommand?: CommandRecord;
  lastFault?: FaultRecord;
  /** Area keys ignored in the last accepted command (unknownAreaKeys = ignore). */
  lastIgnored?: string[];
}

export function emptyDisplayState(id: string): DisplayState {
  return { id, layoutSetAt: 0, areas: new Map(), version: 0 };
}
