// The `feeds` section (docs/configuration.md, Feeds; docs/feeds.md): transit agencies' realtime
// feeds that departures areas draw from. Checked here so a wrong zone, a missing schedule file
// or an alert area no board's layout holds is a fault with its JSON path at load.
import { isZoneName } from '../time/zone-name.js';
import { pointer } from './faults.js';
import { resolveInclude } from './files.js';
import { parseIntLike } from './scalars.js';
import type { BoardArea, FeedConfig } from './feed-types.js';
import { isHttpUrl } from './automation.js';
import { checkUrl } from '../fetch/url-rules.js';
import { MldsError } from '../errors.js';
import { rawBoard } from './area-types/departures.js';

type Raw = Record<string, unknown>;
type Fault = (path: string, message: string) => void;

export const FEED_DEFAULTS = { interval: 30, maxClockSkew: 120, feedMaxMB: 16, staticMaxMB: 4096 } as const;

export function normalizeFeeds(raw: Raw, dir: string, fault: Fault): FeedConfig[] {
  const feeds: FeedConfig[] = [];
  if (!isObj(raw.feeds)) return feeds;
  for (const [id, f] of Object.entries(raw.feeds)) {
    if (!isObj(f)) continue;
    const at = (field: string) => pointer('feeds', id, field);
    const type = f.type === 'siri' ? 'siri' : 'gtfs-rt';
    const feed: FeedConfig = {
      id,
      type,
      url: String(f.url ?? ''),
      interval: parseIntLike(f.interval) ?? FEED_DEFAULTS.interval,
      maxClockSkew: parseIntLike(f.maxClockSkew) ?? FEED_DEFAULTS.maxClockSkew,
      boards: boardAreas(raw).filter((b) => b.feed === id),
    };
    if (typeof f.timezone === 'string') {
      if (isZoneName(f.timezone)) feed.timezone = f.timezone;
      else fault(at('timezone'), `"${f.timezone}" is not an IANA time zone name such as Europe/Berlin`);
    }
    if (typeof f.static === 'string') {
      if (type !== 'gtfs-rt') fault(at('static'), 'only a gtfs-rt feed has a GTFS schedule');
      else if (isHttpUrl(f.static)) feed.static = { url: f.static };
      else {
        const r = resolveInclude(dir, f.static);
        if ('error' in r) fault(at('static'), r.error);
        else feed.static = { file: r.file };
      }
    }
    if (typeof f.alertsUrl === 'string') feed.alertsUrl = f.alertsUrl;
    if (typeof f.vehiclePositionsUrl === 'string') {
      if (type !== 'gtfs-rt')
        fault(
          at('vehiclePositionsUrl'),
          'only a gtfs-rt feed has a VehiclePositions feed (SIRI gives occupancy itself)',
        );
      else feed.vehiclePositionsUrl = f.vehiclePositionsUrl;
    }
    if (f.method === 'post') {
      if (type !== 'siri') fault(at('method'), 'only a siri feed is asked by POST (a SIRI-SM ServiceRequest)');
      else if (typeof f.requestorRef !== 'string') {
        fault(
          at('requestorRef'),
          'a siri feed asked by POST names itself in its ServiceRequest: ' +
            'give requestorRef (the id the SIRI server gave this client)',
        );
      } else {
        feed.method = 'post';
        feed.requestorRef = f.requestorRef;
      }
    } else if (f.requestorRef !== undefined) fault(at('requestorRef'), 'applies only with "method": "post"');
    if (isObj(f.headers))
      feed.headers = Object.fromEntries(
        Object.entries(f.headers).filter((e): e is [string, string] => typeof e[1] === 'string'),
      );
    if (feed.alertsUrl !== undefined && !feed.boards.some((b) => b.alertArea !== undefined))
      fault(
        at('alertsUrl'),
        `no departures area of feed "${id}" names an alertArea, the area of its layout that shows an alert`,
      );
    feeds.push(feed);
  }
  return feeds;
}

/** A board's feed exists; its alert area is an area of its layout, for a feed that has alerts. */
export function checkBoards(raw: Raw, feeds: FeedConfig[], fault: Fault): void {
  for (const b of boardAreas(raw)) {
    const at = (field: string) => pointer('displays', b.display, 'layout', b.layout, b.area, field);
    const feed = feeds.find((f) => f.id === b.feed);
    if (!feed) {
      fault(at('feed'), `"${b.feed}" names no feed in "feeds"`);
      continue;
    }
    if (b.alertArea === undefined) continue;
    if (b.alertArea === b.area || !b.areas.includes(b.alertArea))
      fault(at('alertArea'), `"${b.alertArea}" is not another area of layout "${b.layout}"`);
    else if (feed.alertsUrl === undefined) fault(at('alertArea'), `applies only when feed "${b.feed}" has alertsUrl`);
  }
}

/** Every departures area of the file, with its display, layout and the layout's area ids (read defensively). */
export function boardAreas(raw: Raw): BoardArea[] {
  const out: BoardArea[] = [];
  const displays = isObj(raw.displays) ? raw.displays : {};
  for (const [display, d] of Object.entries(displays)) {
    if (!isObj(d) || !isObj(d.layout)) continue;
    for (const [layout, l] of Object.entries(d.layout)) {
      if (!isObj(l)) continue;
      for (const [area, a] of Object.entries(l)) {
        const board = isObj(a) ? rawBoard(a) : undefined;
        if (board) out.push({ display, layout, area, areas: Object.keys(l), ...board });
      }
    }
  }
  return out;
}

const isObj = (v: unknown): v is Raw => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A feed's URLs follow the rules of every URL the service fetches. */
export function checkFeedUrls(feeds: FeedConfig[], range: [number, number], fault: Fault): void {
  for (const f of feeds) {
    const urls: Array<[string, string | undefined]> = [
      ['url', f.url],
      ['alertsUrl', f.alertsUrl],
      ['vehiclePositionsUrl', f.vehiclePositionsUrl],
      ['static', f.static && 'url' in f.static ? f.static.url : undefined],
    ];
    for (const [field, url] of urls) {
      if (url === undefined || !isHttpUrl(url)) continue;
      try {
        checkUrl(url, range, field);
      } catch (err) {
        if (err instanceof MldsError) fault(pointer('feeds', f.id, field), err.message);
        else throw err;
      }
    }
  }
}
