import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BoardQuery } from '../../src/config/board-source.js';
import type { FeedsComponent } from '../../src/feeds/feeds-component.js';
import { FakeClock } from '../helpers/clock.js';
import { until } from '../helpers/wait.js';
import { boardConfig, feedServer, feedsRig } from './fixtures.js';

const T0 = Date.UTC(2026, 10, 28, 10, 0, 0);
type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// SIRI 2.0 StopMonitoring, with the siri: prefix as many servers write it.
const SM = `<?xml version="1.0" encoding="UTF-8"?>
<siri:Siri xmlns:siri="http://www.siri.org.uk/siri" version="2.0">
  <siri:ServiceDelivery>
    <siri:ResponseTimestamp>2026-11-28T10:00:00Z</siri:ResponseTimestamp>
    <siri:StopMonitoringDelivery version="2.0">
      <siri:ResponseTimestamp>2026-11-28T10:00:00Z</siri:ResponseTimestamp>
      <siri:MonitoredStopVisit>
        <siri:RecordedAtTime>2026-11-28T09:59:50Z</siri:RecordedAtTime>
        <siri:ItemIdentifier>v1</siri:ItemIdentifier>
        <siri:MonitoringRef>de:11000:900100003</siri:MonitoringRef>
        <siri:MonitoredVehicleJourney>
          <siri:LineRef>de:vbb:U2</siri:LineRef>
          <siri:FramedVehicleJourneyRef><siri:DataFrameRef>2026-11-28</siri:DataFrameRef><siri:DatedVehicleJourneyRef>U2-0815</siri:DatedVehicleJourneyRef></siri:FramedVehicleJourneyRef>
          <siri:PublishedLineName>U2</siri:PublishedLineName>
          <siri:DestinationName xml:lang="de">S+U Pankow &amp; Umgebung</siri:DestinationName>
          <siri:MonitoredCall>
            <siri:StopPointRef>de:11000:900100003</siri:StopPointRef>
            <siri:AimedDepartureTime>2026-11-28T11:05:00+01:00</siri:AimedDepartureTime>
            <siri:ExpectedDepartureTime>2026-11-28T11:07:30+01:00</siri:ExpectedDepartureTime>
            <siri:DeparturePlatformName>2</siri:DeparturePlatformName>
          </siri:MonitoredCall>
        </siri:MonitoredVehicleJourney>
      </siri:MonitoredStopVisit>
      <siri:MonitoredStopVisit>
        <siri:MonitoringRef>de:11000:900100003</siri:MonitoringRef>
        <siri:MonitoredVehicleJourney>
          <siri:LineRef>M10</siri:LineRef>
          <siri:FramedVehicleJourneyRef><siri:DataFrameRef>2026-11-28</siri:DataFrameRef><siri:DatedVehicleJourneyRef>M10-77</siri:DatedVehicleJourneyRef></siri:FramedVehicleJourneyRef>
          <siri:DestinationName>Warschauer Str.</siri:DestinationName>
          <siri:MonitoredCall>
            <siri:StopPointRef>de:11000:900100003</siri:StopPointRef>
            <siri:AimedDepartureTime>2026-11-28T10:10:00Z</siri:AimedDepartureTime>
          </siri:MonitoredCall>
        </siri:MonitoredVehicleJourney>
      </siri:MonitoredStopVisit>
      <siri:MonitoredStopVisit>
        <siri:MonitoringRef>de:11000:900100003</siri:MonitoringRef>
        <siri:MonitoredVehicleJourney>
          <siri:PublishedLineName>U2</siri:PublishedLineName>
          <siri:FramedVehicleJourneyRef><siri:DataFrameRef>2026-11-28</siri:DataFrameRef><siri:DatedVehicleJourneyRef>U2-0816</siri:DatedVehicleJourneyRef></siri:FramedVehicleJourneyRef>
          <siri:DestinationName>Ruhleben</siri:DestinationName>
          <siri:MonitoredCall>
            <siri:AimedDepartureTime>2026-11-28T10:12:00Z</siri:AimedDepartureTime>
            <siri:ExpectedDepartureTime>2026-11-28T10:12:00Z</siri:ExpectedDepartureTime>
            <siri:DepartureStatus>cancelled</siri:DepartureStatus>
          </siri:MonitoredCall>
        </siri:MonitoredVehicleJourney>
      </siri:MonitoredStopVisit>
      <siri:MonitoredStopVisit>
        <siri:MonitoringRef>elsewhere</siri:MonitoringRef>
        <siri:MonitoredVehicleJourney>
          <siri:PublishedLineName>X9</siri:PublishedLineName>
          <siri:MonitoredCall><siri:AimedDepartureTime>2026-11-28T10:03:00Z</siri:AimedDepartureTime></siri:MonitoredCall>
        </siri:MonitoredVehicleJourney>
      </siri:MonitoredStopVisit>
    </siri:StopMonitoringDelivery>
  </siri:ServiceDelivery>
</siri:Siri>`;

