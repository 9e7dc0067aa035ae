// What a GTFS schedule may hold, so a hostile zip cannot fill the unit's memory: one of 1.4 MB
// whose stop_times.txt inflates to 1.2 GB, 40,000 rows at a board's stop each with its own
// 30 KB trip_id, took the service from 105 to 743 MB in 7 minutes, still reading. The zip's
// declared sizes are checked first and the inflated bytes again as they arrive (a zip may lie);
// what is kept is bounded in count and in length. Beyond these the reading thread's heap limit
// (schedule-reader.ts) bounds what is left.
import { own } from './csv.js';

/** Entries a schedule's zip may hold: a GTFS feed has some 20 files. */
export const MAX_ENTRIES = 1000;
/** Characters of an id kept (stop_id, trip_id, route_id, service_id): the configuration's ids are at most 255 too. */
export const MAX_ID_CHARS = 255;
/** Characters of a text kept (names, headsigns, platform codes, the zone): a longer one is cut. */
export const MAX_TEXT_CHARS = 255;
/** Stops kept: the boards' own and their platforms (a station has tens). */
export const MAX_KEPT_STOPS = 10_000;
/** Trips calling at the boards' stops kept at most. */
export const MAX_KEPT_TRIPS = 100_000;
/** Stop times kept at most (those trips' stop times): a board's stops in a national feed keep far fewer. */
export const MAX_KEPT_STOP_TIMES = 1_000_000;

export class GtfsError extends Error {}

/** An id kept from `file`'s `field`, as its own string; longer than MAX_ID_CHARS, the schedule is refused. */
export function keptId(file: string, field: string, value: string): string {
  if (value.length > MAX_ID_CHARS) {
    const what = `${file} holds a ${field} of ${value.length} characters`;
    throw new GtfsError(`${what} where a board needs it (at most ${MAX_ID_CHARS})`);
  }
  return own(value);
}

/** A text kept, cut at MAX_TEXT_CHARS: a sign shows far less. */
export function keptText(value: string): string {
  return own(value.length > MAX_TEXT_CHARS ? value.slice(0, MAX_TEXT_CHARS) : value);
}

/**
 * The bytes a schedule's files inflate to, each file counted once however often it is read,
 * against `maxBytes`: first as the zip declares them, then as they arrive.
 */
export class InflateBudget {
  private readonly seen = new Map<string, number>();
  private total = 0;

  constructor(private readonly maxBytes: number) {}

  /** The files' sizes as the zip declares them. */
  declared(sizes: ReadonlyMap<string, number>): void {
    let sum = 0;
    for (const n of sizes.values()) sum += n;
    if (sum > this.maxBytes) {
      throw new GtfsError(`the schedule's files unzip to ${mb(sum)} (more than staticMaxMB, ${mb(this.maxBytes)})`);
    }
  }

  /** `file` has given `at` bytes so far in this read. */
  arrived(file: string, at: number): void {
    const before = this.seen.get(file) ?? 0;
    if (at <= before) return;
    this.total += at - before;
    this.seen.set(file, at);
    if (this.total > this.maxBytes) {
      throw new GtfsError(`the schedule's files unzip to more than staticMaxMB (${mb(this.maxBytes)}), at ${file}`);
    }
  }
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
