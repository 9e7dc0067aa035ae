// A real-sized GTFS schedule for the feeds bench, shaped like a city's subway (MTA's has
// 565,000 stop times): 20,000 trips of 28 stops over 400 stops, trip ids as long as MTA's.
// Stop `S1` is called at by one trip in five; `HUB` by every trip (a board at the busiest
// interchange keeps every trip's stop times).
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import yazl from 'yazl';
import { CALENDAR_HEADER } from '../test/feeds/fixtures.js';

export const TRIPS = 20_000;
export const STOPS_PER_TRIP = 28;

const tripId = (t: number) => `AFA23GEN-${1000 + (t % 900)}-Weekday-00_${String(t).padStart(6, '0')}_1..N03R`;
const two = (n: number) => String(n).padStart(2, '0');
const hms = (s: number) => `${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;

function stopTimes(): Readable {
  let t = 0;
  return new Readable({
    read() {
      if (t >= TRIPS) {
        this.push(null);
        return;
      }
      const lines = t === 0 ? ['trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign'] : [];
      for (const end = Math.min(TRIPS, t + 200); t < end; t++) {
        const start = 5 * 3600 + (t % 1000) * 60;
        for (let i = 0; i < STOPS_PER_TRIP; i++) {
          const at = hms(start + i * 90);
          const stop = i === 5 ? 'HUB' : i === 10 && t % 5 === 0 ? 'S1' : `${100 + ((t * 3 + i * 7) % 400)}N`;
          lines.push(`${tripId(t)},${at},${at},${stop},${i + 1},`);
        }
      }
      this.push(lines.join('\n') + '\n');
    },
  });
}

const text = (rows: string[][]) => Buffer.from(rows.map((r) => r.join(',')).join('\n') + '\n');

/** Writes the schedule's zip (deflated, as agencies publish it) to `file`. */
export async function writeRealSchedule(file: string): Promise<void> {
  const zip = new yazl.ZipFile();
  const stops = [
    ['stop_id', 'stop_name'],
    ['S1', 'Small Street'],
    ['HUB', 'Times Sq - 42 St'],
  ];
  for (let s = 0; s < 400; s++) stops.push([`${100 + s}N`, `Station ${s} Northbound`]);
  const trips = [['route_id', 'service_id', 'trip_id', 'trip_headsign']];
  const services = ['Weekday', 'Saturday', 'Sunday'];
  for (let t = 0; t < TRIPS; t++) trips.push([`R${t % 25}`, services[t % 3], tripId(t), `Terminal ${t % 40}`]);
  const routes = [['route_id', 'route_short_name', 'route_long_name', 'route_type']];
  for (let r = 0; r < 25; r++) routes.push([`R${r}`, String(r + 1), `Line ${r + 1} Local`, '1']);
  const week = [
    CALENDAR_HEADER,
    ['Weekday', '1', '1', '1', '1', '1', '0', '0', '20260101', '20271231'],
    ['Saturday', '0', '0', '0', '0', '0', '1', '0', '20260101', '20271231'],
    ['Sunday', '0', '0', '0', '0', '0', '0', '1', '20260101', '20271231'],
  ];
  const agency = [
    ['agency_name', 'agency_url', 'agency_timezone'],
    ['MTA New York City Transit', 'https://new.mta.info', 'America/New_York'],
  ];
  zip.addBuffer(text(agency), 'agency.txt');
  zip.addBuffer(text(stops), 'stops.txt');
  zip.addBuffer(text(trips), 'trips.txt');
  zip.addBuffer(text(routes), 'routes.txt');
  zip.addBuffer(text(week), 'calendar.txt');
  zip.addReadStream(stopTimes(), 'stop_times.txt');
  zip.end();
  const out = createWriteStream(file);
  zip.outputStream.pipe(out);
  await once(out, 'close');
}
