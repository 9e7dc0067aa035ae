// Fleet administration through a real Mosquitto whose ACL is the one docs/fleet.md gives: an
// operator account that may send admin commands and read their answers, and nothing else;
// load_config with its digest, group admin off and on, brightness, blank and unblank, a
// screenshot published as JPEG, the status on request, the admin key, the status's size.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import mqtt from 'mqtt';
import { Broker, hasMosquitto, Watcher } from '../helpers/broker.js';
import { baseConfig, decode, get, near, REPO, serviceDir, start, until, type ServiceDir } from '../helpers/service.js';
import { archiveServer, entriesOf, makeZip } from '../helpers/zips.js';
import type { RunningService } from '../../src/main.js';
import type { AreaOf } from '../../src/config/types.js';

const skip = !hasMosquitto() && process.env.CI !== 'true' ? 'mosquitto is not installed (make test-deps)' : false;
type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The ACL of docs/fleet.md, with its example names replaced by this test's. */
function docsAcl(): string {
  const doc = readFileSync(path.join(REPO, 'docs/fleet.md'), 'utf8');
  const block = /```\n(# \/etc\/mosquitto\/acl\n[\s\S]*?)```/.exec(doc);
  assert.ok(block, 'docs/fleet.md shows the acl file');
  return block[1].replaceAll('tram-0042', 'a1').replaceAll('depot-north', 'depot').replaceAll('line-12', 'line');
}

let broker: Broker, sd: ServiceDir, svc: RunningService, op: Watcher, dispatch: Watcher;
let served: Map<string, Buffer>, files: { base: string; close(): void };
let n = 0;

/** Sends an admin command as the operator and resolves with its result. */
async function admin(cmd: Obj, topic = 'mlds/a1/admin', deadline = 10_000): Promise<Obj> {
  const req = `r${++n}`;
  await op.publish(topic, JSON.stringify({ req, ...cmd }));
  await until(
    () => results().some((r) => r.req === req && r.ok !== undefined),
    deadline,
    `the result of ${cmd.cmd} (${req})`,
  );
  return results().find((r) => r.req === req && r.ok !== undefined)!;
}
const results = () => op.on('mlds/a1/admin/result').map((s) => JSON.parse(s.payload) as Obj);

function config(changes: (c: Obj) => void = () => {}): Obj {
  const c = baseConfig();
  c.mqtt = { url: broker.url, unit: 'a1', username: 'a1', password: 'unit-secret', groups: ['depot'], keepalive: 5 };
  changes(c);
  return c;
}

/** A configuration archive served on loopback; resolves with its URL and SHA-256. */
function archive(name: string, c: Obj): { url: string; sha256: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-archive-'));
  cpSync(path.join(sd.dir, 'images'), path.join(dir, 'images'), { recursive: true });
  writeFileSync(path.join(dir, 'config.json'), JSON.stringify(c));
  const zip = readFileSync(makeZip(path.join(dir, '..', `${path.basename(dir)}.zip`), entriesOf(dir)));
  rmSync(dir, { recursive: true, force: true });
  served.set(name, zip);
  return { url: `${files.base}/${name}`, sha256: createHash('sha256').update(zip).digest('hex') };
}

before(async () => {
  if (skip) return;
  broker = await new Broker({
    users: { a1: 'unit-secret', operator: 'op-secret', dispatch: 'dispatch-secret' },
    acl: docsAcl(),
  }).start();
  served = new Map();
  files = await archiveServer(served);
  sd = serviceDir(config());
  op = await Watcher.open(broker.url, ['mlds/#'], { username: 'operator', password: 'op-secret' });
  dispatch = await Watcher.open(broker.url, ['mlds/a1/confirm'], { username: 'dispatch', password: 'dispatch-secret' });
  svc = await start(sd);
  await until(() => op.on('mlds/a1/status').length > 0, 10_000, "the unit's status, readable by the operator");
});

