import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { FEEDS } from '../../src/capability/feeds.js';
import { FeedsComponent } from '../../src/feeds/feeds-component.js';
import { configFaults } from '../helpers/config-faults.js';
import { baseConfig, get, serviceDir, start, until } from '../helpers/service.js';
import { feedServer } from './fixtures.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

test("feeds are checked at load: zone, schedule file, URLs, headers; a board's feed and alert area", () => {
  const faults = configFaults((c) => {
    c.feeds = {
      a: { type: 'gtfs-rt', url: 'http://127.0.0.1:8080/tu', static: 'gtfs/missing.zip', timezone: 'Mars/Olympus' },
      b: { type: 'siri', url: 'http://127.0.0.1:80/sm', alertsUrl: 'http://127.0.0.1:8080/sx' },
      c: {
        type: 'siri',
        url: 'http://127.0.0.1:8080/sm',
        static: 'x.zip',
        headers: { 'X-Api-Key': 'k\r\nInjected: 1' },
      },
      d: { type: 'gtfs-rt', url: 'http://127.0.0.1:8080/tu', static: '../outside.zip', interval: '2' },
    };
    c.feedMaxMB = '0';
    const board = (feed: string, extra: Record<string, unknown> = {}) => ({
      type: 'departures',
      coordinates: '0 0 199 49',
      feed,
      stops: ['S1'],
      columns: [{ field: 'destination', width: '200' }],
      ...extra,
    });
    c.displays.main.layout.l1 = {
      ...c.displays.main.layout.l1,
      deps: board('c', { alertArea: 'title' }),
      gone: board('nope'),
      self: board('a', { alertArea: 'self' }),
    };
  });
  const at = (p: string) =>
    faults
      .filter((f) => f.path === p)
      .map((f) => f.message)
      .join(' | ');
  assert.match(at('/feeds/a/static'), /"gtfs\/missing.zip" was not found in the service directory/);
  assert.match(at('/feeds/a/timezone'), /"Mars\/Olympus" is not an IANA time zone/);
  assert.match(at('/feeds/b/url'), /port 80/);
  assert.match(at('/feeds/b/alertsUrl'), /no departures area of feed "b" names an alertArea/);
  assert.match(at('/feeds/c/static'), /only a gtfs-rt feed/);
  assert.ok(at('/feeds/c/headers/X-Api-Key'), 'a header value on two lines');
  assert.doesNotMatch(JSON.stringify(faults), /Injected/, 'a header value is never quoted');
  assert.match(at('/displays/main/layout/l1/deps/alertArea'), /applies only when feed "c" has alertsUrl/);
  assert.match(at('/displays/main/layout/l1/gone/feed'), /"nope" names no feed in "feeds"/);
  assert.match(at('/displays/main/layout/l1/self/alertArea'), /"self" is not another area of layout "l1"/);
  assert.match(at('/feeds/d/static'), /must be a relative path inside the service directory/);
  assert.ok(at('/feeds/d/interval'), 'interval under 5 s');
  assert.ok(at('/feedMaxMB'), 'feedMaxMB 0');
  assert.deepEqual(
    configFaults((c) => {
      c.feeds = { ok: { type: 'siri', url: 'http://127.0.0.1:8080/sm', headers: { Authorization: 'Bearer t0ken' } } };
    }),
    [],
  );
});

test(
  'a running service polls its feeds, serves them to every unit, and shows state, age and faults on /status ' +
    'and /info',
  async () => {
    const srv = await feedServer();
    srv.bodies.set(
      '/sm',
      `<Siri xmlns="http://www.siri.org.uk/siri" version="2.0"><ServiceDelivery><StopMonitoringDelivery>
    <MonitoredStopVisit><MonitoringRef>HBF</MonitoringRef><MonitoredVehicleJourney><LineRef>7</LineRef><DestinationName>Airport</DestinationName>
    <MonitoredCall><AimedDepartureTime>${new Date(Date.now() + 600_000).toISOString()}</AimedDepartureTime><ExpectedDepartureTime>${new Date(Date.now() + 660_000).toISOString()}</ExpectedDepartureTime></MonitoredCall>
    </MonitoredVehicleJourney></MonitoredStopVisit></StopMonitoringDelivery></ServiceDelivery></Siri>`,
    );
    const c = baseConfig();
    c.feeds = { city: { type: 'siri', url: srv.url('/sm'), interval: '5' } };
    const sd = serviceDir(c);
    const svc = await start(sd, { recheckSeconds: 0 });
    const feeds = async () => ((await get(svc, '/status')).json.components as Obj).feeds.feeds.city;
    try {
      await until(async () => (await feeds()).state === 'ok', 10_000, 'the first poll');
      const f = await feeds();
      assert.equal(f.type, 'siri');
      assert.equal(typeof f.ageSeconds, 'number');
      const component = svc.runtime.component(FEEDS);
      assert.ok(component instanceof FeedsComponent, 'the feeds component runs under its key');
      for (const unit of svc.runtime.units.values())
        assert.equal(unit.boards, component, 'every unit reads its boards from the feeds');
      const b = component.board({ feed: 'city', stops: ['HBF'], staleAfter: 60, now: Date.now(), limit: 4 });
      assert.equal(b.state, 'live');
      assert.deepEqual(
        b.departures.map((d) => [d.route, d.destination, d.live]),
        [['7', 'Airport', true]],
      );
      assert.match((await get(svc, '/info')).text, /data-component="feeds"[^]*data-feed="city"[^]*class="ok">ok/);

      srv.bodies.set('/sm', Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x02]));
      await until(async () => (await feeds()).state === 'fault', 20_000, 'the garbage poll');
      const problems = (await get(svc, '/status')).json.problems as Obj[];
      assert.ok(
        problems.some(
          (p) =>
            p.source === 'feeds' &&
            /feed "city": .*not a SIRI document|not well-formed/.test(p.message) &&
            /last good data is \d+ s old/.test(p.message),
        ),
        JSON.stringify(problems),
      );
      assert.equal(
        component.board({ feed: 'city', stops: ['HBF'], staleAfter: 600, now: Date.now(), limit: 4 }).departures.length,
        1,
        'the last good data stays',
      );
      assert.match((await get(svc, '/info')).text, /data-feed="city"[^]*class="bad">fault[^]*last fault/);

      // A reload that leaves the feed as it was keeps it (its data and rhythm); one that changes it starts it again.
      const kept = component.feed('city');
      c.displays.main.displayName = 'Renamed';
      writeFileSync(path.join(sd.dir, 'config.json'), JSON.stringify(c));
      assert.equal((await get(svc, '/reload_config')).status, 200);
      assert.equal(component.feed('city'), kept, 'the same feed');
      c.feeds.city.interval = '6';
      writeFileSync(path.join(sd.dir, 'config.json'), JSON.stringify(c));
      assert.equal((await get(svc, '/reload_config')).status, 200);
      assert.notEqual(component.feed('city'), kept, 'a new feed for new settings');
      assert.equal(component.feed('city')!.config.interval, 6);

      // A reload without feeds stops them; the units no longer read from them.
      delete c.feeds;
      writeFileSync(path.join(sd.dir, 'config.json'), JSON.stringify(c));
      assert.equal((await get(svc, '/reload_config')).status, 200);
      await until(
        async () => ((await get(svc, '/status')).json.components as Obj).feeds === undefined,
        10_000,
        'the feeds gone',
      );
      for (const unit of svc.runtime.units.values()) assert.equal(unit.boards, undefined);
    } finally {
      await svc.close();
      srv.close();
      sd.cleanup();
    }
  },
);
