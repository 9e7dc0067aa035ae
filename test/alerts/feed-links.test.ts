// What a CAP feed's links may make the unit fetch: never its own API (a link to its own
// /load_config would load whatever configuration the feed's author names, keys included), and
// no host but the feed's unless fetch.allowHosts lists it; the valid alert beside them shows.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { archiveServer, makeZip } from '../helpers/zips.js';
import { baseConfig, get, serviceDir, start, until } from '../helpers/service.js';
import { atomLinks, capAlert, capServer, doc, square } from './cap.js';
import { alertsConfig, alertsStatus, isRed, LAT, LON } from './setup.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function refusals(svc: { url: string }): Promise<string[]> {
  const notShown = (await alertsStatus(svc)).feeds[0].notShown as Obj[];
  return notShown.map((n) => n.reason as string).filter((r) => /MLDS_URL_REFUSED/.test(r));
}

test("a feed's link to the unit's /load_config is refused; allowHosts opens hosts", { timeout: 90_000 }, async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'mlds-evil-'));
  const evil = baseConfig();
  evil.security = { apiKey: 'attacker-key-1', adminKey: 'attacker-key-2' };
  const zip = makeZip(path.join(root, 'evil.zip'), [{ name: 'config.json', text: JSON.stringify(evil) }]);
  const served = new Map([['evil.zip', readFileSync(zip)]]);
  let attackerAsked = 0;
  const attacker = await archiveServer(served, () => {
    attackerAsked++;
    return false;
  });
  const cap = await capServer();
  let unitPort = 0;
  const good = (id: string) =>
    doc(
      capAlert({
        identifier: id,
        infos: [{ headline: `Flood ${id}`, expires: '2099-01-01T00:00:00Z', areas: [{ polygon: square(LAT, LON) }] }],
      }),
    );
  cap.routes.set('/good.xml', good('GOOD'));
  cap.routes.set('/other.xml', good('OTHER'));
  const port = new URL(cap.url('/')).port;
  cap.routes.set('/feed.xml', (_req, res) => {
    if (!unitPort) return void res.writeHead(503).end();
    res
      .writeHead(200, { 'content-type': 'application/atom+xml' })
      .end(
        atomLinks([
          `http://127.0.0.1:${unitPort}/load_config?url=${encodeURIComponent(`${attacker.base}/evil.zip`)}`,
          cap.url('/good.xml'),
          `http://localhost:${port}/other.xml`,
        ]),
      );
  });
  const c = alertsConfig(cap.url('/feed.xml'));
  const sd = serviceDir(c);
  const configBefore = readFileSync(sd.configFile);
  const logDir = path.join(sd.dir, 'logs');
  const logged = () =>
    readdirSync(logDir)
      .filter((n) => n.startsWith('mlds'))
      .flatMap((n) => readFileSync(path.join(logDir, n), 'utf8').split('\n'))
      .filter((l) => l.includes('alert feed link refused'));
  const svc = await start(sd, { logDir });
  unitPort = svc.port;
  try {
    await until(async () => attackerAsked > 0 || (await refusals(svc)).length >= 2, 30_000, 'the links followed');
    assert.equal(attackerAsked, 0, 'the archive the link named was never fetched');
    await until(() => isRed(svc), 20_000, 'the valid alert beside the links');
    const refused = await refusals(svc);
    const own = /load_config\?… \(a link read from a fetched document\) is refused by the rule "own-api" \(MLDS_URL_/;
    const why = /127\.0\.0\.1 port \d+ is this unit's own API/;
    assert.ok(
      refused.some((r) => own.test(r) && why.test(r)),
      refused.join('\n'),
    );
    assert.ok(
      refused.some((r) => /localhost:\d+\/other\.xml .*rule "other-host"/.test(r)),
      refused.join('\n'),
    );
    assert.doesNotMatch(refused.join('\n'), /evil\.zip|attacker/, 'the query of a refused URL is not echoed');
    assert.deepEqual(readFileSync(sd.configFile), configBefore, 'the configuration is unchanged');
    assert.equal((await get(svc, '/status')).status, 200, '/status still needs no key');
    assert.equal(svc.api.config().security, undefined);
    assert.equal(cap.hits.get('/other.xml') ?? 0, 0, 'the other host was not asked');
    // Polled every second, each refused link logged once.
    const polls = cap.hits.get('/feed.xml')!;
    await until(() => cap.hits.get('/feed.xml')! >= polls + 2, 10_000, 'two more polls');
    await until(() => logged().length >= 2, 10_000, 'the refusals logged');
    assert.equal(logged().length, 2, logged().join('\n'));
    assert.ok(
      logged().some((l) => /rule \\"own-api\\"/.test(l)),
      logged().join('\n'),
    );

    // The operator lists the other host: its alert is fetched; the unit's own API stays closed.
    writeFileSync(sd.configFile, JSON.stringify({ ...c, fetch: { allowHosts: ['LocalHost'] } }));
    assert.equal((await get(svc, '/reload_config')).status, 200);
    await until(() => (cap.hits.get('/other.xml') ?? 0) > 0, 20_000, 'the listed host asked');
    await until(async () => (await refusals(svc)).length === 1, 20_000, 'only the own-API link refused');
    assert.match((await refusals(svc))[0], /rule "own-api"/);
    assert.equal(attackerAsked, 0);
    assert.equal((await get(svc, '/status')).status, 200);
  } finally {
    await svc.close();
    await cap.close();
    attacker.close();
    sd.cleanup();
    rmSync(root, { recursive: true, force: true });
  }
});
