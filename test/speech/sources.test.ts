// Where announcements come from besides /announce: an MQTT `announce` payload through a real
// Mosquitto (confirmed like a command), and every new value of an area with `"speak": true`,
// read as shown (MULTI tags not read out).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Broker, hasMosquitto, Watcher } from '../helpers/broker.js';
import { get, serviceDir, start, until, type ServiceDir } from '../helpers/service.js';
import type { RunningService } from '../../src/main.js';
import { espeakAlone, readWav, rms, speechConfig, wavFolder, speechOf } from './audio.js';

const skip = !hasMosquitto() && process.env.CI !== 'true' ? 'mosquitto is not installed (make test-deps)' : false;
type Speech = {
  counts: Record<string, number>;
  last: { text: string; source: string; display: string; priority: boolean } | null;
  speaking: unknown;
  queue: unknown[];
};

let sink: ReturnType<typeof wavFolder>;
let out: string, sd: ServiceDir, svc: RunningService, broker: Broker, w: Watcher;
const speech = () => speechOf<Speech>(svc);
const confirmsOf = (inumber: string) =>
  w
    .on('mlds/u1/confirm')
    .map((s) => JSON.parse(s.payload) as Record<string, unknown>)
    .filter((c) => c.inumber === inumber);
const files = () => readdirSync(out).filter((f) => f.startsWith('hall.announce.')).length;
/** Waits until `n` announcements are written and nothing is speaking or waiting. */
async function spoken(n: number): Promise<Speech> {
  await until(
    async () => {
      const s = await speech();
      return s.counts.spoken === n && !s.speaking && s.queue.length === 0;
    },
    60_000,
    `${n} announcements spoken`,
  );
  return speech();
}

before(async () => {
  if (skip) return;
  sink = wavFolder('mlds-speech-out-');
  out = sink.dir;
  broker = await new Broker().start();
  const cfg = speechConfig();
  cfg.mqtt = { url: broker.url, unit: 'u1', keepalive: 5 };
  sd = serviceDir(cfg);
  w = await Watcher.open(broker.url, ['mlds/#']);
  svc = await start(sd);
  await until(() => w.on('mlds/u1/availability').length > 0, 10_000, 'online');
});

after(async () => {
  if (skip) return;
  await svc?.close();
  await w?.close();
  await broker?.cleanup();
  sd?.cleanup();
  sink?.remove();
});

test(
  'an area with speak:true says each new value after a /mlds command, its MULTI tags not read out',
  { skip },
  async () => {
    const value = '[cf255,0,0]Platform two[cf][nl]now boarding';
    const r = await get(
      svc,
      `/mlds?id=hall&layout=board&line=${encodeURIComponent(value)}&quiet=${encodeURIComponent('not spoken')}`,
    );
    assert.equal(r.status, 200, r.text);
    const s = await spoken(1);
    assert.deepEqual(
      { ...s.last, at: undefined, seconds: undefined, latencyMs: undefined, sink: undefined },
      {
        source: 'area',
        display: 'hall',
        priority: false,
        text: 'Platform two, now boarding',
        at: undefined,
        seconds: undefined,
        latencyMs: undefined,
        sink: undefined,
      },
    );
    const { info, samples } = readWav(path.join(out, 'hall.announce.1.wav'));
    // Read out, "[cf255,0,0]" alone would add seconds: the words take what espeak-ng gives the plain text.
    const alone = espeakAlone('Platform two, now boarding');
    assert.ok(Math.abs(info.seconds - alone) <= alone * 0.1, `${info.seconds} s written, espeak-ng alone ${alone} s`);
    assert.ok(rms(samples) > 0.02);
    // The same value again is not new; the area without speak is never said.
    assert.equal(
      (await get(svc, `/mlds?id=hall&layout=board&line=${encodeURIComponent(value)}&quiet=other`)).status,
      200,
    );
    assert.equal(
      (await get(svc, `/mlds?id=hall&layout=board&line=${encodeURIComponent('Platform three')}`)).status,
      200,
    );
    const s2 = await spoken(2);
    assert.equal(s2.last?.text, 'Platform three');
    assert.equal(files(), 2);
  },
);

test(
  'an MQTT announce payload is spoken and confirmed 1; a faulty one is confirmed 2 and says nothing',
  { skip },
  async () => {
    const before = (await speech()).counts.spoken;
    await w.publish(
      'mlds/u1/cmd',
      JSON.stringify({ id: 'hall', announce: 'Mind the gap', priority: 1, inumber: 'a1', ts: Date.now() }),
    );
    await until(() => confirmsOf('a1').length === 1, 10_000, 'confirm a1');
    assert.deepEqual(confirmsOf('a1')[0], {
      inumber: 'a1',
      id: 'hall',
      confirm: 1,
      code: null,
      message: 'queued for speech at position 1',
    });
    const s = await spoken(before + 1);
    assert.deepEqual([s.last?.text, s.last?.source, s.last?.priority], ['Mind the gap', 'mqtt', true]);
    assert.ok(existsSync(path.join(out, `hall.announce.${before + 1}.wav`)));
    await w.publish('mlds/u1/cmd', JSON.stringify({ id: 'hall', announce: '   ', inumber: 'a2' }));
    await w.publish('mlds/u1/cmd', JSON.stringify({ id: 'hall', announce: 'x', layout: 'board', inumber: 'a3' }));
    await w.publish('mlds/u1/cmd', JSON.stringify({ id: 'hall', announce: 'x'.repeat(501), inumber: 'a4' }));
    await until(() => ['a2', 'a3', 'a4'].every((i) => confirmsOf(i).length === 1), 10_000, 'confirm a2..a4');
    assert.deepEqual(
      ['a2', 'a3', 'a4'].map((i) => [confirmsOf(i)[0].confirm, confirmsOf(i)[0].code]),
      [
        [2, 'MLDS_BAD_ANNOUNCEMENT'],
        [2, 'MLDS_MQTT_PAYLOAD'],
        [2, 'MLDS_BAD_ANNOUNCEMENT'],
      ],
    );
    assert.equal((await speech()).counts.spoken, before + 1);
    assert.equal(files(), before + 1);
  },
);
