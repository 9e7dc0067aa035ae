import { isZoneName } from '../time/zone-name.js';
import { existsSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { checkFetchedUrls, normalizeCrons, normalizePollers, portRangeOf } from './automation.js';
import { normalizeArea, type AreaSettings } from './area-config.js';
import { crossCheck } from './cross-checks.js';
import { DEFAULTS } from './areas.js';
import { pointer, type ConfigFault } from './faults.js';
import { fieldSettings, pictureMegapixelsOf } from './field-settings.js';
import { mqttOf } from './mqtt.js';
import { checkBoards, checkFeedUrls, FEED_DEFAULTS, normalizeFeeds } from './feeds.js';
import { alertsOf } from './alerts.js';
import { speechOf } from './speech.js';
import { readoutOf, showSpokenOf } from './readout.js';
import { fetchSettingsOf } from './fetch-settings.js';
import { resolveAsset } from './files.js';
import { pictureFileFault } from '../media/picture-header.js';
import { MEGAPIXEL } from '../media/picture-limits.js';
import { normalizeSensors, sensorFrom } from './sensors.js';
import { parseBoolLike, parseIntLike, parseNumLike } from './scalars.js';
import type {
  AreaConfig,
  DisplayConfig,
  LayoutConfig,
  OutputConfig,
  ServiceConfig,
  StartScreenConfig,
  UnitConfig,
} from './types.js';
import { CONTROL_OPTIONS } from './reserved-names.js';

type Raw = Record<string, unknown>;
const MAX_UNITS = 99;

/**
 * Cross-field rules the schema cannot express, and the conversion of the file's text
 * into typed values. Runs defensively on a file that may also have schema faults, so
 * one load reports everything wrong at once.
 */
export function normalize(raw: Raw, serviceDir: string, faults: ConfigFault[]): ServiceConfig {
  const fault = (p: string, message: string) => faults.push({ path: p, message });
  const urlPortRange = portRangeOf(raw.urlPortRange, fault);
  const areaSettings: AreaSettings = {
    urlPortRange,
    webRefreshSeconds: parseIntLike(raw.webRefreshSeconds) ?? DEFAULTS.webRefreshSeconds,
    maxPicturePixels: pictureMegapixelsOf(raw.limits) * MEGAPIXEL,
  };
  const displays: DisplayConfig[] = [];
  const rawDisplays = isObj(raw.displays) ? raw.displays : {};
  for (const [id, d] of Object.entries(rawDisplays)) {
    if (isObj(d)) displays.push(normalizeDisplay(id, d, serviceDir, areaSettings, fault));
  }
  const units = groupUnits(displays);
  if (units.length > MAX_UNITS)
    fault('/displays', `defines ${units.length} physical display units; at most ${MAX_UNITS} are allowed`);

  const crons = normalizeCrons(raw.crons, fault);
  const pollers = normalizePollers(raw.pollers, fault);
  checkFetchedUrls(displays, crons, pollers, urlPortRange, fault);
  const feeds = normalizeFeeds(raw, serviceDir, fault);
  checkFeedUrls(feeds, urlPortRange, fault);
  checkBoards(raw, feeds, fault);
  const sensors = normalizeSensors(raw.sensors, displays, units, fault);

  const security = isObj(raw.security)
    ? { apiKey: str(raw.security.apiKey), adminKey: str(raw.security.adminKey) }
    : undefined;
  if (typeof raw.timezone === 'string' && !isZoneName(raw.timezone))
    fault('/timezone', `"${raw.timezone}" is not an IANA time zone name such as Europe/Warsaw`);

  const config: ServiceConfig = {
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
    logMaxMB: parseIntLike(raw.logMaxMB) ?? DEFAULTS.logMaxMB,
    unknownAreaKeys: raw.unknownAreaKeys === 'ignore' ? 'ignore' : 'reject',
    security,
    rateLimit: parseIntLike(raw.rateLimit) ?? DEFAULTS.rateLimit,
    effectDurationMs: parseIntLike(raw.effectDurationMs) ?? DEFAULTS.effectDurationMs,
    fps: parseIntLike(raw.fps) ?? DEFAULTS.fps,
    urlPortRange,
    audioDevice: str(raw.audioDevice) ?? DEFAULTS.audioDevice,
    webRefreshSeconds: areaSettings.webRefreshSeconds,
    maxClockSkew: parseIntLike(raw.maxClockSkew) ?? DEFAULTS.maxClockSkew,
    ...fieldSettings(raw, serviceDir, fault),
    warnings: [],
    mqtt: mqttOf(raw.mqtt, serviceDir, fault),
    feeds,
    feedMaxMB: parseIntLike(raw.feedMaxMB) ?? FEED_DEFAULTS.feedMaxMB,
    staticMaxMB: parseIntLike(raw.staticMaxMB) ?? FEED_DEFAULTS.staticMaxMB,
    ...alertsOf(raw, displays, urlPortRange, fault),
    speech: speechOf(raw.speech, serviceDir, fault),
    updateMaxMB: parseIntLike(raw.updateMaxMB) ?? DEFAULTS.updateMaxMB,
    fetch: fetchSettingsOf(raw.fetch, fault),
  };
  if (!config.speech) {
    for (const d of displays) {
      const what = (['readout', 'showSpoken', 'volume'] as const).find((k) => d[k] !== undefined);
      if (what)
        fault(pointer('displays', d.id, what), `"${what}" needs the "speech" section: nothing is spoken without it`);
    }
  }
  config.warnings = crossCheck(config, raw, fault);
  return config;
}

type Fault = (path: string, message: string) => void;

function normalizeDisplay(id: string, d: Raw, dir: string, settings: AreaSettings, fault: Fault): DisplayConfig {
  const at = (...s: Array<string | number>) => pointer('displays', id, ...s);
  const width = parseIntLike(d.displayWidth) ?? 0;
  const height = parseIntLike(d.displayHeight) ?? 0;
  const layouts = new Map<string, LayoutConfig>();
  if (isObj(d.layout)) {
    for (const [name, l] of Object.entries(d.layout)) {
      if (!isObj(l)) continue;
      const areas: AreaConfig[] = [];
      for (const [areaId, a] of Object.entries(l)) {
        if (CONTROL_OPTIONS.has(areaId))
          fault(
            at('layout', name, areaId),
            `"${areaId}" is a reserved query name (keep, priority, expires); name the area otherwise`,
          );
        if (isObj(a)) {
          const area = normalizeArea(areaId, a, width, height, dir, settings, (p, m) =>
            fault(at('layout', name, areaId) + p, m),
          );
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
    const why = 'error' in r ? r.error : pictureFileFault(r.file, settings.maxPicturePixels);
    if ('error' in r || why !== undefined)
      fault(at('startScreen', 'image'), 'error' in r ? r.error : `"${ss.image}" ${why}`);
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
    pitchMm: parseNumLike(d.pitchMm),
    viewingDistanceM: parseNumLike(d.viewingDistanceM),
    sensorBrightness: parseBoolLike(d.sensorBrightness) ?? false,
    brightnessUrl: str(d.brightnessUrl),
    startScreen,
    layouts,
    output,
    sensor: isObj(d.sensor) ? sensorFrom(d.sensor) : undefined,
    readout: readoutOf(d.readout),
    showSpoken: showSpokenOf(d.showSpoken, layouts, at('showSpoken'), fault),
    volume: parseIntLike(d.volume),
    unit: unitKey(output, displayIp, displayPort),
  };
}

function outputFor(raw: unknown, ip: string | undefined, port: number | undefined): OutputConfig {
  if (isObj(raw)) {
    switch (raw.driver) {
      case 'fbdev':
        return { driver: 'fbdev', device: String(raw.device) };
      case 'colorlight':
        return { driver: 'colorlight', interface: String(raw.interface) };
      case 'ddp':
        return { driver: 'ddp', host: ip ?? '127.0.0.1', port: port ?? DEFAULTS.ddpPort };
      default:
        return { driver: 'virtual' };
    }
  }
  if (ip === undefined || isLocalAddress(ip))
    return existsSync('/dev/fb0') ? { driver: 'fbdev', device: '/dev/fb0' } : { driver: 'virtual' };
  return { driver: 'ddp', host: ip, port: port ?? DEFAULTS.ddpPort };
}

function unitKey(o: OutputConfig, ip: string | undefined, port: number | undefined): string {
  switch (o.driver) {
    case 'fbdev':
      return `fbdev:${o.device}`;
    case 'colorlight':
      return `colorlight:${o.interface}`;
    case 'ddp':
      return `ddp:${o.host}:${o.port}`;
    case 'virtual':
      return `virtual:${ip ?? '127.0.0.1'}:${port ?? ''}`;
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

function isLocalAddress(ip: string): boolean {
  if (ip.startsWith('127.')) return true;
  return Object.values(networkInterfaces()).some((list) => list?.some((i) => i.address === ip));
}

const isObj = (v: unknown): v is Raw => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
