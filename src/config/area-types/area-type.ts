// One module per area type (src/config/area-types/<type>.ts) behind the registry: each holds
// what the type accepts in the configuration and what a request value or its defaultValue
// means. How a type draws is the renderer's (src/render/content/drawers.ts); audio plays
// through the playback capability (src/playback/audio-areas.ts). Adding a type: its fields in
// area-fields.ts, a module here and a line in registry.ts, and its drawer.
import type { AreaBase, AreaConfig, AreaTaking } from './normalized-area.js';

/** What a request value or a defaultValue shows: text, an absolute file in images/, or a URL. */
export interface Resolved {
  text?: string;
  file?: string;
  url?: string;
}

/** Top-level settings an area's rules read (they are part of the area once normalized). */
export interface AreaSettings {
  webRefreshSeconds: number;
  urlPortRange: [number, number];
  /** limits.maxPictureMegapixels, in pixels: pictures beyond it are refused at load. */
  maxPicturePixels: number;
}

/** What a type's configuration rules get: the raw area object and where to report faults. */
export interface AreaRules<A extends AreaConfig = AreaConfig> {
  readonly id: string;
  /** The fields every area has, already normalized, and the type: the start of the type's area. */
  readonly base: AreaBase & { type: A['type'] };
  readonly raw: Record<string, unknown>;
  /** The service directory (fonts/ and images/ are looked up there, then in the package). */
  readonly dir: string;
  readonly width: number;
  readonly height: number;
  /** params as strings (the schema checked their form); a type converts the values it stores. */
  readonly params: Record<string, string>;
  readonly settings: AreaSettings;
  /** A fault at a JSON pointer relative to the area ('/params/a'). */
  fault(path: string, message: string): void;
}

/** A text the configuration itself shows in an area: a params key's text (`key`), or the defaultValue. */
export interface ConfigText {
  text: string;
  key?: string;
}

/**
 * The behaviour of the areas of one type, `A`. Its methods take that type's area: the registry
 * hands each type's area to its own kind only.
 */
export interface AreaKind<A extends AreaConfig = AreaConfig> {
  readonly type: A['type'];
  /** The request value is a key into `params` (so `params` is required). */
  readonly keyed: boolean;
  /** Extensions of the files in images/ its params and defaultValue name. */
  readonly files?: readonly string[];
  /** fontColor[area] and fontSize[area] overrides apply to it. */
  readonly overrides?: boolean;
  /** Its file is decoded before a command is accepted, so one that cannot be falls back at once (pictures). */
  readonly decodedFirst?: boolean;
  /**
   * Its content comes from a process the media capability watches (ffmpeg, Chromium): `drawn`
   * into the area by the compositor, or `played` beside the displays (nothing drawn but the background).
   */
  readonly media?: 'drawn' | 'played';
  /**
   * What a readout says of it: `text` its text as read (and spoken words may be shown on it,
   * `showSpoken`), `board` its departures row by row; undefined: nothing.
   */
  readonly spoken?: 'text' | 'board';
  /** Checks the type's own properties at load; returns the type's area (rules.base and its own fields). */
  configure(rules: AreaRules<A>): A;
  /** What a non-empty request value shows; throws MldsError (naming the area) when it cannot. */
  resolve(area: A, value: string): Resolved;
  /** What the area shows without a value (defaultValue); undefined: blank. */
  fallback(area: A): Resolved | undefined;
  /**
   * The texts the configuration itself puts in the area, each handed to `check` with the area
   * as sign text (`mlds test` warns of those wider than the area); undefined: none.
   */
  configTexts?(area: A, check: (area: AreaTaking<'markup'>, text: ConfigText) => void): void;
}
