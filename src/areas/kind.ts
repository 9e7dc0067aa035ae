// One module per area type (src/areas/<type>.ts) behind the registry: each holds its
// configuration rules, how a request value resolves, and how it draws or plays. Adding a
// type is one new module and one line in registry.ts.
import type { AreaConfig, AreaType, ServiceConfig } from '../config/types.js';
import type { AreaState, DisplayState } from '../control/state.js';
import type { Content } from '../render/areas/content.js';

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

/** What drawing gets besides the area and its state. */
export interface DrawEnv {
  /** ms epoch from which the new content's own clock runs (scroll origin, GIF frame 0). */
  start: number;
  /** The content being replaced, when continuity matters (a scroll carried on). */
  previous?: Content;
  /** Swapped in place without an effect (see AreaKind.swapsLive). */
  live: boolean;
  /** IANA zone for clocks without dateOffset. */
  timezone?: string;
  /** The unit's frame rate (scrolls move in steps of at most one per frame). */
  fps?: number;
}

/** Hears every state change of the displays of one service, without drawing (audio). */
export interface AreaWatcher {
  /** The display's state after a change; undefined when the display is gone or the service stops. */
  update(config: ServiceConfig, displayId: string, state: DisplayState | undefined): void;
  /** After a reload: ends what belongs to displays `config` no longer has. */
  prune(config: ServiceConfig): void;
  /** Ends everything the watcher started. */
  close(): void;
  /** Facts for /status. */
  status(): unknown;
}

export interface AreaKind {
  readonly type: AreaType;
  /** Area properties this type accepts besides those every type has. */
  readonly properties: readonly string[];
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
  /** Text /status reports for the area (a clock's current text); default: the state's text. */
  statusText?(state: AreaState, now: number, timezone?: string): string | undefined;
  /** Same picture: a change between equal signatures is no change (no effect, no restart). */
  signature?(area: AreaConfig, state: AreaState | undefined): string;
  /** The new state replaces `previous` in place (no effect, scroll kept): dynamic text. */
  swapsLive?(area: AreaConfig, previous: Content | undefined, state: AreaState | undefined): boolean;
  /** The picture for a state; undefined: the background only. Lazy: nothing starts until drawn. */
  draw?(area: AreaConfig, state: AreaState | undefined, env: DrawEnv): Content | undefined;
  /** A type that plays without drawing subscribes to state changes instead (audio). */
  watcher?(log: WatchLog): AreaWatcher;
}

export interface WatchLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}
