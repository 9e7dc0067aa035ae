// Desired state through a real Mosquitto with several real units: retained group and unit
// documents merged (the unit's own wins), converged part by part and reported retained; a unit
// stopped while the desired state changes converges when it returns; a configuration archive
// whose SHA-256 is wrong fails its part with a message and is tried again a minute later;
// documents from the broker are bounded and checked field by field.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Broker, hasMosquitto, Watcher } from '../helpers/broker.js';
import { FakeClock } from '../helpers/clock.js';
import { baseConfig, get, serviceDir, start, until, type ServiceDir } from '../helpers/service.js';
import { archiveServer, makeZip } from '../helpers/zips.js';
import { RETRY_MIN_MS } from '../../src/fleet/converge.js';
import type { RunningService } from '../../src/main.js';

const skip = !hasMosquitto() && process.env.CI !== 'true' ? 'mosquitto is not installed (make test-deps)' : false;
type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
let broker: Broker, w: Watcher;
const dirs: ServiceDir[] = [];
const running = new Set<RunningService>();

before(async () => {
  if (skip) return;
  broker = await new Broker().start();
  w = await Watcher.open(broker.url, ['mlds/#']);
});

after(async () => {
  if (skip) return;
  for (const s of running) await s.close();
  // Retained documents stay with this broker: it goes with the test file.
  await w?.close();
  await broker?.cleanup();
  for (const d of dirs) d.cleanup();
});

function unitConfig(unit: string, groups: string[]): Obj {
  const cfg = baseConfig();
  // No pictures: an archive of config.json alone holds all it needs.
  delete cfg.displays.main.layout.l1.pic;
  cfg.mqtt = { url: broker.url, unit, groups, keepalive: 5 };
  return cfg;
}

function unitDir(unit: string, groups: string[]): ServiceDir {
  const sd = serviceDir(unitConfig(unit, groups));
  dirs.push(sd);
  return sd;
}

async function run(sd: ServiceDir, unit: string, clock?: FakeClock): Promise<RunningService> {
  const svc = await start(sd, clock ? { clock } : {});
  running.add(svc);
  await until(() => w.on(`mlds/${unit}/availability`).at(-1)?.payload === 'online', 10_000, `${unit} online`);
  return svc;
}

async function stop(svc: RunningService): Promise<void> {
  running.delete(svc);
  await svc.close();
}

const reported = (unit: string): Obj | undefined => {
  const last = w.on(`mlds/${unit}/reported`).at(-1);
  return last ? (JSON.parse(last.payload) as Obj) : undefined;
};
const retain = (topic: string, doc: unknown) => {
  return w.publish(topic, typeof doc === 'string' ? doc : JSON.stringify(doc), { retain: true });
};
const brightness = (svc: RunningService): Obj => (svc.api.status().components.brightness as Obj).units[0] as Obj;
const title = (svc: RunningService) => svc.controller().state('main').areas.get('title')?.text;

/** A report converged among those published after the first `seen`. */
async function convergedSince(unit: string, seen: number): Promise<void> {
  const converged = () =>
    w
      .on(`mlds/${unit}/reported`)
      .slice(seen)
      .some((s) => (JSON.parse(s.payload) as Obj).converged === true);
  await until(converged, 10_000, `${unit} converged after the restart`);
}

async function convergedAt(unit: string, rev: string | null, more: (r: Obj) => boolean = () => true): Promise<Obj> {
  await until(
    () => {
      const r = reported(unit);
      return !!r && r.converged === true && r.rev === rev && more(r);
    },
    15_000,
    `${unit} converged at rev ${rev}`,
  );
  return reported(unit)!;
}

