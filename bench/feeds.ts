// Transit feeds: decoding and keeping a 5 MB GTFS-realtime TripUpdates feed the way the feeds
// capability does (one FeedEntity at a time, pausing every 4 ms, keeping the trips a board
// needs) against decoding it whole with the bindings alone, in the same run, alternating; and
// the longest time the event loop (the frame loop's) is held while the feed decodes. Then a
// real-sized GTFS schedule (bench/gtfs-schedule.ts) read as the service reads it, in its own
// thread, against inflating its files alone, each in a process of its own (gtfs-load-child.ts).
// `benchFeeds()` returns markdown lines; run alone with `node --import tsx bench/feeds.ts`.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { promisify } from 'node:util';
import GtfsRealtimeBindings from 'gtfs-realtime-bindings';
import { decodeTripUpdates } from '../src/feeds/gtfs-rt.js';
import { parseDocument, parseSiri } from '../src/feeds/siri.js';
import { STOPS_PER_TRIP, TRIPS, writeRealSchedule } from './gtfs-schedule.js';
import { mtaMissing, mtaTables, mtaZip } from '../test/feeds/real-mta.js';

const rt = GtfsRealtimeBindings.transit_realtime;
const ROUNDS = Number(process.env.MLDS_BENCH_FEEDS_ROUNDS ?? 7);

/** A feed of about `bytes`: trips of 20 stops, each stop with a delay and a time. */
export function bigFeed(bytes: number): { buf: Buffer; trips: string[] } {
  const now = Math.floor(Date.now() / 1000);
  const entity: GtfsRealtimeBindings.transit_realtime.IFeedEntity[] = [];
  const trips: string[] = [];
  let size = 0;
  for (let t = 0; size < bytes; t++) {
    const tripId = `trip-${t}-${'x'.repeat(12)}`;
    trips.push(tripId);
    const stopTimeUpdate = Array.from({ length: 20 }, (_, i) => ({
      stopSequence: i + 1,
      stopId: `stop-${(t * 7 + i) % 5000}`,
      departure: { delay: t % 300, time: now + i * 120 },
    }));
    entity.push({
      id: `e${t}`,
      tripUpdate: { trip: { tripId, routeId: `r${t % 200}`, startDate: '20261128' }, stopTimeUpdate },
    });
    size += 40 + 20 * 26;
  }
  const buf = Buffer.from(
    rt.FeedMessage.encode(
      rt.FeedMessage.create({ header: { gtfsRealtimeVersion: '2.0', timestamp: now }, entity }),
    ).finish(),
  );
  return { buf, trips };
}

