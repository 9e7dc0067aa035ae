// Commands, confirmations, status and admin through a real Mosquitto (test/helpers/broker.ts):
// the flags of every publish, QoS 1 redelivery, retained and stale commands, oversized and
// malformed payloads, group and fleet topics, admin only on the unit's own topic.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { after, before, test } from 'node:test';
import { Broker, hasMosquitto, Watcher } from '../helpers/broker.js';
import { baseConfig, get, serviceDir, start, until, type ServiceDir } from '../helpers/service.js';
import type { RunningService } from '../../src/main.js';

const skip = !hasMosquitto() && process.env.CI !== 'true' ? 'mosquitto is not installed (make test-deps)' : false;
let broker: Broker, sd: ServiceDir, svc: RunningService, w: Watcher, feedbackServer: Server;
const feedbackHits: string[] = [];

const confirmsOf = (inumber: string) =>
  w
    .on('mlds/u1/confirm')
    .map((s) => JSON.parse(s.payload) as Record<string, unknown>)
    .filter((c) => c.inumber === inumber);
const version = () => svc.controller().state('main').version;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const fleet = async () => ((await get(svc, '/status')).json.components as Record<string, Record<string, any>>).fleet;

before(async () => {
  if (skip) return;
  feedbackServer = createServer((req, res) => {
    feedbackHits.push(req.url ?? '');
    res.end('ok');
  });
  await new Promise<void>((r) => feedbackServer.listen(0, '127.0.0.1', r));
  broker = await new Broker().start();
  const cfg = baseConfig();
  cfg.displays.main.confirmIp = '127.0.0.1';
  cfg.displays.main.confirmPort = String((feedbackServer.address() as { port: number }).port);
  cfg.mqtt = { url: broker.url, unit: 'u1', groups: ['depot1'], keepalive: 5 };
  sd = serviceDir(cfg);
  w = await Watcher.open(broker.url, ['mlds/#']);
  svc = await start(sd);
  await until(() => w.on('mlds/u1/availability').length > 0, 5000, 'online');
});

after(async () => {
  if (skip) return;
  // A before() that failed half-way (no broker) must still let the file end, not hang on the feedback server.
  const maybe = { svc, w, broker, feedbackServer, sd } as Partial<{
    svc: RunningService;
    w: Watcher;
    broker: Broker;
    feedbackServer: Server;
    sd: ServiceDir;
  }>;
  await maybe.svc?.close();
  await maybe.w?.close();
  await maybe.broker?.cleanup();
  if (maybe.feedbackServer) await new Promise((r) => maybe.feedbackServer!.close(r));
  maybe.sd?.cleanup();
});

test(
  'a query-string command is applied, confirmed on the confirm topic and at the HTTP feedback address',
  { skip },
  async () => {
    await w.publish('mlds/u1/cmd', 'id=main&layout=l1&title=Hello&inumber=q1');
    await until(() => confirmsOf('q1').length === 1, 3000, 'confirm q1');
    assert.deepEqual(confirmsOf('q1')[0], { inumber: 'q1', confirm: 1, id: 'main', code: null, message: 'shown' });
    const st = svc.controller().state('main');
    assert.equal(st.areas.get('title')?.text, 'Hello');
    assert.equal(st.lastCommand?.source, 'mqtt');
    await until(() => feedbackHits.includes('/mlds?confirm=1&inumber=q1'), 5000, 'HTTP feedback');
  },
);

test('a JSON command takes the same path', { skip }, async () => {
  await w.publish(
    'mlds/u1/cmd',
    JSON.stringify({
      id: 'main',
      layout: 'l1',
      areas: { title: 'From JSON', sign: 'b' },
      inumber: 'j1',
      ts: Date.now(),
    }),
  );
  await until(() => confirmsOf('j1').length === 1, 3000, 'confirm j1');
  assert.equal(confirmsOf('j1')[0].confirm, 1);
  assert.equal(svc.controller().state('main').areas.get('title')?.text, 'From JSON');
  assert.equal(svc.controller().state('main').areas.get('sign')?.text, 'Beta');
});

test("a faulty command gets confirm=2 with the control path's code", { skip }, async () => {
  const before = version();
  await w.publish('mlds/u1/cmd', 'id=main&layout=nope&inumber=f1');
  await until(() => confirmsOf('f1').length === 1, 3000, 'confirm f1');
  assert.equal(confirmsOf('f1')[0].confirm, 2);
  assert.equal(confirmsOf('f1')[0].code, 'MLDS_UNKNOWN_LAYOUT');
  assert.equal(version(), before);
});

