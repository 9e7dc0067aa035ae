// A feed URL that answers with a redirect to the unit's own /mlds would set the sign's content
// at every poll: the redirect is refused (MLDS_URL_REFUSED, shown as the feed's fault) and the
// display keeps what it showed, while a feed on 127.0.0.1 (another port, the local network as
// the operator configured it) keeps working and says who asks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VERSION } from '../../src/version.js';
import { baseConfig, get, serviceDir, start, until } from '../helpers/service.js';
import { feedMessage, feedServer } from './fixtures.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

test("a GTFS-realtime redirect to the unit's /mlds sets nothing; 127.0.0.1 works", { timeout: 60_000 }, async () => {
  const evil = await feedServer();
  const lan = await feedServer();
  let unitPort = 0;
  let redirected = 0;
  evil.bodies.set('/tu', (_req, res) => {
    if (!unitPort) return void res.writeHead(503).end();
    redirected++;
    res.writeHead(302, { location: `http://127.0.0.1:${unitPort}/mlds?id=main&layout=l2&other=PWNED` }).end();
  });
  lan.bodies.set('/tu', feedMessage([], Date.now()));
  const c = baseConfig();
  c.feeds = {
    evil: { type: 'gtfs-rt', url: evil.url('/tu'), interval: '5' },
    lan: { type: 'gtfs-rt', url: lan.url('/tu'), interval: '5' },
  };
  // The unit's name in the User-Agent is its MQTT unit name (no broker needs to answer).
  c.mqtt = { url: 'mqtt://127.0.0.1:9', unit: 'sign-031' };
  const sd = serviceDir(c);
  const svc = await start(sd);
  unitPort = svc.port;
  const feeds = async () => ((await get(svc, '/status')).json.components as Obj).feeds.feeds as Obj;
  try {
    const refused = async () => redirected > 0 && /MLDS_URL_REFUSED/.test((await feeds()).evil.lastFault ?? '');
    await until(refused, 30_000, 'the redirect refused');
    const f = await feeds();
    assert.match(f.evil.lastFault, /reached by a redirect\) is refused by the rule "own-api" \(MLDS_URL_REFUSED\): /);
    assert.match(f.evil.lastFault, /127\.0\.0\.1 port \d+ is this unit's own API/);
    const problems = (await get(svc, '/status')).json.problems as Obj[];
    const shown = problems.some((p) => p.source === 'feeds' && /feed "evil": .*MLDS_URL_REFUSED/.test(p.message));
    assert.ok(shown, JSON.stringify(problems));
    assert.equal(svc.controller().state('main').layout, undefined, 'no content was set');
    assert.notEqual(svc.controller().state('main').layout, 'l2');

    assert.equal(f.lan.state, 'ok', 'the feed on 127.0.0.1 works');
    const asked = lan.got.map((g) => g.headers['user-agent']);
    assert.ok(asked.length > 0);
    assert.deepEqual([...new Set(asked)], [`mlds/${VERSION} (sign-031)`]);
  } finally {
    await svc.close();
    evil.close();
    lan.close();
    sd.cleanup();
  }
});
