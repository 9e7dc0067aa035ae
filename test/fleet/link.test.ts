// The broker link's bounded queue: while the broker is away at most QUEUE_LIMIT confirmations
// wait (a QoS 0 one dropped first, else the oldest, and counted); when it comes back they go out, in order.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BrokerLink } from '../../src/fleet/broker-link.js';
import { QUEUE_LIMIT } from '../../src/fleet/outbox.js';
import { topicsOf } from '../../src/fleet/topics.js';
import type { Logger } from '../../src/log/logger.js';
import { Broker, hasMosquitto, openGate, Watcher } from '../helpers/broker.js';
import { freePort } from '../helpers/ports.js';
import { until } from '../helpers/service.js';

const skip = !hasMosquitto() && process.env.CI !== 'true' ? 'mosquitto is not installed (make test-deps)' : false;
const warnings: string[] = [];
const log = {
  info: () => {},
  warn: (_o: object, msg: string) => {
    warnings.push(msg);
  },
} as unknown as Logger;

/** A link's settings as the fleet builds them: unit `unit` at `url`, keepalive 5 s, no Home Assistant. */
function linkSettings(url: string, unit: string, over: { keepalive?: number; homeAssistant?: boolean } = {}) {
  return {
    url,
    unit,
    prefix: 'mlds',
    groups: [],
    keepalive: 5,
    homeAssistant: false,
    groupAdmin: false,
    statusIntervalSeconds: 300,
    sessionExpiry: 0,
    fingerprint: '',
    ...over,
  };
}

/** Handlers that ignore every event. */
const quiet = { connected: () => {}, message: () => {}, stateChanged: () => {} };

test(
  'confirmations wait in a bounded queue while the broker is away (a full one drops QoS 0 ones first, then the ' +
    'oldest) and go out in order when it is back; nothing else is queued',
  { skip },
  async () => {
    // The link reaches the broker through a gate opened only once the watcher has subscribed: had
    // the link's own retry come first, it would have sent the queue before anyone listened.
    const port = await freePort();
    const gatePort = await freePort();
    const settings = linkSettings(`mqtt://127.0.0.1:${gatePort}`, 'q1');
    const topics = topicsOf(settings);
    const link = new BrokerLink(settings, topics, log, quiet);
    await link.start();
    const broker = new Broker({ port });
    let w: Watcher | undefined;
    let gate: { close: () => Promise<void> } | undefined;
    try {
      for (let i = 0; i < QUEUE_LIMIT + 50; i++) {
        // Twenty shed commands' MLDS_BUSY (QoS 0) near the end go first when the queue is full, before older applied
        // ones.
        if (i === QUEUE_LIMIT + 40)
          for (let k = 0; k < 20; k++)
            link.publish(topics.confirm, `{"inumber":"busy-${k}"}`, { retain: false, queued: true, qos: 0 });
        link.publish(topics.confirm, `{"inumber":"${i}"}`, { retain: false, queued: true });
      }
      link.publish(topics.status, '{"stale":true}', { retain: true });
      assert.deepEqual(link.status().confirmations, {
        queued: QUEUE_LIMIT,
        dropped: 70,
        unacknowledged: 0,
        givenUp: 0,
        qos0: 0,
      });
      assert.ok(warnings.some((m) => /confirmation dropped/.test(m)));
      await broker.start();
      w = await Watcher.open(broker.url, ['mlds/q1/#']);
      gate = await openGate(gatePort, port);
      await until(() => w!.on(topics.confirm).length === QUEUE_LIMIT, 15000, 'the queue sent');
      assert.deepEqual(
        w.on(topics.confirm).map((s) => JSON.parse(s.payload).inumber),
        Array.from({ length: QUEUE_LIMIT }, (_, i) => String(i + 50)),
      );
      assert.equal(w.on(topics.status).length, 0, 'a status from while offline is not kept');
      assert.equal(link.status().confirmations.queued, 0);
    } finally {
      await link.stop();
      await gate?.close();
      await w?.close();
      await broker.cleanup();
    }
  },
);

test(
  'what the unit publishes on connect goes out while an admin result from before waits in the queue: nothing ' +
    'published on connect is dropped',
  { skip },
  async () => {
    const port = await freePort();
    const gatePort = await freePort();
    const settings = linkSettings(`mqtt://127.0.0.1:${gatePort}`, 'c1', { homeAssistant: true });
    const topics = topicsOf(settings);
    const discovery = 'homeassistant/light/c1/config';
    // As the fleet does on every connection: discovery, a light's state and the status, none of them queued.
    const link: BrokerLink = new BrokerLink(settings, topics, log, {
      connected: () => {
        link.publish(discovery, '{"name":"Platform 1"}', { retain: true });
        link.publish('mlds/c1/light/main/state', '{"state":"ON"}', { retain: true });
        link.publish(topics.status, '{"generation":2}', { retain: true });
      },
      message: () => {},
      stateChanged: () => {},
    });
    await link.start();
    const broker = new Broker({ port });
    let w: Watcher | undefined;
    let gate: { close: () => Promise<void> } | undefined;
    try {
      link.publish(topics.adminResult, '{"req":"r1","cmd":"load_config","ok":true}', { retain: false, queued: true });
      await broker.start();
      w = await Watcher.open(broker.url, ['mlds/c1/#', 'homeassistant/#']);
      gate = await openGate(gatePort, port);
      const all = () =>
        [topics.adminResult, discovery, 'mlds/c1/light/main/state', topics.status].map((t) => w!.on(t).length);
      await until(
        () => all().every((n) => n === 1),
        15_000,
        () => `each once (result, discovery, light, status): ${all()}`,
      );
      assert.equal(w.on(topics.status)[0].retain, true);
      assert.equal(link.status().messagesOut, 5, 'availability, the result and the three the connection published');
    } finally {
      await link.stop();
      await gate?.close();
      await w?.close();
      await broker.cleanup();
    }
  },
);

test(
  'the state is the connection\'s own: past 1.5 keepalives without a word from the broker it is not "connected", ' +
    "though MQTT.js's own check has not run yet; it connects again",
  { skip },
  async () => {
    const broker = await new Broker().start();
    const settings = linkSettings(broker.url, 'k1', { keepalive: 1 });
    const link = new BrokerLink(settings, topicsOf(settings), log, quiet);
    try {
      await link.start();
      await until(() => link.status().state === 'connected', 5000, 'connected');
      // The broker stops answering, and the event loop is held past 1.5 keepalives: MQTT.js's
      // timers cannot run, as under heavy work, so only the link's own reading can tell.
      broker.freeze();
      const until2s = Date.now() + 2000;
      while (Date.now() < until2s) {
        /* the passing of time is what is tested: a held event loop */
      }
      const s = link.status();
      assert.equal(s.state, 'disconnected');
      assert.match(s.lastError ?? '', /Keepalive timeout/);
      // Ended as MQTT.js's own check ends it: the broker's late answer does not bring it back.
      broker.thaw();
      await until(
        () => link.status().reconnects >= 1 && link.status().state === 'connected',
        15_000,
        'connected again',
      );
    } finally {
      await link.stop();
      await broker.cleanup();
    }
  },
);
