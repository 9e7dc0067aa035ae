// A board's rows as text: one row a departure, its cells in the order of the area's columns,
// and the moment the first of them would read differently (a countdown's minute, a departure
// leaving), so the board is asked again exactly then.
import type { DeparturesConfig } from '../../config/types.js';
import { formatEnglish, zonedAt } from '../../time/date-format.js';
import type { BoardData, Departure } from '../../config/board-source.js';

const MINUTE = 60_000;
/** A feed's text in a cell: one line, no tab, at most this long (memory stays bounded whatever it sends). */
const MAX_CELL = 255;

export interface BoardRows {
  /** Cells of each row, rows in order of time. */
  rows: string[][];
  /** ms epoch before which no row reads differently (Infinity: never, without news). */
  until: number;
}

const clean = (s: string): string => s.replace(/[\t\n\r]+/g, ' ').slice(0, MAX_CELL);

type Field = DeparturesConfig['fields'][number];

/**
 * Where a cancelled departure says so, beside its time so passengers can tell which train:
 * with both a `time` and a `countdown` column the time stays and the countdown reads
 * `cancelledText`; with one of them that cell reads its time, a space and `cancelledText`;
 * with neither the destination is followed by it.
 */
export function cancelledIn(fields: readonly Field[]): Field {
  if (fields.includes('countdown')) return 'countdown';
  return fields.includes('time') ? 'time' : 'destination';
}

function countdown(b: DeparturesConfig, d: Departure, now: number): string {
  const m = Math.floor((d.time - now) / MINUTE);
  return m < 1 ? b.nowText : b.minutesText.replaceAll('{m}', String(m));
}

function plain(b: DeparturesConfig, d: Departure, field: Field, now: number, zone: string): string {
  switch (field) {
    case 'route':
      return clean(d.route);
    case 'destination':
      return clean(d.destination);
    case 'platform':
      return clean(d.platform) + (d.platformChanged ? b.platformChangedMark : '');
    case 'countdown':
      return countdown(b, d, now);
    case 'time':
      return formatEnglish(zonedAt(d.time, undefined, b.timezone ?? d.zone ?? zone), 'HH:mm');
    case 'spacer':
      return '';
    case 'accessible':
      return d.accessible ? b.accessibleText : '';
    case 'occupancy':
      return d.occupancy === undefined ? '' : (b.occupancyTexts[d.occupancy] ?? '');
  }
}

function cell(b: DeparturesConfig, d: Departure, field: Field, now: number, zone: string): string {
  const timed = field === 'countdown' || field === 'time';
  if (!d.cancelled) return plain(b, d, field, now, zone) + (timed && !d.live ? b.scheduledMark : '');
  if (field !== cancelledIn(b.fields)) return plain(b, d, field, now, zone);
  if (field === 'countdown' && b.fields.includes('time')) return b.cancelledText;
  return `${plain(b, d, field, now, zone)} ${b.cancelledText}`;
}

const platforms = new Intl.Collator('en', { numeric: true });
/** Platforms in their natural order ("2" before "10"), a departure without one last; then by time. */
const byPlatform = (a: Departure, b: Departure): number =>
  (a.platform === '') !== (b.platform === '')
    ? a.platform === ''
      ? 1
      : -1
    : platforms.compare(a.platform, b.platform) || a.time - b.time;

/**
 * The rows of `data` at `now` (at most `limit`, departures before `now` left out). A countdown
 * reads floor((time - now) / 1 min) minutes: it changes 1 ms after time - m minutes, and the
 * departure leaves 1 ms after its time. Grouped by platform, the next departures are shown in
 * order of platform, then of time.
 */
export function boardRows(b: DeparturesConfig, data: BoardData, now: number, zone: string, limit: number): BoardRows {
  const shown = data.departures.filter((d) => d.time >= now).slice(0, limit);
  if (b.groupBy === 'platform') shown.sort(byPlatform);
  // A cancelled row's countdown is shown only where no time column takes its place.
  const cancelledCounts = b.fields.includes('countdown') && !b.fields.includes('time');
  let until = Infinity;
  for (const d of shown) {
    const m = Math.floor((d.time - now) / MINUTE);
    const counts = b.fields.includes('countdown') && (!d.cancelled || cancelledCounts);
    until = Math.min(until, counts ? d.time - Math.max(0, m) * MINUTE + 1 : d.time + 1);
  }
  return { rows: shown.map((d) => b.fields.map((f) => cell(b, d, f, now, zone))), until };
}