after(async () => {
  if (skip) return;
  await svc?.close();
  await op?.close();
  await dispatch?.close();
  files?.close();
  await broker?.cleanup();
  sd?.cleanup();
});

test(
  'the operator account sends admin commands and reads their results; a command it sends never reaches the unit',
  { skip },
  async () => {
    // MQTT 5: the broker may answer the publish with "not authorized"; either way it goes nowhere.
    await op.publish('mlds/a1/cmd', 'id=main&layout=l1&title=Operator&inumber=op1').catch(() => undefined);
    const r = await admin({ cmd: 'status' });
    assert.equal(r.ok, true);
    assert.equal(r.status.service, 'mlds');
    assert.equal(r.status.displays[0].id, 'main');
    assert.equal(
      svc.controller().state('main').areas.get('title'),
      undefined,
      "the ACL dropped the operator's command",
    );
    assert.equal(op.on('mlds/a1/confirm').length, 0);
    // The dispatch account may: the same command is acted on.
    await dispatch.publish('mlds/a1/cmd', 'id=main&layout=l1&title=Dispatch&inumber=d1');
    await until(() => dispatch.on('mlds/a1/confirm').length === 1, 5000, 'the dispatch confirmation');
    assert.equal(svc.controller().state('main').areas.get('title')?.text, 'Dispatch');
  },
);

test(
  'load_config applies an archive whose digest matches and refuses one whose digest differs before anything changes',
  { skip },
  async () => {
    const generation = svc.api.status().config.generation!;
    const next = archive(
      'next.zip',
      config((c) => {
        c.displays.main.layout.l1.title.fontColor = '255 0 0';
      }),
    );
    const wrong = await admin({ cmd: 'load_config', url: next.url, sha256: '0'.repeat(64) });
    assert.equal(wrong.ok, false);
    assert.equal(wrong.code, 'MLDS_DIGEST_MISMATCH');
    assert.equal(wrong.field, 'sha256');
    assert.equal(svc.api.status().config.generation, generation, 'nothing changed');
    const areas = () => svc.api.config().displays[0].layouts.get('l1')!.areas;
    const title = () => areas().find((a) => a.id === 'title') as AreaOf<'text'>;
    const titleColor = () => JSON.stringify(title().fontColor);
    const white = titleColor();

    const ok = await admin({ cmd: 'load_config', url: next.url, sha256: next.sha256.toUpperCase() });
    assert.equal(ok.ok, true, JSON.stringify(ok));
    assert.equal(ok.generation, generation + 1);
    assert.match(ok.message, new RegExp(`generation ${generation + 1}`));
    assert.ok(
      results().some((r) => r.cmd === 'load_config' && r.progress === 'downloading'),
      'progress before the result',
    );
    assert.notEqual(titleColor(), white, 'the new font colour');

    const missing = await admin({ cmd: 'load_config', url: next.url });
    assert.deepEqual([missing.ok, missing.code, missing.field], [false, 'MLDS_MQTT_PAYLOAD', 'sha256']);
  },
);

test('group admin commands are ignored until mqtt.groupAdmin is true', { skip }, async () => {
  await op.publish('mlds/group/depot/admin', JSON.stringify({ req: 'g-off', cmd: 'identify', seconds: 0 }));
  await admin({ cmd: 'status' });
  assert.equal(results().filter((r) => r.req === 'g-off').length, 0, 'not subscribed without groupAdmin');

  const on = archive(
    'group.zip',
    config((c) => {
      c.mqtt.groupAdmin = true;
      c.mqtt.groups = ['depot', 'line'];
    }),
  );
  assert.equal((await admin({ cmd: 'load_config', ...on })).ok, true);
  await until(
    () => (svc.api.status().components.fleet as Obj | undefined)?.state === 'connected',
    10_000,
    'connected again',
  );
  const r = await admin({ cmd: 'identify', seconds: 0 }, 'mlds/group/line/admin');
  assert.equal(r.ok, true, JSON.stringify(r));
  await op.publish('mlds/group/elsewhere/admin', JSON.stringify({ req: 'g-other', cmd: 'identify', seconds: 0 }));
  await admin({ cmd: 'status' });
  assert.equal(results().filter((r2) => r2.req === 'g-other').length, 0, 'a group this unit is not in');
});