// SIRI 2.0 Estimated Timetable, in the default namespace.
const ET = `<?xml version="1.0" encoding="UTF-8"?>
<Siri xmlns="http://www.siri.org.uk/siri" version="2.0">
  <ServiceDelivery>
    <ResponseTimestamp>2026-11-28T10:00:00Z</ResponseTimestamp>
    <EstimatedTimetableDelivery version="2.0">
      <ResponseTimestamp>2026-11-28T10:00:00Z</ResponseTimestamp>
      <EstimatedJourneyVersionFrame>
        <RecordedAtTime>2026-11-28T10:00:00Z</RecordedAtTime>
        <EstimatedVehicleJourney>
          <LineRef>S5</LineRef>
          <DirectionRef>1</DirectionRef>
          <DatedVehicleJourneyRef>S5-101</DatedVehicleJourneyRef>
          <PublishedLineName>S5</PublishedLineName>
          <DestinationName>Spandau</DestinationName>
          <EstimatedCalls>
            <EstimatedCall>
              <StopPointRef>OST</StopPointRef>
              <AimedDepartureTime>2026-11-28T10:15:00Z</AimedDepartureTime>
              <ExpectedDepartureTime>2026-11-28T10:16:00Z</ExpectedDepartureTime>
            </EstimatedCall>
            <EstimatedCall>
              <StopPointRef>ZOO</StopPointRef>
              <AimedDepartureTime>2026-11-28T10:20:00Z</AimedDepartureTime>
              <ExpectedDepartureTime>2026-11-28T10:23:00Z</ExpectedDepartureTime>
              <DeparturePlatformName>1</DeparturePlatformName>
            </EstimatedCall>
          </EstimatedCalls>
        </EstimatedVehicleJourney>
        <EstimatedVehicleJourney>
          <LineRef>S7</LineRef>
          <DatedVehicleJourneyRef>S7-9</DatedVehicleJourneyRef>
          <DestinationName>Potsdam</DestinationName>
          <Cancellation>true</Cancellation>
          <EstimatedCalls>
            <EstimatedCall><StopPointRef>ZOO</StopPointRef><AimedDepartureTime>2026-11-28T10:25:00Z</AimedDepartureTime></EstimatedCall>
          </EstimatedCalls>
        </EstimatedVehicleJourney>
        <EstimatedVehicleJourney>
          <LineRef>S3</LineRef>
          <DatedVehicleJourneyRef>S3-4</DatedVehicleJourneyRef>
          <DestinationName>Erkner</DestinationName>
          <EstimatedCalls>
            <EstimatedCall><StopPointRef>ZOO</StopPointRef><AimedDepartureTime>2026-11-28T10:30:00Z</AimedDepartureTime><ExpectedDepartureTime>2026-11-28T10:31:00Z</ExpectedDepartureTime><Cancellation>true</Cancellation></EstimatedCall>
          </EstimatedCalls>
        </EstimatedVehicleJourney>
      </EstimatedJourneyVersionFrame>
    </EstimatedTimetableDelivery>
  </ServiceDelivery>
</Siri>`;

