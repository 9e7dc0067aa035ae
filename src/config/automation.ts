// Crons, pollers and the rules for every URL the service fetches (docs/configuration.md,
// Crons, Pollers and mappers; docs/security.md, the URLs the service fetches), kept apart from the display and area
// rules.
import { createRequire } from 'node:module';
import { pointer } from './faults.js';
import { parseBoolLike, parseIntLike } from './scalars.js';
import type { CronConfig, DisplayConfig, PollerConfig, PollerMapper } from './types.js';
import { checkUrl, DEFAULT_PORT_RANGE } from '../fetch/url-rules.js';
import { MldsError } from '../errors.js';

type Raw = Record<string, unknown>;
type Fault = (path: string, message: string) => void;

export function portRangeOf(raw: unknown, fault: Fault): [number, number] {
  if (!Array.isArray(raw) || raw.length !== 2) return [...DEFAULT_PORT_RANGE];
  const [min, max] = raw.map((v) => parseIntLike(v) ?? NaN);
  if (!(min >= 1 && max <= 65535 && min <= max)) {
    fault('/urlPortRange', 'must be [min, max] with 1 <= min <= max <= 65535');
    return [...DEFAULT_PORT_RANGE];
  }
  return [min, max];
}

export function normalizeCrons(raw: unknown, fault: Fault): CronConfig[] {
  const crons: CronConfig[] = [];
  (Array.isArray(raw) ? raw : []).forEach((c: unknown, i: number) => {
    if (!isObj(c) || typeof c.cron !== 'string') return;
    const err = cronError(c.cron);
    if (err) fault(pointer('crons', i, 'cron'), err);
    if ((c.type === 'sendInfo' || c.type === 'url') && !isHttpUrl(c.value))
      fault(pointer('crons', i, 'value'), `a ${String(c.type)} cron needs an http:// or https:// URL as value`);
    if (c.type === 'data' && (typeof c.value !== 'string' || c.value === ''))
      fault(pointer('crons', i, 'value'), 'a data cron needs a control query string as value');
    if (c.format !== undefined && c.type !== 'sendInfo')
      fault(pointer('crons', i, 'format'), 'only a sendInfo cron has a format');
    crons.push({
      type: c.type as CronConfig['type'],
      value: typeof c.value === 'string' ? c.value : undefined,
      cron: c.cron,
      format: c.format === 'json' ? 'json' : 'html',
    });
  });
  return crons;
}

export function normalizePollers(raw: unknown, fault: Fault): PollerConfig[] {
  const out: PollerConfig[] = [];
  (Array.isArray(raw) ? raw : []).forEach((p: unknown, i: number) => {
    if (!isObj(p)) return;
    const poller: PollerConfig = { url: String(p.url), interval: parseIntLike(p.interval) ?? 60 };
    if (parseBoolLike(p.keep)) poller.keep = true;
    const priority = parseIntLike(p.priority) ?? 0;
    if (priority > 0) {
      poller.priority = priority;
      // Long enough to outlast a late fetch or two; it ends on its own once the feed stops.
      poller.expires = parseIntLike(p.expires) ?? Math.min(3 * poller.interval, 86_400);
    } else if (p.expires !== undefined)
      fault(pointer('pollers', i, 'expires'), 'applies only to a poller with a priority above 0');
    if (isObj(p.mapper)) poller.mapper = mapperOf(p.mapper, pointer('pollers', i, 'mapper'), fault);
    out.push(poller);
  });
  return out;
}

function mapperOf(m: Raw, at: string, fault: Fault): PollerMapper {
  const areas: Record<string, string> = {};
  for (const [area, ptr] of Object.entries(isObj(m.areas) ? m.areas : {})) {
    // RFC 6901: empty (the whole document) or "/"-separated tokens with ~0 and ~1 escapes only.
    if (typeof ptr !== 'string' || !/^(\/([^~]|~[01])*)*$/.test(ptr))
      fault(`${at}/areas/${area}`, 'must be a JSON pointer (RFC 6901) such as "/departures/0/time"');
    else areas[area] = ptr;
  }
  return { id: String(m.id ?? ''), layout: String(m.layout ?? ''), areas };
}

/** Every URL the service fetches must follow the URL rules (port range, no credentials). */
export function checkFetchedUrls(
  displays: DisplayConfig[],
  crons: CronConfig[],
  pollers: PollerConfig[],
  range: [number, number],
  fault: Fault,
): void {
  const check = (url: string | undefined, at: string) => {
    if (url === undefined || !isHttpUrl(url)) return; // the schema or the type rules already said so
    try {
      checkUrl(url, range, at);
    } catch (err) {
      if (err instanceof MldsError) fault(at, err.message);
      else throw err;
    }
  };
  for (const d of displays) {
    check(d.brightnessUrl, pointer('displays', d.id, 'brightnessUrl'));
    check(d.startScreen.completeUrls, pointer('displays', d.id, 'startScreen', 'completeUrls'));
  }
  crons.forEach((c, i) => {
    if (c.type === 'sendInfo' || c.type === 'url') check(c.value, pointer('crons', i, 'value'));
  });
  pollers.forEach((p, i) => check(p.url, pointer('pollers', i, 'url')));
}

// cron (with luxon) loads only when a configuration has crons: synchronously, as loading is.
const requireCjs = createRequire(import.meta.url);

export function cronError(expr: string): string | undefined {
  const fields = expr.trim().split(/\s+/);
  const wanted = '6 fields (seconds minutes hours day-of-month month day-of-week)';
  if (fields.length !== 6) return `"${expr}" must have ${wanted}, it has ${fields.length}`;
  try {
    const { CronTime } = requireCjs('cron') as typeof import('cron');
    new CronTime(expr);
    return undefined;
  } catch (err) {
    return `"${expr}" is not a valid cron expression: ${(err as Error).message}`;
  }
}

const isObj = (v: unknown): v is Raw => v !== null && typeof v === 'object' && !Array.isArray(v);
export const isHttpUrl = (v: unknown): boolean => {
  if (typeof v !== 'string') return false;
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
};
