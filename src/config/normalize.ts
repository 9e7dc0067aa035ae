import { existsSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import path from 'node:path';
import { checkFetchedUrls, normalizeCrons, normalizePollers, portRangeOf } from './automation.js';
import { APPLIES_TO, DEFAULTS, FILE_TYPES, KEYED, defaultFontSize } from './areas.js';
import { pointer, type ConfigFault } from './faults.js';
import { fieldSettings } from './field-settings.js';
import { resolveAsset, unsafeReference } from './files.js';
import { normalizeSensors, sensorFrom } from './sensors.js';
import { formatEnglish, zonedAt } from '../time/date-format.js';
import { parseBoolLike, parseColorParts, parseIntLike, parseNumLike } from './scalars.js';
import type {
  AreaConfig, AreaType, DisplayConfig, LayoutConfig, OutputConfig, Rgb, Rgba,
  ServiceConfig, StartScreenConfig, UnitConfig,
} from './types.js';

type Raw = Record<string, unknown>;
const MAX_UNITS = 99;

/**
 * Cross-field rules the schema cannot express, and the conversion of the file's text
 * into typed values. Runs defensively on a file that may also have schema faults, so
 * one load reports everything wrong at once.
 */
export function normalize(raw: Raw, serviceDir: string, faults: ConfigFault[]): ServiceConfig {
  const fault = (p: string, message: string) => faults.push({ path: p, message });
  const displays: DisplayConfig[] = [];
  const rawDisplays = isObj(raw.displays) ? raw.displays : {};
  for (const [id, d] of Object.entries(rawDisplays)) {
    if (isObj(d)) displays.push(normalizeDisplay(id, d, serviceDir, fault));
  }
  const units = groupUnits(displays);
  if (units.length > MAX_UNITS) fault('/displays', `defines ${units.length} physical display units; at most ${MAX_UNITS} are allowed`);

  const crons = normalizeCrons(raw.crons, fault);
  const pollers = normalizePollers(raw.pollers, fault);
  const urlPortRange = portRangeOf(raw.urlPortRange, fault);
  checkFetchedUrls(displays, crons, pollers, urlPortRange, fault);
  const sensors = normalizeSensors(raw.sensors, displays, units, fault);

  const security = isObj(raw.security) ? { apiKey: str(raw.security.apiKey), adminKey: str(raw.security.adminKey) } : undefined;
  if (typeof raw.timezone === 'string' && !validZone(raw.timezone)) fault('/timezone', `"${raw.timezone}" is not an IANA time zone name such as Europe/Warsaw`);

  return {
    dir: serviceDir,
    port: parseIntLike(raw.port) ?? DEFAULTS.port,
    crons,
    pollers,
    displays,
    displayById: new Map(displays.map((d) => [d.id, d])),
    units,
    sensors,
    latitude: parseNumLike(raw.latitude),
    longitude: parseNumLike(raw.longitude),
    timezone: str(raw.timezone),
    logRetentionDays: parseIntLike(raw.logRetentionDays) ?? DEFAULTS.logRetentionDays,
    unknownAreaKeys: raw.unknownAreaKeys === 'ignore' ? 'ignore' : 'reject',
    security,
    rateLimit: parseIntLike(raw.rateLimit) ?? DEFAULTS.rateLimit,
    effectDurationMs: parseIntLike(raw.effectDurationMs) ?? DEFAULTS.effectDurationMs,
    fps: parseIntLike(raw.fps) ?? DEFAULTS.fps,
    urlPortRange,
    audioDevice: str(raw.audioDevice) ?? 'default',
    webRefreshSeconds: parseIntLike(raw.webRefreshSeconds) ?? 60,
    ...fieldSettings(raw, serviceDir, fault),
  };
}

type Fault = (path: string, message: string) => void;

function normalizeDisplay(id: string, d: Raw, dir: string, fault: Fault): DisplayConfig {
  const at = (...s: Array<string | number>) => pointer('displays', id, ...s);
  const width = parseIntLike(d.displayWidth) ?? 0;
  const height = parseIntLike(d.displayHeight) ?? 0;
  const layouts = new Map<string, LayoutConfig>();
  if (isObj(d.layout)) {
    for (const [name, l] of Object.entries(d.layout)) {
      if (!isObj(l)) continue;
      const areas: AreaConfig[] = [];
      for (const [areaId, a] of Object.entries(l)) {
        if (isObj(a)) {
          const area = normalizeArea(areaId, a, width, height, dir, (p, m) => fault(at('layout', name, areaId) + p, m));
          if (area) areas.push(area);
        }
      }
      layouts.set(name, { name, areas });
    }
  }
  const ss = isObj(d.startScreen) ? d.startScreen : {};
  const startScreen: StartScreenConfig = {
    completeUrls: str(ss.completeUrls),
    loadLastRequest: parseBoolLike(ss.loadLastRequest) ?? true,
    imageTtl: parseIntLike(ss.imageTtl),
  };
  if (typeof ss.image === 'string') {
    const r = resolveAsset(dir, 'images', ss.image);
    if ('error' in r) fault(at('startScreen', 'image'), r.error);
    else startScreen.image = r.file;
  }
  const displayIp = str(d.displayIp);
  const displayPort = parseIntLike(d.displayPort);
  const output = outputFor(d.output, displayIp, displayPort);
  return {
    id,
    displayName: str(d.displayName),
    displayIp,
    displayPort,
    controllerType: str(d.controllerType),
    confirmIp: str(d.confirmIp),
    confirmPort: parseIntLike(d.confirmPort),
    width,
    height,
    infoScreenTtl: parseIntLike(d.infoScreenTtl) ?? DEFAULTS.infoScreenTtl,
    sensorBrightness: parseBoolLike(d.sensorBrightness) ?? false,
    brightnessUrl: str(d.brightnessUrl),
    startScreen,
    layouts,
    output,
    sensor: isObj(d.sensor) ? sensorFrom(d.sensor) : undefined,
    unit: unitKey(output, displayIp, displayPort),
  };
}

function normalizeArea(id: string, a: Raw, dw: number, dh: number, dir: string, fault: Fault): AreaConfig | undefined {
  const type = a.type as AreaType;
  if (!APPLIES_TO.type.includes(type)) return undefined;
  for (const key of Object.keys(a)) {
    const types = APPLIES_TO[key];
    if (types && !types.includes(type)) fault(pointer(key), `does not apply to ${type} areas (only to ${types.join(', ')})`);
  }
  const c = typeof a.coordinates === 'string' ? a.coordinates.trim().split(/\s+/).map(Number) : [];
  if (c.length !== 4 || c.some((n) => !Number.isInteger(n))) return undefined;
  const [x, y, X, Y] = c;
  if (x > X || y > Y) fault('/coordinates', `"${String(a.coordinates)}": the lower-right corner must not be left of or above the upper-left corner`);
  else if (dw > 0 && dh > 0 && (X >= dw || Y >= dh)) fault('/coordinates', `"${String(a.coordinates)}" does not fit the ${dw}x${dh} display (largest corner is ${dw - 1} ${dh - 1})`);
  const height = Y - y + 1;

  const params: Record<string, string> = isObj(a.params) ? Object.fromEntries(Object.entries(a.params).map(([k, v]) => [k, String(v)])) : {};
  if (KEYED.includes(type) && !isObj(a.params)) fault('/params', `is required for ${type} areas (the request value is a key into it)`);
  const exts = FILE_TYPES[type];
  for (const [k, v] of Object.entries(params)) {
    const p = pointer('params', k);
    if (exts) {
      const r = fileCheck(dir, v, exts);
      if ('error' in r) fault(p, r.error); else params[k] = r.file;
    } else if (type === 'web') {
      if (!isHttpUrl(v)) fault(p, 'must be an http:// or https:// URL');
    } else if (v.length > 255) fault(p, 'must be at most 255 characters');
  }
  let defaultValue = str(a.defaultValue);
  if (defaultValue !== undefined && defaultValue !== '' && exts) {
    const r = fileCheck(dir, defaultValue, exts);
    if ('error' in r) fault('/defaultValue', r.error); else defaultValue = r.file;
  }

  let font: string | undefined;
  if (APPLIES_TO.font.includes(type)) {
    const r = resolveAsset(dir, 'fonts', typeof a.font === 'string' ? a.font : DEFAULTS.defaultFont);
    if ('error' in r) fault('/font', r.error);
    else if (!/\.(ttf|otf)$/i.test(r.file)) fault('/font', 'must be a .ttf or .otf file');
    else font = r.file;
  }
  const fontSize = parseIntLike(a.fontSize) ?? defaultFontSize(height);
  if (a.fontSize !== undefined && height > 0 && fontSize >= height) fault('/fontSize', `${fontSize} must be smaller than the area height (${height} px)`);

  if (type === 'date' && typeof a.dateFormat === 'string') {
    const err = dateFormatError(a.dateFormat);
    if (err) fault('/dateFormat', err);
  }
  const xy = typeof a.xy === 'string' ? a.xy.trim().split(/\s+/).map(Number) : undefined;

  return {
    id,
    type,
    x, y, width: X - x + 1, height,
    ttl: parseIntLike(a.ttl),
    defaultValue,
    params,
    align: (a.align as AreaConfig['align']) ?? DEFAULTS.align,
    font,
    fontSize,
    fontColor: rgb(a.fontColor) ?? DEFAULTS.fontColor,
    backgroundColor: rgba(a.backgroundColor),
    textFromStart: parseBoolLike(a.textFromStart) ?? DEFAULTS.textFromStart,
    textLiveUpdate: parseBoolLike(a.textLiveUpdate) ?? DEFAULTS.textLiveUpdate,
    headToTail: parseIntLike(a.headToTail) ?? DEFAULTS.headToTail,
    scrollSpeed: parseIntLike(a.scrollSpeed) ?? DEFAULTS.scrollSpeed,
    dispEffect: parseIntLike(a.dispEffect) ?? DEFAULTS.effect,
    clearEffect: parseIntLike(a.clearEffect) ?? DEFAULTS.effect,
    dateOffset: parseNumLike(a.dateOffset),
    dateFormat: type === 'date' ? str(a.dateFormat) ?? DEFAULTS.dateFormat : undefined,
    xy: xy && xy.length === 2 ? { x: xy[0], y: xy[1] } : undefined,
  };
}

function fileCheck(dir: string, name: string, exts: string[]): { file: string } | { error: string } {
  const unsafe = unsafeReference(name, 'images');
  if (unsafe) return { error: unsafe };
  if (!exts.includes(path.extname(name).toLowerCase())) return { error: `"${name}" must be a ${exts.join(', ')} file` };
  return resolveAsset(dir, 'images', name);
}

/** A pattern java.time would reject fails here, at load, rather than on screen. */
function dateFormatError(pattern: string): string | undefined {
  try {
    formatEnglish(zonedAt(0, 0, 'UTC'), pattern);
    return undefined;
  } catch (err) {
    return `is not a valid DateTimeFormatter pattern: ${(err as Error).message.split('\n')[0]} (quote literal text: 'at')`;
  }
}

function outputFor(raw: unknown, ip: string | undefined, port: number | undefined): OutputConfig {
  if (isObj(raw)) {
    switch (raw.driver) {
      case 'fbdev': return { driver: 'fbdev', device: String(raw.device) };
      case 'colorlight': return { driver: 'colorlight', interface: String(raw.interface) };
      case 'ddp': return { driver: 'ddp', host: ip ?? '127.0.0.1', port: port ?? DEFAULTS.ddpPort };
      default: return { driver: 'virtual' };
    }
  }
  if (ip === undefined || isLocalAddress(ip)) return existsSync('/dev/fb0') ? { driver: 'fbdev', device: '/dev/fb0' } : { driver: 'virtual' };
  return { driver: 'ddp', host: ip, port: port ?? DEFAULTS.ddpPort };
}

function unitKey(o: OutputConfig, ip: string | undefined, port: number | undefined): string {
  switch (o.driver) {
    case 'fbdev': return `fbdev:${o.device}`;
    case 'colorlight': return `colorlight:${o.interface}`;
    case 'ddp': return `ddp:${o.host}:${o.port}`;
    case 'virtual': return `virtual:${ip ?? '127.0.0.1'}:${port ?? ''}`;
  }
}

function groupUnits(displays: DisplayConfig[]): UnitConfig[] {
  const units = new Map<string, UnitConfig>();
  for (const d of displays) {
    const u = units.get(d.unit);
    if (u) {
      u.displayIds.push(d.id);
      u.width = Math.max(u.width, d.width);
      u.height = Math.max(u.height, d.height);
    } else units.set(d.unit, { key: d.unit, output: d.output, width: d.width, height: d.height, displayIds: [d.id] });
  }
  return [...units.values()];
}

function validZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function isLocalAddress(ip: string): boolean {
  if (ip.startsWith('127.')) return true;
  return Object.values(networkInterfaces()).some((list) => list?.some((i) => i.address === ip));
}

function rgb(v: unknown): Rgb | undefined {
  const p = parseColorParts(v);
  return p && p.length === 3 ? { r: p[0], g: p[1], b: p[2] } : undefined;
}

function rgba(v: unknown): Rgba | undefined {
  const p = parseColorParts(v);
  if (!p || p.length < 3) return undefined;
  // GD alpha: 0 opaque .. 127 fully transparent.
  return { r: p[0], g: p[1], b: p[2], a: p.length === 4 ? 1 - Math.min(127, p[3]) / 127 : 1 };
}

const isObj = (v: unknown): v is Raw => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const isHttpUrl = (v: unknown): boolean => {
  if (typeof v !== 'string') return false;
  try { const u = new URL(v); return u.protocol === 'http:' || u.protocol === 'https:'; } catch { return false; }
};
