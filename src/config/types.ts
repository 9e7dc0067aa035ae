import type { ConfigFault } from './faults.js';

// The normalized, validated configuration the rest of the service works with.
// The raw file (strings for numbers, "x y X Y" coordinates) is turned into these
// shapes once, by src/config/normalize.ts, so no other module parses config text.

import type { Rgb, Rgba } from '../frame.js';
import type { Align } from '../text/doc.js';

import type { FeedConfig } from './feed-types.js';
import type { ReadoutConfig, ShowSpokenConfig } from './readout.js';
import type { AlertFeedConfig, GeocodeConfig, SpeechSettings } from './alert-speech-types.js';
import type { FetchSettings } from './fetch-settings.js';
export type { Align, Rgb, Rgba };

export type { AreaType } from './area-types/area-fields.js';
export type {
  AreaBase,
  AreaConfig,
  AreaOf,
  AreaTaking,
  DepartureField,
  DeparturesConfig,
  NormalizedFields,
  TextArea,
} from './area-types/normalized-area.js';
import type { AreaConfig } from './area-types/normalized-area.js';

export interface LayoutConfig {
  name: string;
  /** In file order: later areas draw on top. */
  areas: AreaConfig[];
}

export type OutputConfig =
  | { driver: 'virtual' }
  | { driver: 'fbdev'; device: string }
  | { driver: 'colorlight'; interface: string }
  | { driver: 'ddp'; host: string; port: number };

export interface StartScreenConfig {
  completeUrls?: string;
  loadLastRequest: boolean;
  /** Absolute path of the logo inside images/. */
  image?: string;
  imageTtl?: number;
}

export interface SensorConfig {
  path?: string;
  baudRate: number;
  protocol: 'ascii' | 'modbus-rtu' | 'modbus-tcp';
  unitId: number;
  register: number;
  pollMs: number;
  host?: string;
  port?: number;
  curve?: Array<[number, number]>;
}

/** A sensor at top level (`sensors`): it sets the brightness of every unit showing one of `displays`. */
export interface SharedSensorConfig extends SensorConfig {
  displays: string[];
}

export interface DisplayConfig {
  id: string;
  displayName?: string;
  displayIp?: string;
  displayPort?: number;
  controllerType?: string;
  confirmIp?: string;
  confirmPort?: number;
  width: number;
  height: number;
  infoScreenTtl: number;
  /** Millimetres between pixel centres, and metres from which passengers read the sign (`mlds test`'s legibility). */
  pitchMm?: number;
  viewingDistanceM?: number;
  sensorBrightness: boolean;
  brightnessUrl?: string;
  startScreen: StartScreenConfig;
  layouts: Map<string, LayoutConfig>;
  output: OutputConfig;
  sensor?: SensorConfig;
  /** What the display shows, read aloud on demand (docs/speech.md, Readout); undefined: no inputs, no readout. */
  readout?: ReadoutConfig;
  /** The text area that shows what this display speaks while it is spoken. */
  showSpoken?: ShowSpokenConfig;
  /** 0..100: this display's share (percent) of the volume in force (`speech.volume` or its schedule). */
  volume?: number;
  /** Key of the physical unit this display draws on (see units). */
  unit: string;
}

/** Displays sharing one output: composited in config order, later ids on top. */
export interface UnitConfig {
  key: string;
  output: OutputConfig;
  width: number;
  height: number;
  /** Display ids in config order; displayIds[0] is the unit's MAIN for brightness. */
  displayIds: string[];
}

export interface CronConfig {
  type: 'sendInfo' | 'data' | 'loadLastRequest' | 'url';
  value?: string;
  cron: string;
  /** sendInfo only: POST the /info page (html, the default) or the /status JSON. */
  format: 'html' | 'json';
}
/** Turns a poller's JSON response into a control message: area -> RFC 6901 pointer. */
export interface PollerMapper {
  id: string;
  layout: string;
  areas: Record<string, string>;
}
export interface PollerConfig {
  url: string;
  interval: number;
  mapper?: PollerMapper;
  /** Its commands carry keep=1 (areas the body does not name keep their content). */
  keep?: boolean;
  /** Its commands' level (0..9) and, above 0, how long each holds it (seconds; default 3 intervals). */
  priority?: number;
  expires?: number;
}

export interface HttpLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  idleTimeoutMs: number;
  maxUrlBytes: number;
  maxHeaderBytes: number;
  maxConnections: number;
  maxConnectionsPerClient: number;
  /** Connections of one /24 (IPv4) or /64 (IPv6) waiting on a request's line and headers at once. */
  maxUnfinishedPerNetwork: number;
  /** Live views (/screenshot?stream=1) open at once; always fewer than maxConnections. */
  maxStreams: number;
}
export interface PictureLimits {
  /**
   * Pictures beyond this many megapixels (of 1024 x 1024 pixels) are refused; the default follows the unit's memory.
   */
  maxPictureMegapixels: number;
}
export interface NetworkSettings {
  /** Interface to read and configure; undefined = the default route's, else the first Ethernet one that is up. */
  interface?: string;
  /** Folder of systemd-networkd `.network` files. */
  networkdDir: string;
  /** Seconds the new gateway has to answer before the previous configuration is restored. */
  rollbackSeconds: number;
}
export interface MdnsSettings {
  /** Service instance name; default `<hostname> (mlds <MAC tail>)`. */
  name?: string;
  /** Interface to announce on; default every interface. */
  interface?: string;
}