test(
  'brightness sets a level on any unit until auto; blank darkens the panel while content and commands go on; the ' +
    'screenshot is a JPEG of the display',
  { skip },
  async () => {
    const unit = () => (svc.api.status().components.brightness as Obj).units[0] as Obj;
    const output = () => (svc.api.status().displays[0].output!.details as Obj).brightness as number;
    assert.equal(svc.api.config().displays[0].sensorBrightness, false, 'no sensorBrightness needed');
    const before = unit().brightness;
    let r = await admin({ cmd: 'brightness', value: 30 });
    assert.equal(r.ok, true, JSON.stringify(r));
    await until(() => output() === 30, 5000, 'the output at 30 %');
    assert.equal(unit().mode, 'manual');
    r = await admin({ cmd: 'brightness', value: 101 });
    assert.deepEqual([r.ok, r.code, r.field], [false, 'MLDS_MQTT_PAYLOAD', 'value']);
    assert.equal((await admin({ cmd: 'brightness', value: 'auto' })).ok, true);
    await until(() => output() === before, 5000, 'the level of its sources again');
    assert.notEqual(unit().mode, 'manual');

    assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=Lit')).status, 200);
    r = await admin({ cmd: 'blank' });
    assert.equal(r.ok, true);
    await until(() => output() === 0 && unit().blanked === true, 5000, 'the panel dark');
    await until(
      () => JSON.parse(op.on('mlds/a1/status').at(-1)!.payload).displays[0].blanked === true,
      12_000,
      'blanked on the status topic',
    );
    // Blanked: a command is taken; unblanked, the panel shows it.
    assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=Behind&fontColor[title]=0_255_0')).status, 200);
    assert.equal((await admin({ cmd: 'unblank' })).ok, true);
    await until(() => output() === before && unit().blanked === false, 5000, 'the panel lit');

    r = await admin({ cmd: 'screenshot', id: 'main' });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.topic, 'mlds/a1/screenshot/main');
    const shot = op.seen.find((s) => s.topic === 'mlds/a1/screenshot/main')!;
    assert.equal(shot.retain, false);
    const raw = await rawOf('mlds/a1/screenshot/main');
    assert.deepEqual([...raw.subarray(0, 3)], [0xff, 0xd8, 0xff], 'a JPEG');
    const px = await decode(raw);
    assert.deepEqual([px.width, px.height], [200, 100]);
    assert.ok(near(px.at(195, 5), [0, 0, 255], 30), `the title's blue background: ${px.at(195, 5)}`);
    let green = 0;
    for (let y = 0; y < 50; y++)
      for (let x = 0; x < 190; x++) {
        const [r2, g, b] = px.at(x, y);
        if (g > 150 && r2 < 110 && b < 110) green++;
      }
    assert.ok(
      green > 20,
      `the text sent while blanked, in green, is on the panel after unblank (${green} green pixels)`,
    );
    r = await admin({ cmd: 'screenshot', id: 'nope' });
    assert.deepEqual([r.ok, r.code], [false, 'MLDS_UNKNOWN_ID']);
  },
);

/** The payload bytes of the newest message on `topic` (the watcher keeps text). */
async function rawOf(topic: string): Promise<Buffer> {
  const c = await mqtt.connectAsync(broker.url, { username: 'operator', password: 'op-secret', reconnectPeriod: 0 });
  try {
    const got = new Promise<Buffer>((resolve) =>
      c.on('message', (t, p) => {
        if (t === topic) resolve(p);
      }),
    );
    await c.subscribeAsync(topic);
    const r = await admin({ cmd: 'screenshot', id: topic.split('/').at(-1) });
    assert.equal(r.ok, true);
    return await got;
  } finally {
    await c.endAsync(true);
  }
}

