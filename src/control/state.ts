import type { AreaConfig, Rgb } from '../config/types.js';

/**
 * What became of an accepted command's content: a frame carrying it reached the output
 * (`shown`); it was replaced before any frame carried it (`superseded`: executed, never on
 * the panel); or it never got there (`not shown`: the write failed, or it was cleared or
 * ran out before it showed).
 */
export type Outcome = 'shown' | 'superseded' | 'not shown';

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

/**
 * What one priority level of a display holds (docs/http-api.md, Partial updates and priority levels). The
 * highest level is on show: DisplayState.areas is its area map itself, so a ttl expiry on
 * show changes both.
 */
export interface Layer {
  priority: number;
  layout: string;
  areas: Map<string, AreaState>;
  /** ms epoch when the command holding this level was accepted. */
  since: number;
  /** ms epoch when the level empties by itself (priority above 0). */
  expiresAt?: number;
  source: string;
  inumber?: string;
  /** The query that rebuilds the level (`keep` merged in, credentials removed): saved and replayed. */
  query: string;
  /** The areas its command gave a value (not those `keep` held over): what a frame must carry for it to be shown. */
  named: ReadonlySet<string>;
  /** Settles the command's `written` once a frame carrying the level reached the output, or it goes unseen. */
  reveal?: (outcome: Outcome) => void;
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
  /** Its priority levels, highest first; the first is on show (always set by the controller). */
  layers?: Layer[];
}

/** A display's state as the controller holds it. */
export type HeldState = DisplayState & { layers: Layer[] };

export function emptyDisplayState(id: string): HeldState {
  return { id, layoutSetAt: 0, areas: new Map(), version: 0, layers: [] };
}