/** A SIRI StopMonitoring delivery of about `bytes`. */
export function bigSiri(bytes: number): { buf: Buffer; visits: number } {
  const visit = (i: number) =>
    `<MonitoredStopVisit><MonitoringRef>STOP${i % 500}</MonitoringRef>` +
    `<MonitoredVehicleJourney><LineRef>L${i % 90}</LineRef>` +
    '<FramedVehicleJourneyRef><DataFrameRef>2026-11-28</DataFrameRef>' +
    `<DatedVehicleJourneyRef>J${i}</DatedVehicleJourneyRef></FramedVehicleJourneyRef>` +
    `<PublishedLineName>${i % 90}</PublishedLineName><DestinationName>Destination ${i % 77}</DestinationName>` +
    `<MonitoredCall><StopPointRef>STOP${i % 500}</StopPointRef>` +
    '<AimedDepartureTime>2026-11-28T11:05:00+01:00</AimedDepartureTime>' +
    '<ExpectedDepartureTime>2026-11-28T11:07:30+01:00</ExpectedDepartureTime>' +
    '<DeparturePlatformName>2</DeparturePlatformName></MonitoredCall></MonitoredVehicleJourney></MonitoredStopVisit>\n';
  const parts = [
    '<Siri xmlns="http://www.siri.org.uk/siri" version="2.0"><ServiceDelivery>' +
      '<ResponseTimestamp>2026-11-28T10:00:00Z</ResponseTimestamp><StopMonitoringDelivery>',
  ];
  let size = 0;
  let n = 0;
  while (size < bytes) {
    const v = visit(n++);
    parts.push(v);
    size += v.length;
  }
  parts.push('</StopMonitoringDelivery></ServiceDelivery></Siri>');
  return { buf: Buffer.from(parts.join('')), visits: n };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const SCHEDULE_ROUNDS = Number(process.env.MLDS_BENCH_SCHEDULE_ROUNDS ?? 3);

interface Loaded {
  trips: number;
  stopTimes: number;
  seconds: number;
  cpuSeconds: number;
  peakMB: number;
  keptMB: number;
  blockMs: number;
}

async function loadInChild(mode: 'inflate' | 'read', file: string, stop = ''): Promise<Loaded> {
  const child = path.join(import.meta.dirname, 'gtfs-load-child.ts');
  const args = ['--expose-gc', '--import', 'tsx', child, mode, file, stop];
  const cwd = path.resolve(import.meta.dirname, '..');
  const { stdout } = await promisify(execFile)(process.execPath, args, { cwd, timeout: 300_000 });
  return JSON.parse(stdout) as Loaded;
}

/** `file` read for each of `stops` ([label, stop id]) and inflated alone, alternating; medians as table rows. */
async function scheduleRows(file: string, stops: Array<[string, string]>): Promise<string[]> {
  const runs: Record<string, Loaded[]> = { inflate: [] };
  for (let r = 0; r < SCHEDULE_ROUNDS; r++) {
    runs.inflate.push(await loadInChild('inflate', file));
    for (const [, stop] of stops) (runs[stop] ??= []).push(await loadInChild('read', file, stop));
  }
  const m = (k: string, f: keyof Loaded) => median(runs[k].map((x) => x[f]));
  const base = m('inflate', 'seconds');
  const baseCpu = m('inflate', 'cpuSeconds');
  const cells = (k: string) => [
    `${m(k, 'trips')} / ${m(k, 'stopTimes')}`,
    m(k, 'seconds').toFixed(2),
    (m(k, 'seconds') / base).toFixed(1),
    (m(k, 'cpuSeconds') / baseCpu).toFixed(1),
    m(k, 'peakMB').toFixed(0),
    m(k, 'keptMB').toFixed(0),
    `${m(k, 'blockMs').toFixed(0)} ms`,
  ];
  return [
    '| | trips / stop times kept | s | time x inflating alone | CPU x inflating alone | peak RSS growth MB ' +
      '| RSS kept MB | event loop held at most |',
    '|---|---|---|---|---|---|---|---|',
    `| inflating the zip's files alone (the baseline) | | ${base.toFixed(2)} | 1.0 | 1.0 ` +
      `| ${m('inflate', 'peakMB').toFixed(0)} | | ${m('inflate', 'blockMs').toFixed(0)} ms |`,
    ...stops.map(([label, stop]) => `| ${label} | ${cells(stop).join(' | ')} |`),
  ];
}

/**
 * The schedule read for a small stop and for the interchange every trip calls at, then MTA New York City
 * Transit's real subway schedule (when `make test-deps` has fetched it) for Times Sq-42 St.
 */
export async function benchSchedule(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-bench-gtfs-'));
  try {
    const file = path.join(dir, 'subway.zip');
    await writeRealSchedule(file);
    const zipMB = (f: string) => (statSync(f).size / 2 ** 20).toFixed(1);
    const out = [
      `A subway-sized GTFS schedule (${TRIPS} trips x ${STOPS_PER_TRIP} stops, ${TRIPS * STOPS_PER_TRIP} stop times;` +
        ` a ${zipMB(file)} MB zip), read as the service reads it (in the schedule's thread),` +
        ` each read in a process of its own, median of ${SCHEDULE_ROUNDS}:`,
      '',
      ...(await scheduleRows(file, [
        ['a stop one trip in five calls at', 'S1'],
        ['the interchange every trip calls at', 'HUB'],
      ])),
    ];
    if (mtaMissing()) return [...out, '', `MTA's real schedule left out: ${mtaMissing()}.`].join('\n');
    const tables = await mtaTables();
    const mta = await mtaZip(tables);
    out.push(
      '',
      `MTA New York City Transit's real subway schedule of September 2026 (${tables.trips.length} trips, ` +
        `${tables.stop_times.length} stop times; a ${zipMB(mta)} MB zip), the same way:`,
      '',
      ...(await scheduleRows(mta, [['Times Sq-42 St (station 127, both platforms)', '127']])),
    );
    return out.join('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchFeeds(): Promise<string> {
  const { buf, trips } = bigFeed(5 * 2 ** 20);
  const board = { trips: new Set(trips.filter((_, i) => i % 50 === 0)), stops: new Set(['stop-1', 'stop-2']) };
  const all = { trips: new Set(trips), stops: new Set<string>() };
  const whole: number[] = [];
  const ours: number[] = [];
  const oursAll: number[] = [];
  let wholeBlock = 0;
  let oursBlock = 0;
  for (let r = 0; r < ROUNDS; r++) {
    let t = performance.now();
    rt.FeedMessage.decode(buf);
    const w = performance.now() - t;
    whole.push(w);
    wholeBlock = Math.max(wholeBlock, w);
    const h = monitorEventLoopDelay({ resolution: 1 });
    h.enable();
    t = performance.now();
    await decodeTripUpdates(buf, board);
    ours.push(performance.now() - t);
    h.disable();
    oursBlock = Math.max(oursBlock, h.max / 1e6);
    t = performance.now();
    await decodeTripUpdates(buf, all);
    oursAll.push(performance.now() - t);
  }
  const w = median(whole);
  const siri = bigSiri(5 * 2 ** 20);
  const siriWhole: number[] = [];
  const siriOurs: number[] = [];
  let siriBlock = 0;
  for (let r = 0; r < Math.min(ROUNDS, 3); r++) {
    let t = performance.now();
    parseDocument(siri.buf);
    siriWhole.push(performance.now() - t);
    const h = monitorEventLoopDelay({ resolution: 1 });
    h.enable();
    t = performance.now();
    await parseSiri(siri.buf);
    siriOurs.push(performance.now() - t);
    h.disable();
    siriBlock = Math.max(siriBlock, h.max / 1e6);
  }
  return [
    `A ${(buf.length / 2 ** 20).toFixed(1)} MB TripUpdates feed (${trips.length} trips x 20 stops), median of ` +
      `${ROUNDS}:`,
    '',
    '| | ms | x bindings alone |',
    '|---|---|---|',
    `| \`FeedMessage.decode\` (the bindings alone, one call) | ${w.toFixed(0)} | 1.00 |`,
    `| feeds: decoded by entity, the trips of a board kept | ${median(ours).toFixed(0)} | ` +
      `${(median(ours) / w).toFixed(2)} |`,
    `| feeds: decoded by entity, every trip kept | ${median(oursAll).toFixed(0)} | ` +
      `${(median(oursAll) / w).toFixed(2)} |`,
    '',
    `The event loop (where frames are drawn) is held at most ${oursBlock.toFixed(1)} ms at a time while the ` +
      `feeds decode, against ${wholeBlock.toFixed(0)} ms for the one call.`,
    '',
    `A ${(siri.buf.length / 2 ** 20).toFixed(1)} MB SIRI StopMonitoring delivery (${siri.visits} visits): parsed ` +
      `whole in ${median(siriWhole).toFixed(0)} ms (one call),` +
      ` by journey in ${median(siriOurs).toFixed(0)} ms, holding the event loop at most ${siriBlock.toFixed(1)} ` +
      `ms at a time.`,
    '',
    await benchSchedule(),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchFeeds());