test(
  "HTTP /blank and /unblank with the API key act on the display's unit; HEAD changes nothing",
  { skip },
  async () => {
    const unit = () => (svc.api.status().components.brightness as Obj).units[0] as Obj;
    const head = await fetch(`${svc.url}/blank?id=main`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    let r;
    assert.equal(unit().blanked, false);
    r = await get(svc, '/blank?id=main');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json.units, ['main']);
    assert.equal(unit().blanked, true);
    r = await get(svc, '/blank?id=nope');
    assert.deepEqual([r.status, r.json.code, r.json.field], [400, 'MLDS_UNKNOWN_ID', 'id']);
    r = await get(svc, '/unblank');
    assert.equal(r.status, 200);
    assert.equal(unit().blanked, false);
  },
);

test(
  'with security.adminKey set, a command without the key is refused and not acted on; the key is never echoed',
  { skip },
  async () => {
    const key = 'admin-secret-42';
    const keyed = archive(
      'keyed.zip',
      config((c) => {
        c.security = { adminKey: key };
        c.mqtt.groupAdmin = true;
      }),
    );
    assert.equal((await admin({ cmd: 'load_config', ...keyed })).ok, true);
    await until(() => (svc.api.status().components.fleet as Obj).state === 'connected', 10_000, 'connected again');
    const unit = () => (svc.api.status().components.brightness as Obj).units[0] as Obj;
    let r = await admin({ cmd: 'blank' });
    assert.deepEqual([r.ok, r.code], [false, 'MLDS_FORBIDDEN'], JSON.stringify(r));
    r = await admin({ cmd: 'blank', adminKey: 'wrong-key-000' });
    assert.deepEqual([r.ok, r.code], [false, 'MLDS_FORBIDDEN']);
    assert.equal(unit().blanked, false);
    r = await admin({ cmd: 'blank', adminKey: key });
    assert.equal(r.ok, true);
    assert.equal(unit().blanked, true);
    assert.equal((await admin({ cmd: 'unblank', adminKey: key })).ok, true);
    assert.ok(!op.seen.some((s) => s.payload.includes(key)), 'the key is in no message the unit sent');
  },
);

test(
  'the retained status stays under 2 KB with six displays and long texts; the whole document comes with `status`',
  { skip },
  async () => {
    const six = config((c) => {
      c.security = { adminKey: 'admin-secret-42' };
      for (let i = 1; i < 6; i++) {
        c.displays[`side${i}`] = {
          ...structuredClone(c.displays.main),
          displayName: `Side ${i}`,
          output: { driver: 'virtual' },
        };
      }
    });
    const a = archive('six.zip', six);
    assert.equal((await admin({ cmd: 'load_config', ...a, adminKey: 'admin-secret-42' })).ok, true);
    for (const id of ['main', 'side1', 'side2', 'side3', 'side4', 'side5']) {
      assert.equal(
        (await get(svc, `/mlds?id=${id}&layout=l1&title=${'Long departure text '.repeat(10)}${id}`)).status,
        200,
      );
    }
    await until(
      () => (JSON.parse(op.on('mlds/a1/status').at(-1)!.payload).displays as Obj[]).length === 6,
      15_000,
      'six displays on the status topic',
    );
    const retained = op.on('mlds/a1/status').at(-1)!.payload;
    assert.ok(Buffer.byteLength(retained) < 2048, `${Buffer.byteLength(retained)} bytes`);
    const full = await admin({ cmd: 'status', adminKey: 'admin-secret-42' });
    assert.equal(full.status.displays.length, 6);
    assert.ok(JSON.stringify(full.status).length > 2048, 'the whole document is larger than the summary');
  },
);
