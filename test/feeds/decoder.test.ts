// The feeds' decoding thread gives what decoding in the event loop gives (trip updates filtered to
// the boards, alerts, SIRI-SM, SIRI-SX), a body that is not a feed fails with the decoder's own
// message, the thread survives a failure, and it exits when idle.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FeedDecoder } from '../../src/feeds/decoder.js';
import { decodeAlerts, decodeTripUpdates, MAX_TRIP_UPDATES } from '../../src/feeds/gtfs-rt.js';
import { parseSiriSx } from '../../src/feeds/siri-alerts.js';
import { parseSiri } from '../../src/feeds/siri.js';
import { until } from '../helpers/wait.js';
import { feedMessage, sec } from './fixtures.js';

const NOW = Date.parse('2026-11-28T10:00:00Z');
const trips = feedMessage(
  [
    {
      id: 'a',
      tripUpdate: {
        trip: { tripId: 'T1', routeId: 'R1' },
        stopTimeUpdate: [{ stopSequence: 3, stopId: 'S1', departure: { delay: 120 } }],
      },
    },
    { id: 'b', tripUpdate: { trip: { tripId: 'T2', routeId: 'R2', scheduleRelationship: 3 }, stopTimeUpdate: [] } },
    {
      id: 'c',
      tripUpdate: { trip: { tripId: 'T3' }, stopTimeUpdate: [{ stopId: 'S9', departure: { time: sec(NOW) + 300 } }] },
    },
    {
      id: 'd',
      tripUpdate: { trip: { tripId: 'T4' }, stopTimeUpdate: [{ stopId: 'S2', arrival: { time: sec(NOW) + 60 } }] },
    },
  ],
  NOW,
);
const alerts = feedMessage(
  [
    {
      id: 'x',
      alert: {
        headerText: { translation: [{ text: 'Lift out of order' }] },
        informedEntity: [{ stopId: 'S1' }],
        activePeriod: [{ start: sec(NOW), end: sec(NOW) + 3600 }],
      },
    },
  ],
  NOW,
);
const siri = Buffer.from(
  '<Siri xmlns="http://www.siri.org.uk/siri" version="2.0"><ServiceDelivery>' +
    '<ResponseTimestamp>2026-11-28T10:00:00Z</ResponseTimestamp><StopMonitoringDelivery>' +
    '<MonitoredStopVisit><MonitoringRef>S1</MonitoringRef><MonitoredVehicleJourney><LineRef>L7</LineRef>' +
    '<PublishedLineName>7</PublishedLineName><DestinationName>Airport</DestinationName>' +
    '<MonitoredCall><StopPointRef>S1</StopPointRef><AimedDepartureTime>2026-11-28T11:05:00+01:00</AimedDepartureTime>' +
    '<ExpectedDepartureTime>2026-11-28T11:07:30+01:00</ExpectedDepartureTime>' +
    '<DeparturePlatformName>2</DeparturePlatformName></MonitoredCall></MonitoredVehicleJourney></MonitoredStopVisit>' +
    '</StopMonitoringDelivery></ServiceDelivery></Siri>',
);
const sx = Buffer.from(
  '<Siri xmlns="http://www.siri.org.uk/siri" version="2.0"><ServiceDelivery>' +
    '<SituationExchangeDelivery><Situations><PtSituationElement>' +
    '<SituationNumber>sx1</SituationNumber>' +
    '<ValidityPeriod><StartTime>2026-11-28T09:00:00Z</StartTime></ValidityPeriod>' +
    '<Summary>Platform 2 closed</Summary>' +
    '<Affects><StopPoints><AffectedStopPoint><StopPointRef>S1</StopPointRef></AffectedStopPoint></StopPoints>' +
    '</Affects>' +
    '</PtSituationElement></Situations></SituationExchangeDelivery></ServiceDelivery></Siri>',
);

test(
  "the decoding thread gives what the event loop gives, fails with the decoder's message, and exits when idle",
  { timeout: 60_000 },
  async () => {
    const decoder = new FeedDecoder(300);
    try {
      const filter = { trips: new Set(['T1', 'T2']), stops: new Set(['S2']) };
      // A copy each time: a body handed to the thread is no longer the caller's.
      const got = await decoder.tripUpdates(Buffer.from(trips), filter.trips, filter.stops);
      assert.ok(decoder.running);
      assert.deepEqual(got, await decodeTripUpdates(trips, filter));
      assert.deepEqual([...got.trips.keys()].sort(), ['T1', 'T2', 'T4']);
      assert.equal(got.trips.get('T2')![0].cancelled, true);
      assert.equal(got.trips.get('T4')![0].stops[0].time, NOW + 60_000);
      assert.equal(got.timestamp, NOW);

      assert.deepEqual(await decoder.gtfsAlerts(Buffer.from(alerts)), await decodeAlerts(alerts));
      const s = await decoder.siri(Buffer.from(siri), 'UTC');
      assert.deepEqual(s, await parseSiri(siri));
      assert.equal(s.visits[0].expected, Date.parse('2026-11-28T10:07:30Z'));
      const a = await decoder.siriSx(Buffer.from(sx));
      assert.deepEqual(a, parseSiriSx(sx));
      assert.equal(a.alerts[0].text, 'Platform 2 closed');

      await assert.rejects(
        decoder.tripUpdates(Buffer.from('<html>not a feed</html>'), [], []),
        /wire type|field|header|varint/,
      );
      await assert.rejects(decoder.siri(Buffer.from('{"json": true}'), 'UTC'), (err: Error) => err.message.length > 0);
      // The thread took the failures and goes on.
      assert.equal((await decoder.tripUpdates(Buffer.from(trips), ['T1'], [])).trips.size, 1);

      await until(() => !decoder.running, 10_000, 'the idle thread to exit');
      // The next body starts a new one.
      assert.equal((await decoder.siri(Buffer.from(siri), 'UTC')).visits.length, 1);
    } finally {
      await decoder.close();
    }
  },
);

test(
  `a feed naming the boards' stop in every trip keeps ${MAX_TRIP_UPDATES} trips, and one trip_id repeated keeps 4 runs`,
  { timeout: 60_000 },
  async () => {
    const many = feedMessage(
      [
        ...Array.from({ length: MAX_TRIP_UPDATES + 500 }, (_, i) => ({
          id: `e${i}`,
          tripUpdate: { trip: { tripId: `T${i}` }, stopTimeUpdate: [{ stopId: 'S1', departure: { delay: 60 } }] },
        })),
      ],
      NOW,
    );
    const decoder = new FeedDecoder(1000);
    try {
      const got = await decoder.tripUpdates(many, [], ['S1']);
      assert.equal(got.trips.size, MAX_TRIP_UPDATES);
      assert.ok(
        got.trips.has('T0') && got.trips.has(`T${MAX_TRIP_UPDATES - 1}`) && !got.trips.has(`T${MAX_TRIP_UPDATES}`),
      );
    } finally {
      await decoder.close();
    }
    const repeated = feedMessage(
      Array.from({ length: 50 }, (_, i) => ({
        id: `r${i}`,
        tripUpdate: {
          trip: { tripId: 'T1', startDate: `202611${String((i % 30) + 1).padStart(2, '0')}` },
          stopTimeUpdate: [],
        },
      })),
      NOW,
    );
    assert.equal(
      (await decodeTripUpdates(repeated, { trips: new Set(['T1']), stops: new Set() })).trips.get('T1')!.length,
      4,
    );
  },
);
