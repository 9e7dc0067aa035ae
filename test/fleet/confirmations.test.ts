// Confirmations over MQTT that say what happened: a reused inumber with other content is a
// new command (applied, in /history, confirmed for what it did) on every command topic and
// after HTTP used the number, and so is the same payload once another command was applied
// since; a burst is confirmed `shown` only for what a frame carried out, all that each command set.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { RunningService } from '../../src/main.js';
import { Broker, hasMosquitto, Watcher } from '../helpers/broker.js';
import { baseConfig, get, serviceDir, start, until, type ServiceDir } from '../helpers/service.js';
import { sink, type Sink } from '../helpers/sink.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const skip = !hasMosquitto() && process.env.CI !== 'true' ? 'mosquitto is not installed (make test-deps)' : false;
let broker: Broker, sd: ServiceDir, svc: RunningService, w: Watcher, fb: Sink;

const confirmsOf = (inumber: string) =>
  w
    .on('mlds/u1/confirm')
    .map((s) => JSON.parse(s.payload) as Obj)
    .filter((c) => c.inumber === inumber);
const title = () => svc.controller().state('main').areas.get('title')?.text;
const status = async () => (await get(svc, '/status')).json as Obj;
/** The values the title area showed with this inumber, oldest first. */
const shownWith = async (inumber: string) =>
  ((await get(svc, '/history?id=main&limit=1000')).json.entries as Obj[])
    .filter((e) => e.area === 'title' && e.inumber === inumber)
    .map((e) => e.value)
    .reverse();

before(async () => {
  if (skip) return;
  fb = await sink();
  broker = await new Broker().start();
  const cfg = baseConfig();
  cfg.displays.main.confirmIp = '127.0.0.1';
  cfg.displays.main.confirmPort = String(fb.port);
  cfg.mqtt = { url: broker.url, unit: 'u1', groups: ['depot1'], keepalive: 5 };
  sd = serviceDir(cfg);
  w = await Watcher.open(broker.url, ['mlds/u1/confirm']);
  svc = await start(sd, { logDir: path.join(sd.dir, 'log'), feedback: { firstDelayMs: 10 } });
  await until(async () => (await status()).components.fleet?.state === 'connected', 5000, 'connected');
});

after(async () => {
  if (skip) return;
  const maybe = { svc, w, broker, fb, sd } as Partial<{
    svc: RunningService;
    w: Watcher;
    broker: Broker;
    fb: Sink;
    sd: ServiceDir;
  }>;
  await maybe.svc?.close();
  await maybe.w?.close();
  await maybe.broker?.cleanup();
  maybe.fb?.close();
  maybe.sd?.cleanup();
});

for (const [topic, n] of [
  ['mlds/u1/cmd', '7'],
  ['mlds/group/depot1/cmd', '8'],
  ['mlds/all/cmd', '9'],
] as const) {
  test(
    `${topic}: the same inumber with new content is a new command, applied and confirmed for what it did`,
    { skip },
    async () => {
      await w.publish(topic, `id=main&layout=l1&title=Route+11&inumber=${n}`);
      await until(() => confirmsOf(n).length === 1, 3000, 'the first confirmation');
      await w.publish(topic, `id=main&layout=l1&title=Route+22&inumber=${n}`);
      await until(() => confirmsOf(n).length === 2, 3000, 'the second confirmation');
      assert.equal(title(), 'Route 22');
      assert.deepEqual(
        confirmsOf(n).map((c) => [c.confirm, c.message, c.code]),
        [
          [1, 'shown', null],
          [1, 'shown', null],
        ],
      );
      await until(async () => (await shownWith(n)).length === 2, 3000, 'both in /history');
      assert.deepEqual(await shownWith(n), ['Route 11', 'Route 22']);
    },
  );
}

test(
  'an inumber HTTP used: MQTT with it is a new command, and so is a payload MQTT sent before HTTP used the number',
  { skip },
  async () => {
    assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=By+HTTP&inumber=10')).status, 200);
    await until(() => fb.got.some((g) => g.url === '/mlds?confirm=1&inumber=10'), 3000, 'HTTP confirmed');
    await w.publish('mlds/u1/cmd', 'id=main&layout=l1&title=By+MQTT&inumber=10');
    await until(() => confirmsOf('10').length === 1, 3000, 'MQTT confirmed');
    assert.equal(title(), 'By MQTT');
    assert.equal(confirmsOf('10')[0].message, 'shown');

    await w.publish('mlds/u1/cmd', 'id=main&layout=l1&title=Again&inumber=11');
    await until(() => confirmsOf('11').length === 1, 3000, 'MQTT 11 confirmed');
    assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=Between&inumber=11')).status, 200);
    await until(() => title() === 'Between', 3000, 'HTTP 11 applied');
    await w.publish('mlds/u1/cmd', 'id=main&layout=l1&title=Again&inumber=11');
    await until(() => confirmsOf('11').length === 2, 3000, 'MQTT 11 confirmed again');
    assert.equal(title(), 'Again', 'applied again, not taken for a redelivery');
    await until(async () => (await shownWith('11')).length === 3, 3000, 'all three in /history');
    assert.deepEqual(await shownWith('11'), ['Again', 'Between', 'Again']);
  },
);

