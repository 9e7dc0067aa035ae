// SIRI as it is served, over HTTP on loopback: a SIRI-SM ServiceRequest POSTed for the boards'
// stops, the French profile's SOAP answer (and its Fault), SIRI-Lite JSON as PRIM and 511 send
// it, a delivery with Status false; the feed's headers (API keys) go out with every request and
// never into a log line, /status, a problem or a fault.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { pino } from 'pino';
import type { BoardQuery } from '../../src/config/board-source.js';
import type { FeedsComponent } from '../../src/feeds/feeds-component.js';
import { configFaults } from '../helpers/config-faults.js';
import { FakeClock } from '../helpers/clock.js';
import { until } from '../helpers/wait.js';
import { boardConfig, feedServer, feedsRig } from './fixtures.js';
import { cenSm, frenchSoapSm, json511, primJson, SOAP_FAULT } from './siri-shapes.js';

const T0 = Date.UTC(2026, 10, 28, 10, 0, 0);
const KEY = 'prim-key-5f1c9a';
type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const q = (feed: string, stops: string[]): BoardQuery => ({ feed, stops, staleAfter: 120, now: T0, limit: 10 });
const rows = (feeds: FeedsComponent, query: BoardQuery) => {
  const b = feeds.board(query);
  return [
    b.state,
    ...b.departures.map(
      (d) => `${d.route}|${d.destination}|${d.platform}|+${(d.time - T0) / 60_000}|${d.live ? 'live' : 'sched'}`,
    ),
  ];
};