/** docs/configuration.md, `mqtt`. `password` and the key file are credentials: never shown or logged. */
export interface MqttSettings {
  url: string;
  username?: string;
  password?: string;
  /** Absolute paths of PEM files, checked when the configuration loaded. */
  cert?: string;
  key?: string;
  ca?: string;
  unit: string;
  prefix: string;
  groups: string[];
  keepalive: number;
  homeAssistant: boolean;
  /** Admin commands are taken on the groups' admin topics too. */
  groupAdmin: boolean;
  /** The retained status is published at least this often (and on changes, at most every 5 s). */
  statusIntervalSeconds: number;
  /**
   * Seconds the broker keeps the unit's session (subscriptions, queued QoS 1 commands) while it
   * is away; 0: a clean session at every connection.
   */
  sessionExpiry: number;
  /** Changes with the bytes of the PEM files. */
  fingerprint: string;
}

/** What /status says of the configuration's parts (hex SHA-256 digests; config/digest.ts). */
export interface ConfigDigests {
  /** The effective configuration and the files it links. */
  digest: string;
  /** config.json with its includes expanded, as pushed to the fleet. */
  base: string;
  /** unit.json, when the unit has one. */
  unit?: string;
}

export interface ServiceConfig {
  /** Folder holding config.json: fonts/ and images/ are looked up here first. */
  dir: string;
  /** The digests of config.json, unit.json and the effective configuration (config/digest.ts), set once loaded. */
  digests?: ConfigDigests;
  port: number;
  crons: CronConfig[];
  pollers: PollerConfig[];
  /** In file order; displays[0] is MAIN for the whole service. */
  displays: DisplayConfig[];
  displayById: Map<string, DisplayConfig>;
  units: UnitConfig[];
  /** Shared light sensors (docs/configuration.md, Shared sensors); a display's own sensor is DisplayConfig.sensor. */
  sensors: SharedSensorConfig[];
  latitude?: number;
  longitude?: number;
  timezone?: string;
  logRetentionDays: number;
  /** What the log files may take together, in MB (2^20 bytes); read at start. */
  logMaxMB: number;
  unknownAreaKeys: 'reject' | 'ignore';
  /**
   * Paths resolved; `fingerprint` changes with the files' bytes, so a renewed certificate is a change a reload applies.
   */
  https?: { cert: string; key: string; port: number; fingerprint: string };
  security?: { apiKey?: string; adminKey?: string };
  rateLimit: number;
  effectDurationMs: number;
  /** Frames per second of the render loop (default 50). */
  fps: number;
  /** Range a port written in a fetched URL must fall in (default 1025..65535). */
  urlPortRange: [number, number];
  /** ALSA device audio areas play to (default `default`). */
  audioDevice: string;
  /** How often a shown web area's page is rendered again (default 60 s). */
  webRefreshSeconds: number;
  /** Seconds the clock may be off its time source (chrony, timesyncd) before it is a problem on /status (default 5). */
  maxClockSkew: number;
  /** HTTP protection limits (docs/security.md), read when a server starts, like `port`; and the largest picture. */
  limits: HttpLimits & PictureLimits;
  /** /getethernetconfig and /setethernetconfig. */
  network: NetworkSettings;
  /** mDNS announcement; undefined = not announced. */
  mdns?: MdnsSettings;
  /** What is allowed but probably a slip (overlapping areas): shown by `mlds test` and on /status. */
  warnings: ConfigFault[];
  /** Fleet control through an MQTT broker (src/fleet); undefined = not connected. */
  mqtt?: MqttSettings;
  /** Transit feeds departures areas draw from (src/feeds); empty = none. */
  feeds: FeedConfig[];
  /** Largest feed response accepted, in MB. */
  feedMaxMB: number;
  /** The most a GTFS schedule's files may unzip to, in MB (2^20 bytes). */
  staticMaxMB: number;
  /** CAP emergency alert feeds (docs/alerts.md); empty = none fetched. */
  alerts: AlertFeedConfig[];
  /** The unit's own geocodes, matched against an alert area's `geocode`s. */
  geocodes: GeocodeConfig[];
  /** Largest alert feed or linked alert accepted, in MB (2^20 bytes). */
  alertMaxMB: number;
  /** Announcements read aloud (src/speech, docs/speech.md); undefined = nothing is spoken. */
  speech?: SpeechSettings;
  /** Largest software update bundle downloaded, in MB (2^20 bytes). */
  updateMaxMB: number;
  /** Where links read from fetched documents may lead (docs/security.md). */
  fetch: FetchSettings;
}