test(
  'the same payload again (a QoS 1 redelivery) is still acted on once, and confirmed as the first',
  { skip },
  async () => {
    const before = svc.controller().state('main').version;
    await w.publish('mlds/u1/cmd', 'id=main&layout=l1&title=Once&inumber=12');
    await w.publish('mlds/u1/cmd', 'id=main&layout=l1&title=Once&inumber=12', { dup: true });
    await until(() => confirmsOf('12').length === 2, 3000, 'two confirmations');
    assert.deepEqual(confirmsOf('12')[0], confirmsOf('12')[1]);
    assert.equal(svc.controller().state('main').version, before + 1);
  },
);

test(
  'A, then B, then A again byte for byte within 60 s: the third is a new command, applied, shown by its own ' +
    'frame and confirmed so',
  { skip },
  async () => {
    const s0 = await status();
    const a = 'id=main&layout=l1&title=Route+A&inumber=5';
    await w.publish('mlds/u1/cmd', a);
    await until(() => confirmsOf('5').length === 1, 3000, 'A confirmed');
    await w.publish('mlds/u1/cmd', 'id=main&layout=l1&title=Route+B&inumber=6');
    await until(() => confirmsOf('6').length === 1, 3000, 'B confirmed');
    assert.equal(title(), 'Route B');
    const frames = (await status()).displays[0].frames.sent;
    await w.publish('mlds/u1/cmd', a);
    await until(() => confirmsOf('5').length === 2, 3000, 'A confirmed again');
    assert.equal(title(), 'Route A', 'the sign shows A again');
    assert.deepEqual(confirmsOf('5')[1], { inumber: '5', confirm: 1, id: 'main', code: null, message: 'shown' });
    const s1 = await status();
    assert.ok(s1.displays[0].frames.sent > frames, 'a frame went out after B');
    assert.equal(
      s1.components.fleet.ignored.duplicates,
      s0.components.fleet.ignored.duplicates,
      'not taken for a redelivery',
    );
    await until(async () => (await shownWith('5')).length === 2, 3000, 'A twice in /history');
    assert.deepEqual(await shownWith('5'), ['Route A', 'Route A']);
  },
);

for (const [name, kept] of [
  ['', ''],
  [' naming an unchanged area beside the new one', 'sign=a&'],
] as const) {
  test(
    `a burst${name}: \`shown\` for at most one command per frame sent, \`superseded\` (confirm 1) for the rest, ` +
      `counted on /status`,
    { skip },
    async (t) => {
      const s0 = await status();
      const N = 300;
      const tag = kept ? 'k' : 'b';
      await Promise.all(
        Array.from({ length: N }, (_, i) =>
          w.publish('mlds/u1/cmd', `id=main&layout=l1&${kept}title=Burst+${i}&inumber=${tag}${i}`),
        ),
      );
      const burst = () =>
        w
          .on('mlds/u1/confirm')
          .map((s) => JSON.parse(s.payload) as Obj)
          .filter((c) => new RegExp(`^${tag}\\d+$`).test(c.inumber));
      await until(() => burst().length === N, 20_000, 'a confirmation of every command');
      const s1 = await status();
      const frames = s1.displays[0].frames.sent - s0.displays[0].frames.sent;
      const by = (m: string) => burst().filter((c) => c.message === m).length;
      t.diagnostic(`${N} commands: ${frames} frames sent, ${by('shown')} shown, ${by('superseded')} superseded`);
      assert.ok(burst().every((c) => c.confirm === 1 && c.code === null));
      assert.equal(by('shown') + by('superseded'), N);
      assert.ok(by('shown') <= frames, `${by('shown')} shown with ${frames} frames`);
      assert.equal(
        burst().find((c) => c.inumber === `${tag}${N - 1}`)?.message,
        'shown',
        'the last one is on the panel',
      );
      assert.equal(s1.commands.superseded - s0.commands.superseded, by('superseded'));
    },
  );
}