test(
  "group and unit documents merge (the unit's own wins) and every unit converges; a unit stopped while the " +
    'desired state changes converges when it returns',
  { skip },
  async () => {
    const sd1 = unitDir('a1', ['g1']),
      sd2 = unitDir('a2', ['g1']);
    const a1 = await run(sd1, 'a1');
    let a2 = await run(sd2, 'a2');
    await retain('mlds/group/g1/desired', { rev: 1, brightness: 40, content: { main: 'layout=l1&title=Group' } });
    await retain('mlds/a2/desired', { rev: 'own-1', brightness: 70 });
    await convergedAt('a1', '1');
    const r2 = await convergedAt('a2', 'own-1', (r) => r.revs['mlds/group/g1/desired'] === '1');
    assert.deepEqual(Object.keys(r2.parts).sort(), ['brightness', 'content/main']);
    assert.deepEqual(r2.parts.brightness, { state: 'ok', message: '70 %' });
    assert.equal(r2.digest, a2.api.status().config.digest);
    assert.equal(brightness(a1).brightness, 40);
    assert.equal(brightness(a2).brightness, 70);
    assert.equal(title(a1), 'Group');
    assert.equal(title(a2), 'Group');

    await stop(a2);
    const second = { rev: 2, brightness: 40, blank: true, content: { main: 'layout=l1&title=Second' } };
    await retain('mlds/group/g1/desired', second);
    await convergedAt('a1', '2');
    assert.equal(brightness(a1).blanked, true);
    assert.equal(title(a1), 'Second');

    a2 = await run(sd2, 'a2');
    await convergedAt('a2', 'own-1', (r) => r.revs['mlds/group/g1/desired'] === '2');
    assert.equal(title(a2), 'Second');
    assert.equal(brightness(a2).blanked, true);
    assert.equal(brightness(a2).brightness, 70);
    // /status and /info show it.
    const fleet = (await get(a2, '/status')).json.components as Obj;
    assert.equal(fleet.fleet.desired.converged, true);
    assert.equal(fleet.fleet.desired.rev, 'own-1');
    const info = (await get(a2, '/info')).text;
    assert.match(info, /Desired state<\/th><td[^>]*>converged <span class="note">rev own-1/);
    await retain('mlds/group/g1/desired', '');
    await retain('mlds/a2/desired', '');
    await stop(a1);
    await stop(a2);
  },
);

test('content is applied once per rev: a command replaces it until the next rev', { skip }, async () => {
  const sd = unitDir('b1', []);
  const b1 = await run(sd, 'b1');
  await retain('mlds/b1/desired', { rev: 1, content: { main: 'layout=l1&title=Desired' } });
  await convergedAt('b1', '1');
  assert.equal(title(b1), 'Desired');
  await w.publish('mlds/b1/cmd', 'id=main&layout=l1&title=Command&inumber=c1');
  await until(() => title(b1) === 'Command', 5000, 'the command shown');
  // Same rev again (a reconnect, another document changing): the command stays.
  await retain('mlds/b1/desired', { rev: 1, brightness: 50, content: { main: 'layout=l1&title=Desired' } });
  await convergedAt('b1', '1', (r) => r.parts.brightness?.message === '50 %');
  assert.equal(title(b1), 'Command');
  await stop(b1);
  const seen = w.on('mlds/b1/reported').length;
  const again = await run(sd, 'b1');
  await convergedSince('b1', seen);
  assert.equal(title(again), 'Command', 'not shown again after a restart either');
  await retain('mlds/b1/desired', { rev: 2, content: { main: 'layout=l1&title=Next' } });
  await convergedAt('b1', '2');
  assert.equal(title(again), 'Next');
  await retain('mlds/b1/desired', '');
  await stop(again);
});

