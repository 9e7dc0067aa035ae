// The accessible and occupancy columns end to end in a running service: an MBTA-shaped GTFS
// schedule (a station with a platform whose elevator is out, a frequency-based shuttle), its
// TripUpdates and its VehiclePositions at separate URLs on loopback, and the board's rows on
// /status and on the panel, each symbol in its column.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { serviceDate, serviceDayBase } from '../../src/feeds/zone-time.js';
import { baseConfig, decode, get, serviceDir, start, until } from '../helpers/service.js';
import { feedServer, gtfsZip } from './fixtures.js';
import { hms, mbtaSchedule, mbtaTripUpdates, mbtaVehiclePositions } from './mbta.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const ZONE = 'America/New_York';

test(
  'a running service shows the accessible and occupancy symbols of a GTFS schedule, its TripUpdates and its ' +
    'VehiclePositions, on /status and in pixels',
  async () => {
    const now = Date.now();
    const date = serviceDate(ZONE, now);
    const first = Math.floor((now - serviceDayBase(ZONE, date)) / 1000);
    const tables = mbtaSchedule(first);
    // The night train may fall among the first rows a little after midnight; this board is about the others.
    tables['trips.txt'] = tables['trips.txt'].filter((r) => r[2] !== 'OL-S-NIGHT');
    const srv = await feedServer();
    srv.bodies.set('/tripupdates', mbtaTripUpdates(now, date));
    srv.bodies.set('/vehiclepositions', mbtaVehiclePositions(now, date, serviceDate(ZONE, now, 1), hms(first + 60)));
    const c = baseConfig();
    c.feeds = {
      mbta: {
        type: 'gtfs-rt',
        url: srv.url('/tripupdates'),
        vehiclePositionsUrl: srv.url('/vehiclepositions'),
        static: 'gtfs/mbta.zip',
        interval: '5',
      },
    };
    const ink = '255 255 255';
    c.displays.main.layout = {
      board: {
        deps: {
          type: 'departures',
          coordinates: '0 0 199 41',
          feed: 'mbta',
          stops: ['place-dwnxg'],
          rows: '3',
          font: '7x13.bdf',
          fontSize: '13',
          fontColor: ink,
          backgroundColor: '0 0 0',
          accessibleText: 'W',
          occupancyTexts: { FEW_SEATS_AVAILABLE: 'X', STANDING_ROOM_ONLY: 'XX', FULL: 'XXX' },
          columns: [
            { field: 'route', width: '28' },
            { field: 'accessible', width: '14' },
            { field: 'occupancy', width: '28' },
            { field: 'destination', width: '130' },
          ],
        },
      },
    };
    const sd = serviceDir(c);
    mkdirSync(path.join(sd.dir, 'gtfs'));
    await gtfsZip(path.join(sd.dir, 'gtfs/mbta.zip'), tables);
    let svc: Awaited<ReturnType<typeof start>> | undefined;
    const deps = async () =>
      (((await get(svc!, '/status')).json.displays as Obj[])[0].areas as Obj[]).find((a) => a.id === 'deps');
    const expected = [
      // The shuttle's run: step-free at the southbound platform (its station's), standing room only.
      'SHU\tW\tXX\tForest Hills',
      // OL-S-1: its vehicle full.
      'OL\tW\tXXX\tForest Hills',
      // OL-N-1 at the northbound platform, whose elevator is out: no W; its vehicle (by id) has a few seats.
      'OL\t\tX\tOak Grove',
    ];
    try {
      svc = await start(sd, { recheckSeconds: 0 });
      assert.equal((await get(svc, '/mlds?id=main&layout=board')).status, 200);
      await until(async () => (await deps())?.text === expected.join('\n'), 30_000, "the board's rows");
      assert.equal((await deps())?.board, 'live');
      const feed = ((await get(svc, '/status')).json.components as Obj).feeds.feeds.mbta;
      assert.equal(feed.vehiclePositions.state, 'ok');
      assert.equal(feed.vehiclePositions.skippedEntities.count, 2);

      // The panel: in each row, ink in the accessible column where W is, and an occupancy mark as wide as its text.
      const px = await decode((await get(svc, '/screenshot?id=main&format=png')).bytes);
      const inkColumns = (x0: number, x1: number, row: number) => {
        let n = 0;
        for (let x = x0; x < x1; x++) {
          let lit = false;
          for (let y = row * 13; y < row * 13 + 13; y++) if (px.at(x, y)[0] > 128) lit = true;
          if (lit) n++;
        }
        return n;
      };
      assert.deepEqual(
        [0, 1, 2].map((row) => inkColumns(28, 42, row) > 0),
        [true, true, false],
        'W in the first two rows only',
      );
      const marks = [0, 1, 2].map((row) => inkColumns(42, 70, row));
      assert.ok(marks[2] > 0 && marks[0] > marks[2] && marks[1] > marks[0], `X < XX < XXX: ${marks.join(' ')}`);
    } finally {
      await svc?.close();
      srv.close();
      sd.cleanup();
    }
  },
);
