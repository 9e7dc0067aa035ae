// A departure board end to end in a running service: a SIRI feed and its SIRI-SX situations
// served on loopback, a departures area drawing the feed's rows (on /status and in pixels), the
// feed's alert as a priority level in the board's alertArea, and the departure at announceAt
// spoken by espeak-ng into the file sink.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { baseConfig, decode, get, serviceDir, start, until } from '../helpers/service.js';
import { feedServer } from './fixtures.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const iso = (t: number) => new Date(t).toISOString();

function stopMonitoring(now: number): string {
  const visit = (
    line: string,
    dest: string,
    inMs: number,
    platform: string,
  ) => `<MonitoredStopVisit><MonitoringRef>HBF</MonitoringRef>
    <MonitoredVehicleJourney><LineRef>${line}</LineRef><DestinationName>${dest}</DestinationName>
    <MonitoredCall><AimedDepartureTime>${iso(now + inMs)}</AimedDepartureTime><ExpectedDepartureTime>${iso(now + inMs)}</ExpectedDepartureTime><DeparturePlatformName>${platform}</DeparturePlatformName></MonitoredCall>
    </MonitoredVehicleJourney></MonitoredStopVisit>`;
  return `<Siri xmlns="http://www.siri.org.uk/siri" version="2.0"><ServiceDelivery><ResponseTimestamp>${iso(now)}</ResponseTimestamp><StopMonitoringDelivery>
    ${visit('7', 'Airport', 150_000, '2')}${visit('9', 'Zoo', 630_000, '')}</StopMonitoringDelivery></ServiceDelivery></Siri>`;
}

function situation(now: number): string {
  return `<Siri xmlns="http://www.siri.org.uk/siri" version="2.0"><ServiceDelivery><ResponseTimestamp>${iso(now)}</ResponseTimestamp><SituationExchangeDelivery><Situations>
    <PtSituationElement><CreationTime>${iso(now - 60_000)}</CreationTime><SituationNumber>lift-1</SituationNumber><Progress>open</Progress>
    <ValidityPeriod><StartTime>${iso(now - 60_000)}</StartTime><EndTime>${iso(now + 3_600_000)}</EndTime></ValidityPeriod>
    <Summary xml:lang="en">Lift out of order</Summary><Affects><StopPoints><AffectedStopPoint><StopPointRef>HBF</StopPointRef></AffectedStopPoint></StopPoints></Affects></PtSituationElement>
    </Situations></SituationExchangeDelivery></ServiceDelivery></Siri>`;
}

test(
  'a SIRI board on a running service: its rows on /status and on the panel, its alert as a level, a departure ' +
    'spoken at announceAt',
  async () => {
    const srv = await feedServer();
    const now = Date.now();
    srv.bodies.set('/sm', stopMonitoring(now));
    srv.bodies.set('/sx', situation(now));
    const sink = mkdtempSync(path.join(tmpdir(), 'mlds-board-sink-'));
    const c = baseConfig();
    c.feeds = {
      city: {
        type: 'siri',
        url: srv.url('/sm'),
        interval: '5',
        alertsUrl: srv.url('/sx'),
        headers: { 'X-Api-Key': 'secret-feed-key' },
      },
    };
    c.speech = { voice: 'en' };
    c.displays.main.layout = {
      board: {
        deps: {
          type: 'departures',
          coordinates: '0 0 199 79',
          feed: 'city',
          stops: ['HBF'],
          rows: '2',
          font: '7x13.bdf',
          fontSize: '13',
          fontColor: '255 170 0',
          columns: [
            { field: 'route', width: '20' },
            { field: 'destination', width: '120' },
            { field: 'countdown', width: '60', align: 'right' },
          ],
          announceAt: '2',
          alertArea: 'notice',
          alertPriority: '6',
        },
        notice: { type: 'text', coordinates: '0 80 199 99', fontSize: '14' },
      },
    };
    const sd = serviceDir(c);
    const before = process.env.MLDS_AUDIO_SINK;
    process.env.MLDS_AUDIO_SINK = `file:${sink}`;
    const svc = await start(sd, { recheckSeconds: 0 });
    const display = async () => ((await get(svc, '/status')).json.displays as Obj[])[0];
    try {
      // Rows as shown: cells separated by tabs, the countdown floored, the board live.
      await until(
        async () => ((await display()).areas as Obj[]).find((a) => a.id === 'deps')?.text?.includes('Airport'),
        20_000,
        "the board's rows",
      );
      const deps = ((await display()).areas as Obj[]).find((a) => a.id === 'deps')!;
      assert.deepEqual(deps.text.split('\n'), ['7\tAirport\t2 min', '9\tZoo\t10 min']);
      assert.equal(deps.board, 'live');

      // The panel: amber ink in both rows of the route column and right-aligned countdowns.
      const px = await decode((await get(svc, '/screenshot?id=main&format=png')).bytes);
      const amberIn = (x0: number, x1: number, y0: number, y1: number) => {
        let n = 0;
        for (let y = y0; y < y1; y++)
          for (let x = x0; x < x1; x++) {
            const [r, g, b] = px.at(x, y);
            if (r > 200 && g > 120 && g < 220 && b < 80) n++;
          }
        return n;
      };
      assert.ok(amberIn(0, 20, 0, 13) > 5 && amberIn(0, 20, 13, 26) > 5, 'a route in each row');
      assert.ok(amberIn(140, 200, 0, 13) > 10 && amberIn(140, 200, 13, 26) > 10, 'a countdown in each row');
      assert.equal(amberIn(0, 200, 30, 79), 0, 'two rows only');

      // The feed's situation for the stop: a level 6 from the feed over the board's layout.
      await until(
        async () => ((await display()).layers as Obj[]).some((l) => l.priority === 6 && l.source === 'feed'),
        20_000,
        'the alert level',
      );
      const notice = ((await display()).areas as Obj[]).find((a) => a.id === 'notice')!;
      assert.equal(notice.text, 'Lift out of order');

      // Line 7 leaves in 2 minutes: announced once, into the file sink.
      const wav = path.join(sink, 'main.announce.1.wav');
      await until(() => existsSync(wav), 30_000, 'the announcement');
      const speech = (await get(svc, '/status')).json.components as Obj;
      assert.match(JSON.stringify(speech.speech), /Line 7 to Airport, platform 2, in 2 minutes/);
      assert.ok(!existsSync(path.join(sink, 'main.announce.2.wav')), 'once');

      // The feed's key is sent, never shown.
      const polls = srv.got.filter((g) => g.path === '/sm' || g.path === '/sx');
      assert.ok(
        polls.length >= 2 && polls.every((g) => g.headers['x-api-key'] === 'secret-feed-key'),
        "every poll carries the feed's header",
      );
      assert.doesNotMatch((await get(svc, '/status')).text + (await get(svc, '/info')).text, /secret-feed-key/);
    } finally {
      await svc.close();
      if (before === undefined) delete process.env.MLDS_AUDIO_SINK;
      else process.env.MLDS_AUDIO_SINK = before;
      srv.close();
      sd.cleanup();
      rmSync(sink, { recursive: true, force: true });
    }
  },
);
