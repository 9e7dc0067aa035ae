// How /info writes values for a person: escaped HTML, times in the unit's own zone, durations,
// stored queries decoded.

export type Obj = Record<string, unknown>;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const esc = (v: unknown): string => String(v ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c]);

/**
 * Free text (area texts, messages, paths, URLs): escaped, and a long token may break after
 * a slash, so a URL wraps at its path segments instead of wherever the line ends.
 */
export const text = (v: unknown): string => esc(v).replace(/\S{25,}/g, (t) => t.replace(/\/(?!\/)/g, '/<wbr>'));

/** `+` is a space and `%XX` is decoded, as the control path reads a query; a bad escape stays as written. */
function decode(s: string): string {
  const plus = s.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(plus);
  } catch {
    return plus;
  }
}

/** A stored query as a person reads it: `destination=Dworzec Gdański`, not `%C5%84`, one pair per line. */
export function readableQuery(query: unknown): string {
  return String(query ?? '')
    .split('&')
    .filter((p) => p !== '')
    .map((p) => {
      const eq = p.indexOf('=');
      const name = decode(eq < 0 ? p : p.slice(0, eq));
      const value = eq < 0 ? '' : `=${text(decode(p.slice(eq + 1)))}`;
      return `<span class="pair"><span class="name">${esc(name)}</span>${value}</span>`;
    })
    .join(' ');
}

const zoneNames = new Map<string, Intl.DateTimeFormat[]>();

/**
 * The zone's short name as people on site know it: en-US knows EST but calls Warsaw GMT+1,
 * en-GB knows CET but calls New York GMT-5; the first that is not a GMT offset wins.
 */
function zoneName(date: Date, zone: string): string {
  let fmts = zoneNames.get(zone);
  if (!fmts) {
    fmts = ['en-US', 'en-GB'].map((l) => new Intl.DateTimeFormat(l, { timeZone: zone, timeZoneName: 'short' }));
    zoneNames.set(zone, fmts);
  }
  const names = fmts.map((f) => f.formatToParts(date).find((p) => p.type === 'timeZoneName')?.value ?? '');
  return names.find((n) => n && !/^(GMT|UTC)[+-]/.test(n)) ?? names[0];
}

const stamps = new Map<string, Intl.DateTimeFormat>();

/** `2026-11-21 20:14:05 CET`: the unit's local time, to the second; an unknown zone falls back to UTC. */
export function localTime(iso: unknown, zone: string): string {
  if (typeof iso !== 'string' && typeof iso !== 'number') return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  let fmt = stamps.get(zone);
  if (!fmt) {
    try {
      fmt = new Intl.DateTimeFormat('en-CA', {
        timeZone: zone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
      });
    } catch {
      return zone === 'UTC' ? date.toISOString() : localTime(iso, 'UTC');
    }
    stamps.set(zone, fmt);
  }
  const p = Object.fromEntries(fmt.formatToParts(date).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second} ${zoneName(date, zone)}`;
}

/** A local time that never wraps inside itself. */
export const when = (iso: unknown, zone: string): string => `<span class="when">${esc(localTime(iso, zone))}</span>`;

/** `2 d 3 h 14 min`; under a minute in seconds. */
export function duration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 60) return `${Math.max(0, Math.round(seconds || 0))} s`;
  const m = Math.floor(seconds / 60);
  const [d, h, min] = [Math.floor(m / 1440), Math.floor(m / 60) % 24, m % 60];
  return d ? `${d} d ${h} h ${min} min` : h ? `${h} h ${min} min` : `${min} min`;
}

/** One label/value row; an empty value shows as a dim "none". `html` is already escaped. */
export function row(label: string, html: string | undefined, cls = ''): string {
  const value = html === undefined || html === '' ? '<span class="dim">none</span>' : html;
  return `<tr><th>${esc(label)}</th><td${cls ? ` class="${cls}"` : ''}>${value}</td></tr>`;
}

/** The page's label/value grid; `rows` is HTML. */
export const kvTable = (rows: string): string => `<table class="kv"><tbody>${rows}</tbody></table>`;

/** The grid of `rows`, or a dim "none" when there are none. */
export const kvTableOrNone = (rows: string[]): string =>
  rows.length ? kvTable(rows.join('')) : '<p class="dim">none</p>';

/** A capability's card: `name` marks it (data-component), `title` heads it, `body` is HTML. */
export function card(name: string, title: string, body: string): string {
  return `<section class="card component" data-component="${esc(name)}"><h2>${esc(title)}</h2>${body}</section>`;
}

/** A capability's card holding one label/value grid. */
export const kvCard = (name: string, title: string, rows: string): string => card(name, title, kvTable(rows));