test(
  'a configuration archive whose SHA-256 is wrong fails the config part with a message, and is tried again a ' +
    'minute later',
  { skip },
  async () => {
    const zips = mkdtempSync(path.join(tmpdir(), 'mlds-desired-'));
    try {
      const wanted = unitConfig('c1', []);
      wanted.displays.main.layout.l1.title.fontColor = '255 0 0';
      const good = makeZip(path.join(zips, 'good.zip'), [{ name: 'config.json', text: JSON.stringify(wanted) }]);
      const otherConfig = JSON.stringify(unitConfig('c1', ['x']));
      const other = makeZip(path.join(zips, 'other.zip'), [{ name: 'config.json', text: otherConfig }]);
      const { readFileSync } = await import('node:fs');
      const served = new Map([['cfg.zip', readFileSync(other)]]);
      let fetched = 0;
      const srv = await archiveServer(served, () => {
        fetched++;
        return false;
      });
      const sha256 = createHash('sha256').update(readFileSync(good)).digest('hex');
      const clock = new FakeClock(Date.now());
      const sd = unitDir('c1', []);
      const c1 = await run(sd, 'c1', clock);
      try {
        await retain('mlds/c1/desired', { rev: 'cfg-1', config: { url: `${srv.base}/cfg.zip`, sha256 } });
        await until(() => reported('c1')?.parts?.config?.state === 'failed', 10_000, 'the config part failed');
        const r = reported('c1')!;
        assert.equal(r.converged, false);
        assert.match(r.parts.config.message, /SHA-256|sha256|digest/i);
        assert.equal(fetched, 1);
        assert.equal(c1.api.status().config.generation, 1, 'nothing changed');
        // The right archive is served now: the unit tries again once the minute is over, not before.
        served.set('cfg.zip', readFileSync(good));
        clock.advance(RETRY_MIN_MS - 1000);
        // the passing of time is what is tested: no retry within the minute.
        await new Promise((r) => setTimeout(r, 200));
        assert.equal(fetched, 1);
        clock.advance(1000);
        const ok = await convergedAt('c1', 'cfg-1');
        assert.equal(fetched, 2);
        assert.equal(ok.parts.config.state, 'ok');
        assert.equal(ok.digest, c1.api.status().config.digest);
        assert.equal(c1.api.status().config.generation, 2);
        // Converged: a reconnect or a restart does not fetch it again.
        await stop(c1);
        const seen = w.on('mlds/c1/reported').length;
        const again = await run(sd, 'c1');
        await convergedSince('c1', seen);
        assert.equal(fetched, 2);
        await stop(again);
      } finally {
        srv.close();
        await retain('mlds/c1/desired', '');
      }
    } finally {
      rmSync(zips, { recursive: true, force: true });
    }
  },
);

test(
  'documents from the broker are bounded and checked: the faulty one is reported naming its field, the rest converge',
  { skip },
  async () => {
    const sd = unitDir('d1', ['g2']);
    const d1 = await run(sd, 'd1');
    await retain('mlds/group/g2/desired', { rev: 5, brightness: 20 });
    await retain('mlds/d1/desired', { rev: 6, brightness: 101 });
    const doc = () => reported('d1')?.parts?.['document mlds/d1/desired'] as Obj | undefined;
    await until(() => doc() !== undefined, 10_000, 'the faulty document reported');
    let r = reported('d1')!;
    assert.equal(r.converged, false);
    const message = 'mlds/d1/desired: "brightness" must be a whole number from 0 to 100, or "auto"';
    assert.deepEqual(r.parts['document mlds/d1/desired'], { state: 'failed', message });
    assert.deepEqual(r.parts.brightness, { state: 'ok', message: '20 %' });
    assert.equal(brightness(d1).brightness, 20);

    const many = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`d${i}`, 'layout=l1']));
    await retain('mlds/d1/desired', { content: many });
    await until(() => /65 displays/.test(doc()?.message ?? ''), 10_000, 'too many displays');
    await retain('mlds/d1/desired', Buffer.alloc(70 * 1024, 0x20).toString());
    await until(() => /at most 65536/.test(doc()?.message ?? ''), 10_000, 'too large');
    const software = { version: '0.0.1', url: 'http://127.0.0.1:1/b.raucb', sha256: 'a'.repeat(64) };
    await retain('mlds/d1/desired', { content: { nope: 'layout=l1' }, software });
    await until(() => reported('d1')?.parts?.software?.state === 'failed', 10_000, 'software failed');
    r = reported('d1')!;
    assert.match(r.parts.software.message, /RAUC is not present/);
    const nope = '"content.nope": this unit has no display "nope"';
    assert.deepEqual(r.parts['content/nope'], { state: 'failed', message: nope });
    assert.equal(r.parts['document mlds/d1/desired'], undefined);
    await retain('mlds/d1/desired', '');
    await retain('mlds/group/g2/desired', '');
    await stop(d1);
  },
);
