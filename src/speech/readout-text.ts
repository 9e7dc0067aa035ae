// What a readout says: the display as it is now, in sentences. Alerts first (the levels the CAP
// alerts and the feeds' alerts hold, highest first), then the level on show, its areas in
// layout order: a text area as it is read (MULTI tags dropped, a page a pause), a departures
// area row by row from the same BoardSource its drawer asks ("Line 7 to Airport, platform 2, in
// 2 minutes; cancelled: line 9 to Park at 14:20"). Pictures, video, clocks and pages on the web
// have no words and are passed over.
import { kindOf } from '../config/area-types/registry.js';
import type { BoardSource, Departure } from '../config/board-source.js';
import type { AreaConfig, DisplayConfig } from '../config/types.js';
import type { AreaState, DisplayState, Layer } from '../control/state.js';
import { spokenText } from './words.js';

/** Departures read from a board whose `rows` is not set. */
export const READOUT_ROWS = 8;
/** Sources whose levels are alerts (src/alerts: cap; src/feeds/alerts.ts: feed). */
const ALERT_SOURCES = new Set(['cap', 'feed']);

const clocks = new Map<string, Intl.DateTimeFormat>();
function hhmm(ms: number, zone: string | undefined): string {
  const key = zone ?? '';
  let f = clocks.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    clocks.set(key, f);
  }
  return f.format(new Date(ms));
}

/** One row of a board as a phrase; `zone` tells clock times where the departure gives none. */
export function departurePhrase(d: Departure, now: number, zone: string | undefined): string {
  const where = d.platform ? `, platform ${d.platform}` : '';
  const at = hhmm(d.time, d.zone ?? zone);
  if (d.cancelled) return `cancelled: line ${d.route} to ${d.destination}${where} at ${at}`;
  const m = Math.floor((d.time - now) / 60_000);
  const when = m <= 0 ? 'now' : m === 1 ? 'in 1 minute' : m < 60 ? `in ${m} minutes` : `at ${at}`;
  return `Line ${d.route} to ${d.destination}${where}, ${when}`;
}

function boardWords(area: AreaConfig, boards: BoardSource | undefined, now: number, zone: string | undefined): string {
  if (!('departures' in area)) return '';
  const b = area.departures;
  let data;
  try {
    const limit = b.rows ?? READOUT_ROWS;
    data = boards?.board({ feed: b.feed, stops: b.stops, routes: b.routes, staleAfter: b.staleAfter, now, limit });
  } catch {
    data = undefined;
  }
  if (!data || data.state === 'no-data') return spokenText(b.noDataText);
  if (!data.departures.length) return spokenText(b.noDeparturesText);
  const rows = data.departures.slice(0, b.rows ?? READOUT_ROWS);
  return rows.map((d) => departurePhrase(d, now, b.timezone ?? zone)).join('; ');
}

function areaWords(a: AreaState, boards: BoardSource | undefined, now: number, zone: string | undefined): string {
  const spoken = kindOf(a.area.type).spoken;
  if (spoken === 'board') return boardWords(a.area, boards, now, zone);
  if (spoken !== 'text' || a.source === 'none' || !a.text) return '';
  return spokenText(a.text, 'markup' in a.area && a.area.markup === 'multi');
}

function layerWords(
  areas: ReadonlyMap<string, AreaState>,
  display: DisplayConfig,
  layout: string | undefined,
  boards: BoardSource | undefined,
  now: number,
  zone: string | undefined,
): string[] {
  // In the order the layout lists its areas, as a passenger reads the sign.
  const order = display.layouts.get(layout ?? '')?.areas.map((a) => a.id) ?? [...areas.keys()];
  const out: string[] = [];
  for (const id of order) {
    const a = areas.get(id);
    const w = a ? areaWords(a, boards, now, zone) : '';
    if (w) out.push(w);
  }
  return out;
}

/** Sentences joined: each ends in a full stop unless it ends in other punctuation. */
const sentences = (parts: string[]): string => parts.map((p) => (/[.!?]$/.test(p) ? p : `${p}.`)).join(' ');

/** What the readout of `state` says now; '' when the display shows nothing with words. */
export function readoutText(
  display: DisplayConfig,
  state: DisplayState | undefined,
  boards: BoardSource | undefined,
  now: number,
  zone: string | undefined,
): string {
  if (!state?.layout && !state?.layers?.length) return '';
  // The text of an announcement shown while it is spoken (showSpoken) is not the sign's.
  const layers: readonly Layer[] = (state.layers ?? []).filter((l) => l.source !== 'speech');
  const alerts = layers.filter((l) => l.priority > 0 && ALERT_SOURCES.has(l.source));
  const words = (areas: ReadonlyMap<string, AreaState>, layout: string | undefined) =>
    layerWords(areas, display, layout, boards, now, zone);
  const parts = alerts.flatMap((l) => words(l.areas, l.layout));
  const onShow = layers[0];
  if (!state.layers?.length) parts.push(...words(state.areas, state.layout));
  else if (onShow && !alerts.includes(onShow)) parts.push(...words(onShow.areas, onShow.layout));
  return sentences(parts);
}