test(
  'SIRI served: POSTed ServiceRequest, SOAP-wrapped answers, SIRI-Lite JSON (PRIM, 511), Status false; the ' +
    'API key never shown',
  async () => {
    const srv = await feedServer();
    const posted: Array<{ method?: string; type?: string; body: string }> = [];
    srv.bodies.set('/post', (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString();
      });
      req.on('end', () => {
        posted.push({ method: req.method, type: req.headers['content-type'], body });
        res.end(cenSm(T0, { offsets: true }));
      });
    });
    srv.bodies.set('/soap', frenchSoapSm(T0));
    srv.bodies.set('/fault', SOAP_FAULT);
    srv.bodies.set('/prim', primJson(T0));
    srv.bodies.set('/511', json511(T0));
    srv.bodies.set(
      '/refused',
      `<Siri xmlns="http://www.siri.org.uk/siri"><ServiceDelivery><ResponseTimestamp>2026-11-28T10:00:00Z</ResponseTimestamp>
    <StopMonitoringDelivery><Status>false</Status><ErrorCondition><OtherError><ErrorText>key ${KEY} refused</ErrorText></OtherError></ErrorCondition></StopMonitoringDelivery></ServiceDelivery></Siri>`,
    );
    srv.bodies.set('/html', (req, res) => {
      res.statusCode = 401;
      res.setHeader('content-type', 'text/html');
      res.end(`<html>apikey ${String(req.headers.apikey)} unknown</html>`);
    });
    const siri = (path: string, extra: Record<string, unknown> = {}) => ({
      type: 'siri',
      url: srv.url(path),
      interval: '30',
      headers: { apikey: KEY },
      ...extra,
    });
    const feeds = {
      post: siri('/post', { method: 'post', requestorRef: 'mlds<&>test' }),
      soap: siri('/soap'),
      fault: siri('/fault'),
      prim: siri('/prim'),
      s511: siri('/511'),
      refused: siri('/refused'),
      html: siri('/html'),
    };
    const logged: string[] = [];
    const log = pino(
      { level: 'debug' },
      new Writable({
        write(chunk, _e, cb) {
          logged.push(String(chunk));
          cb();
        },
      }),
    );
    const rig = await feedsRig(boardConfig(feeds, ['HLTST011', 'OTHER&1']), new FakeClock(T0), {}, undefined, {}, log);
    const status = () => rig.feeds.status().feeds as Obj;
    try {
      await until(
        () => Object.keys(feeds).every((id) => status()[id].state !== 'waiting'),
        10_000,
        "every feed's first answer",
      );

      // The POST: a SIRI-SM ServiceRequest naming the requestor and each board stop, escaped.
      assert.equal(posted[0].method, 'POST');
      assert.match(posted[0].type ?? '', /^application\/xml/);
      assert.match(
        posted[0].body,
        /<ServiceRequest><RequestTimestamp>2026-11-28T10:00:00.000Z<\/RequestTimestamp><RequestorRef>mlds&#60;&#38;&#62;test<\/RequestorRef>/,
      );
      assert.deepEqual(
        [
          ...posted[0].body.matchAll(/<StopMonitoringRequest version="2.0">.*?<MonitoringRef>(.*?)<\/MonitoringRef>/g),
        ].map((m) => m[1]),
        ['HLTST011', 'OTHER&#38;1'],
      );
      assert.equal(srv.got.find((g) => g.path === '/post')?.headers['if-none-match'], undefined, 'no conditional POST');
      assert.deepEqual(
        rows(rig.feeds, q('post', ['HLTST011'])).map((r) => r.split('|')[0]),
        ['live', '123', '127'],
      );

      // The French profile's SOAP envelope; its Fault said as such.
      assert.deepEqual(rows(rig.feeds, q('soap', ['STIF:StopPoint:Q:22092:'])), [
        'live',
        'C01374|Château de Vincennes||+3|live',
        'C01374|La Défense||+5|live',
      ]);
      assert.equal(status().soap.feedTimestamp, '2026-11-28T10:00:00.000Z');
      assert.equal(status().fault.state, 'fault');
      assert.match(status().fault.lastFault, /SOAP Fault: Unknown RequestorRef/);

      // SIRI-Lite JSON: PRIM's {"value": ...} objects, 511's bare ServiceDelivery behind a byte order mark.
      assert.deepEqual(rows(rig.feeds, q('prim', ['STIF:StopPoint:Q:473921:'])), [
        'live',
        'STIF:Line::C01742:|Saint-Germain-en-Laye|1|+2|live',
        'STIF:Line::C01742:|Boissy-Saint-Léger|2|+4|live',
      ]);
      assert.deepEqual(rows(rig.feeds, q('s511', ['15553'])), ['live', 'MISSION|Ferry Plaza||+7|live']);

      // A delivery with Status false is a fault naming the server's reason, not a blank live board.
      assert.equal(status().refused.state, 'fault');
      assert.match(status().refused.lastFault, /Status false: key \*\*\* refused/);

      // The key went out with every request and appears nowhere the service shows or logs.
      assert.ok(
        srv.got.every((g) => g.headers.apikey === KEY),
        'every request carries the key',
      );
      assert.equal(status().html.state, 'fault');
      const shown = JSON.stringify(rig.feeds.status()) + JSON.stringify(rig.feeds.problems()) + logged.join('');
      assert.ok(
        logged.some((l) => l.includes('feed poll failed')),
        'the faults were logged',
      );
      assert.ok(!shown.includes(KEY), 'the key is not shown');
    } finally {
      await rig.stop();
      srv.close();
    }
  },
);

test('SIRI by POST is checked at load: siri only, with a requestorRef; the schema knows the fields', () => {
  const faults = configFaults((c) => {
    c.feeds = {
      g: { type: 'gtfs-rt', url: 'http://127.0.0.1:8080/tu', method: 'post' },
      s: { type: 'siri', url: 'http://127.0.0.1:8080/sm', method: 'post' },
      r: { type: 'siri', url: 'http://127.0.0.1:8080/sm', requestorRef: 'me' },
      m: { type: 'siri', url: 'http://127.0.0.1:8080/sm', method: 'put' },
    };
  });
  const at = (p: string) =>
    faults
      .filter((f) => f.path === p)
      .map((f) => f.message)
      .join(' | ');
  assert.match(at('/feeds/g/method'), /only a siri feed is asked by POST/);
  assert.match(at('/feeds/s/requestorRef'), /give requestorRef/);
  assert.match(at('/feeds/r/requestorRef'), /applies only with "method": "post"/);
  assert.ok(at('/feeds/m/method'), 'a method the schema does not know');
  assert.deepEqual(
    configFaults((c) => {
      c.feeds = { ok: { type: 'siri', url: 'http://127.0.0.1:8080/sm', method: 'post', requestorRef: 'mlds' } };
    }),
    [],
  );
});