test(
  'the same inumber to the same display twice (a QoS 1 redelivery) is acted on once and confirmed the same way ' +
    'both times',
  { skip },
  async () => {
    const before = version();
    await w.publish('mlds/u1/cmd', 'id=main&layout=l1&title=Once&inumber=d1');
    await w.publish('mlds/u1/cmd', 'id=main&layout=l1&title=Once&inumber=d1', { dup: true });
    await until(() => confirmsOf('d1').length === 2, 3000, 'two confirms of d1');
    assert.deepEqual(confirmsOf('d1')[0], confirmsOf('d1')[1]);
    assert.equal(version(), before + 1);
    assert.equal((await fleet()).ignored.duplicates >= 1, true);
  },
);

test(
  'a retained command is never acted on, whether it was there before or is published while subscribed',
  { skip },
  async () => {
    const before = version();
    await w.publish('mlds/u1/cmd', 'id=main&layout=l2&other=Ghost&inumber=r1', { retain: true });
    await until(async () => (await fleet()).ignored.retained >= 1, 3000, 'retained counted');
    assert.equal(version(), before);
    // A new connection (a reload that changes `mqtt`) is handed the retained copy on subscribing: still not acted on.
    const cfg = JSON.parse(readFileSync(sd.configFile, 'utf8'));
    cfg.mqtt.keepalive = 6;
    writeFileSync(sd.configFile, JSON.stringify(cfg));
    await svc.runtime.reload();
    await until(async () => (await fleet()).ignored.retained >= 2, 5000, 'retained copy ignored after the reconnect');
    assert.equal(confirmsOf('r1').length, 0);
    assert.equal(svc.controller().state('main').layout, 'l1');
    assert.equal(version(), before);
    await w.publish('mlds/u1/cmd', '', { retain: true });
  },
);

test('a command whose ts is older than 60 s is not acted on: confirm=0 with the reason', { skip }, async () => {
  const before = version();
  await w.publish('mlds/u1/cmd', `id=main&layout=l1&title=Old&inumber=s1&ts=${Date.now() - 61_000}`);
  await until(() => confirmsOf('s1').length === 1, 3000, 'confirm s1');
  const c = confirmsOf('s1')[0];
  assert.equal(c.confirm, 0);
  assert.equal(c.code, 'MLDS_MQTT_STALE');
  assert.match(String(c.message), /older than 60 s/);
  assert.equal(version(), before);
  await until(() => feedbackHits.includes('/mlds?confirm=0&inumber=s1'), 5000, 'HTTP feedback of the stale one');
});

test(
  'a payload over 64 KB is refused with confirm=2 and a malformed one gets confirm=2; the connection stays',
  { skip },
  async () => {
    const before = version();
    await w.publish('mlds/u1/cmd', `id=main&layout=l1&inumber=big&title=${'x'.repeat(70_000)}`);
    await w.publish('mlds/u1/cmd', '{"id":"main","layout":"l1","inumber":"m1","areas":{"title":{"nested":1}}}');
    await w.publish('mlds/u1/cmd', '{not json');
    await w.publish('mlds/u1/cmd', Buffer.from([0xff, 0xfe, 0x00]));
    const all = () => w.on('mlds/u1/confirm').map((s) => JSON.parse(s.payload) as Record<string, unknown>);
    await until(
      () =>
        all().filter((c) => c.code === 'MLDS_MQTT_TOO_LARGE').length === 1 &&
        all().filter((c) => c.code === 'MLDS_MQTT_PAYLOAD').length >= 3,
      3000,
      'refusals',
    );
    assert.equal(all().find((c) => c.code === 'MLDS_MQTT_TOO_LARGE')?.confirm, 2);
    assert.equal(all().find((c) => c.inumber === 'm1')?.confirm, 2);
    assert.equal(version(), before);
    assert.equal((await fleet()).state, 'connected');
    await w.publish('mlds/u1/cmd', 'id=main&layout=l1&title=Still&inumber=after');
    await until(() => confirmsOf('after').length === 1, 3000, 'a command after the refusals');
  },
);

test(
  'group and fleet topics are taken; a command for a display this unit lacks is left to the others',
  { skip },
  async () => {
    await w.publish('mlds/group/depot1/cmd', 'id=main&layout=l1&title=Group&inumber=g1');
    await until(() => confirmsOf('g1').length === 1, 3000, 'group confirm');
    assert.equal(svc.controller().state('main').areas.get('title')?.text, 'Group');
    await w.publish('mlds/all/cmd', 'id=main&layout=l1&title=Fleet&inumber=a1');
    await until(() => confirmsOf('a1').length === 1, 3000, 'fleet confirm');
    assert.equal(svc.controller().state('main').areas.get('title')?.text, 'Fleet');
    await w.publish('mlds/group/other/cmd', 'id=main&layout=l1&title=NotMine&inumber=o1');
    await w.publish('mlds/all/cmd', 'id=elsewhere&layout=l1&title=X&inumber=o2');
    await until(async () => (await fleet()).ignored.notThisUnit >= 1, 3000, 'not this unit');
    assert.equal(confirmsOf('o1').length + confirmsOf('o2').length, 0);
    assert.equal(svc.controller().state('main').areas.get('title')?.text, 'Fleet');
  },
);