const q = (feed: string, stop: string, now: number): BoardQuery => ({
  feed,
  stops: [stop],
  staleAfter: 120,
  now,
  limit: 10,
});
const rows = (feeds: FeedsComponent, query: BoardQuery) => {
  const b = feeds.board(query);
  return [
    b.state,
    ...b.departures.map(
      (d) =>
        `${d.route}|${d.destination}|${d.platform}|` +
        `${new Date(d.time).toISOString().slice(11, 19)}|` +
        `${d.live ? 'live' : 'sched'}${d.cancelled ? '|cancelled' : ''}`,
    ),
  ];
};

test(
  'SIRI StopMonitoring and Estimated Timetable: expected times live, aimed ones marked, cancellations; stale ' +
    '-> aimed times; a DOCTYPE is refused',
  async () => {
    const srv = await feedServer();
    srv.bodies.set('/sm', SM);
    srv.bodies.set('/et', ET);
    const clock = new FakeClock(T0);
    const rig = await feedsRig(
      boardConfig(
        {
          sm: { type: 'siri', url: srv.url('/sm'), interval: '30' },
          et: { type: 'siri', url: srv.url('/et'), interval: '30' },
        },
        ['de:11000:900100003'],
      ),
      clock,
    );
    const status = (id: string) => (rig.feeds.status().feeds as Obj)[id];
    try {
      await until(
        () => rig.feeds.board(q('sm', 'x', T0)).state === 'live' && rig.feeds.board(q('et', 'x', T0)).state === 'live',
        10_000,
        'both feeds',
      );
      assert.deepEqual(rows(rig.feeds, q('sm', 'de:11000:900100003', T0)), [
        'live',
        'U2|S+U Pankow & Umgebung|2|10:07:30|live', // XML's own &amp; decoded (no other entity exists)
        'M10|Warschauer Str.||10:10:00|sched', // LineRef when no PublishedLineName; no ExpectedDepartureTime
        'U2|Ruhleben||10:12:00|live|cancelled',
      ]);
      assert.deepEqual(rows(rig.feeds, q('et', 'ZOO', T0)), [
        'live',
        'S5|Spandau|1|10:23:00|live',
        'S7|Potsdam||10:25:00|sched|cancelled', // the whole journey is cancelled
        'S3|Erkner||10:31:00|live|cancelled', // this call is
      ]);
      // Stale: the aimed (timetabled) times, none live.
      assert.deepEqual(rows(rig.feeds, q('sm', 'de:11000:900100003', T0 + 121_000)), [
        'scheduled',
        'U2|S+U Pankow & Umgebung|2|10:05:00|sched',
        'M10|Warschauer Str.||10:10:00|sched',
        'U2|Ruhleben||10:12:00|sched|cancelled',
      ]);

      // A document with a DOCTYPE (the way to entity expansion) is refused before it is parsed; the last good data
      // stays.
      srv.bodies.set(
        '/sm',
        `<?xml version="1.0"?><!DOCTYPE Siri [<!ENTITY a "aaaaaaaaaa"><!ENTITY b ` +
          `"&a;&a;&a;&a;">]>${SM.slice(SM.indexOf('<siri:Siri'))}`,
      );
      srv.bodies.set('/et', '<Siri><ServiceDelivery><EstimatedTimetableDelivery><EstimatedJourneyVersionFrame>');
      clock.advance(30_000);
      await until(() => status('sm').state === 'fault' && status('et').state === 'fault', 10_000, 'the faults');
      assert.match(status('sm').lastFault, /DOCTYPE or ENTITY/);
      assert.match(status('et').lastFault, /not well-formed XML/);
      assert.equal(rows(rig.feeds, q('sm', 'de:11000:900100003', T0 + 30_000)).length, 4, 'the last good data stays');
    } finally {
      await rig.stop();
      srv.close();
    }
  },
);
