// One module per area type (src/config/area-types/<type>.ts) behind the registry: each holds
// what the type accepts in the configuration and what a request value or its defaultValue
// means. How a type draws is the renderer's (src/render/content/drawers.ts); audio plays
// through the playback capability (src/playback/audio-areas.ts). Adding a type: a module
// here and a line in registry.ts, and its drawer.
import type { AreaConfig, AreaType } from '../types.js';

/** What a request value or a defaultValue shows: text, an absolute file in images/, or a URL. */
export interface Resolved { text?: string; file?: string; url?: string }

/** Top-level settings an area's rules read (they are part of the area once normalized). */
export interface AreaSettings {
  webRefreshSeconds: number;
  urlPortRange: [number, number];
  /** limits.maxPictureMegapixels, in pixels: pictures beyond it are refused at load. */
  maxPicturePixels: number;
}

/** What a type's configuration rules get: the raw area object and where to report faults. */
export interface AreaRules {
  readonly id: string;
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

export interface AreaKind {
  readonly type: AreaType;
  /** The request value is a key into `params` (so `params` is required). */
  readonly keyed: boolean;
  /** Extensions of the files in images/ its params and defaultValue name. */
  readonly files?: readonly string[];
  /** fontColor[area] and fontSize[area] overrides apply to it. */
  readonly overrides?: boolean;
  /** Checks the type's own properties at load; returns the normalized fields it owns. */
  configure(rules: AreaRules): Partial<AreaConfig>;
  /** What a non-empty request value shows; throws MldsError (naming the area) when it cannot. */
  resolve(area: AreaConfig, value: string): Resolved;
  /** What the area shows without a value (defaultValue); undefined: blank. */
  fallback(area: AreaConfig): Resolved | undefined;
}