test("admin commands act on the unit's own topic and are refused on group and fleet topics", { skip }, async () => {
  await w.publish('mlds/all/cmd', '{"cmd":"identify","seconds":30,"inumber":"adm1"}');
  await w.publish('mlds/group/depot1/cmd', '{"cmd":"reload_config","inumber":"adm2"}');
  await w.publish('mlds/all/admin', 'identify');
  await until(() => confirmsOf('adm1').length === 1 && confirmsOf('adm2').length === 1, 3000, 'refusals');
  assert.equal(confirmsOf('adm1')[0].confirm, 2);
  assert.match(String(confirmsOf('adm2')[0].message), /own admin topic/);
  const boot = () => (svc.api.status().components.boot as { units: Array<{ showing: string }> }).units[0].showing;
  assert.equal(boot(), 'content');
  await w.publish('mlds/u1/admin', '{"cmd":"identify","seconds":5}');
  await until(() => boot() === 'identify', 3000, 'identify shown');
  await w.publish('mlds/u1/admin', 'reload_config');
  const replies = () => w.on('mlds/u1/admin/result').map((s) => JSON.parse(s.payload) as Record<string, unknown>);
  await until(() => replies().some((r) => r.cmd === 'reload_config'), 3000, 'reload reply');
  const generation = svc.api.status().config.generation;
  assert.deepEqual(
    replies().find((r) => r.cmd === 'reload_config'),
    { req: null, cmd: 'reload_config', ok: true, code: null, message: 'configuration unchanged', generation },
  );
  assert.equal(
    w.on('mlds/u1/confirm').filter((s) => s.payload.includes('"cmd"')).length,
    0,
    'admin answers are not confirmations',
  );
  await w.publish('mlds/u1/admin', '{"cmd":"identify","seconds":0}');
  await until(() => boot() === 'content', 3000, 'identify ended');
});

test(
  'every publish carries its flags: availability, status and reported retained QoS 1, confirm and admin results ' +
    'QoS 1 not retained',
  { skip },
  async () => {
    const mine = w.seen.filter(
      (s) => s.topic.startsWith('mlds/u1/') && !s.topic.endsWith('/cmd') && !s.topic.endsWith('/admin'),
    );
    assert.ok(
      mine.some((s) => s.topic === 'mlds/u1/reported'),
      'a unit with no desired state reports so too',
    );
    assert.ok(mine.length > 5);
    for (const s of mine) {
      assert.equal(s.qos, 1, `${s.topic} QoS`);
      assert.equal(
        s.retain,
        s.topic.endsWith('/status') || s.topic.endsWith('/availability') || s.topic.endsWith('/reported'),
        `${s.topic} retain`,
      );
    }
    assert.equal(w.on('mlds/u1/availability')[0].payload, 'online');
    const status = JSON.parse(w.on('mlds/u1/status').at(-1)!.payload) as {
      v: number;
      version: string;
      generation: number;
      state: string;
      displays: Array<{ id: string; layout: string }>;
    };
    assert.equal(status.v, 1);
    assert.equal(status.generation, svc.api.status().config.generation);
    assert.equal(status.displays[0].id, 'main');
    assert.ok(Buffer.byteLength(w.on('mlds/u1/status').at(-1)!.payload) < 2048, 'the retained status is a summary');
  },
);

test('a status change is published within 5 s, and at most one every 5 s', { skip }, async () => {
  const n = w.on('mlds/u1/status').length;
  for (let i = 0; i < 10; i++) await w.publish('mlds/u1/cmd', `id=main&layout=l1&title=S${i}`);
  await until(
    () => w.on('mlds/u1/status').at(-1)?.payload.includes('"text":"S9"') ?? false,
    12_000,
    'a status after the changes',
  );
  // the passing of time is what is tested: at most one status every 5 s.
  await new Promise((r) => setTimeout(r, 5500));
  const fresh = w.on('mlds/u1/status').slice(n);
  for (let i = 1; i < fresh.length; i++) assert.ok(fresh[i].at - fresh[i - 1].at >= 4900, 'at most one every 5 s');
  assert.ok(fresh.length <= 3);
  assert.match(fresh.at(-1)!.payload, /"text":"S9"/);
});

test('/metrics shows the broker state and the commands that came through it', { skip }, async () => {
  const text = (await get(svc, '/metrics')).text;
  assert.match(text, /^mlds_broker_state\{state="connected",mqtt_unit="u1"\} 1$/m);
  assert.match(text, /^mlds_broker_state\{state="refused",mqtt_unit="u1"\} 0$/m);
  const ok = /^mlds_commands_total\{source="mqtt",result="ok",mqtt_unit="u1"\} (\d+)$/m.exec(text);
  assert.ok(ok && Number(ok[1]) >= 5, 'mqtt commands counted');
  assert.match(text, /^mlds_commands_total\{source="mqtt",result="fault",mqtt_unit="u1"\} [1-9]\d*$/m);
});
