// A readout on demand through the running service into the file sink: GET /readout, a
// transmitter receiver's byte pattern on a serial line (a socat pty) and the MQTT payload
// {"id","readout":true} through a real Mosquitto each read what the sign shows now; a second
// press while it speaks starts it again; one readout per display waits at a time.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Broker, hasMosquitto, Watcher } from '../helpers/broker.js';
import { get, serviceDir, start, until, type ServiceDir } from '../helpers/service.js';
import { ptyPair, ptyUnavailable, type PtyPair } from '../brightness/pty.js';
import type { RunningService } from '../../src/main.js';
import { espeakAlone, readWav, rms, speechConfig, wavFolder, speechIdle, speechOf } from './audio.js';

const skip =
  ptyUnavailable() ??
  (!hasMosquitto() && process.env.CI !== 'true' ? 'mosquitto is not installed (make test-deps)' : false);
const MODEL = '/usr/share/pocketsphinx/model/en-us';
/** What a station's recogniser would listen for (as in recognise.test.ts): eight places by ten numbers. */
const GRAMMAR = `#JSGF V1.0;
grammar station;
public <announcement> = <place> <number>;
<place> = platform | track | gate | stop | bay | line | exit | door;
<number> = one | two | three | four | five | six | seven | eight | nine | ten;
`;
type Item = { text: string; source: string; display: string; priority: boolean };
type Speech = {
  counts: Record<string, number>;
  last: (Item & { latencyMs: number; seconds: number }) | null;
  speaking: Item | null;
  queue: Item[];
};

let sink: ReturnType<typeof wavFolder>;
let out: string, sd: ServiceDir, svc: RunningService, broker: Broker, w: Watcher, pty: PtyPair;
const speech = () => speechOf<Speech>(svc);
const files = () => readdirSync(out).filter((f) => f.startsWith('hall.announce.')).length;
const file = (n: number) => path.join(out, `hall.announce.${n}.wav`);
const confirmsOf = (inumber: string) =>
  w
    .on('mlds/u1/confirm')
    .map((s) => JSON.parse(s.payload) as Record<string, unknown>)
    .filter((c) => c.inumber === inumber);
const idle = () => speechIdle<Speech>(svc);

before(async () => {
  if (skip) return;
  sink = wavFolder('mlds-readout-out-');
  out = sink.dir;
  broker = await new Broker().start();
  pty = await ptyPair();
  const cfg = speechConfig();
  cfg.mqtt = { url: broker.url, unit: 'u1', keepalive: 5 };
  // No area speaks by itself here: every file is a readout.
  cfg.displays.hall.layout.board.line.speak = false;
  cfg.displays.hall.readout = { inputs: [{ type: 'serial', port: pty.device, baudRate: '9600', pattern: '02 52 03' }] };
  cfg.displays.side = { ...cfg.displays.hall, displayPort: '9300', readout: undefined };
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
  await pty?.close();
  sd?.cleanup();
  sink?.remove();
});

test(
  '/readout refuses a display without readout, an unknown one and a sign with nothing to read, naming the field; ' +
    'HEAD says nothing',
  { skip },
  async () => {
    const cases: Array<[string, number, string, string]> = [
      ['/readout?id=side', 409, 'MLDS_NO_READOUT', 'id'],
      ['/readout?id=nope', 400, 'MLDS_UNKNOWN_ID', 'id'],
      ['/readout', 400, 'MLDS_MISSING_ID', 'id'],
      ['/readout?id=hall', 409, 'MLDS_NOTHING_TO_READ', 'id'],
    ];
    for (const [q, status, code, field] of cases) {
      const r = await get(svc, q);
      assert.equal(r.status, status, `${q}: ${r.text}`);
      assert.equal(r.json.error ?? r.json.code, code, `${q}: ${r.text}`);
      assert.equal(r.json.field, field, `${q}: ${r.text}`);
    }
    assert.equal((await get(svc, '/mlds?id=hall&layout=board&line=Platform%20two')).status, 200);
    const head = await fetch(`${svc.url}/readout?id=hall`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal((await speech()).counts.readouts, 0);
    assert.equal(files(), 0);
  },
);

test(
  'GET /readout reads the sign as shown: MULTI tags dropped, pages as pauses, as long as espeak-ng makes those words',
  { skip },
  async () => {
    const value = '[cf255,0,0]Platform two[np]now boarding';
    assert.equal(
      (
        await get(
          svc,
          `/mlds?id=hall&layout=board&line=${encodeURIComponent(value)}&quiet=${encodeURIComponent('Mind the gap')}`,
        )
      ).status,
      200,
    );
    const sent = performance.now();
    const r = await get(svc, '/readout?id=hall');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json, { result: 'queued', id: 'hall', position: 1, restarted: false });
    await until(() => existsSync(file(1)), 30_000, file(1));
    const took = performance.now() - sent;
    const s = await idle();
    const words = 'Platform two. now boarding. Mind the gap.';
    assert.deepEqual(
      [s.last?.text, s.last?.source, s.last?.display, s.last?.priority],
      [words, 'readout', 'hall', true],
    );
    const { info, samples } = readWav(file(1));
    const alone = espeakAlone(words);
    assert.ok(Math.abs(info.seconds - alone) <= alone * 0.1, `${info.seconds} s written, espeak-ng alone ${alone} s`);
    assert.ok(rms(samples) > 0.02);
    console.log(
      `readout: /readout to the complete file ${took.toFixed(0)} ms, trigger to first sample (status) ` +
        `${s.last?.latencyMs} ms, ${info.seconds.toFixed(2)} s of sound`,
    );
  },
);

test(
  'the byte pattern on the serial line asks for a readout, split across writes and among other bytes',
  { skip },
  async () => {
    const n = files();
    const sent = performance.now();
    pty.write('\x01\x02');
    pty.write('R\x03zz');
    await until(() => existsSync(file(n + 1)), 30_000, file(n + 1));
    const took = performance.now() - sent;
    const s = await idle();
    assert.equal(s.last?.source, 'readout');
    assert.equal(s.last?.text, 'Platform two. now boarding. Mind the gap.');
    // Bytes that are not the pattern ask for nothing.
    pty.write('\x02Q\x03\x02R');
    assert.equal((await get(svc, '/mlds?id=hall&layout=board&line=Platform%20three&quiet=')).status, 200);
    pty.write('\x03');
    await until(() => existsSync(file(n + 2)), 30_000, file(n + 2));
    const s2 = await idle();
    assert.equal(s2.last?.text, 'Platform three.');
    assert.equal(files(), n + 2);
    console.log(
      `readout: serial pattern to the complete file ${took.toFixed(0)} ms, trigger to first sample (status) ` +
        `${s.last?.latencyMs} ms`,
    );
  },
);

test(
  'a second press while the readout speaks starts it again from the start; presses while one waits add none',
  { skip },
  async () => {
    const long = [
      'Line seven',
      'to the Airport',
      'platform two',
      'departs in',
      'four minutes',
      'Please stand',
      'clear of',
      'the doors',
    ].join('[np]');
    const shown = await get(svc, `/mlds?id=hall&layout=board&line=${encodeURIComponent(long)}&quiet=`);
    assert.equal(shown.status, 200, shown.text);
    const before = (await speech()).counts;
    // An announcement speaking: the readout waits for it, and asked again while waiting it keeps its place.
    assert.equal(
      (await get(svc, `/announce?id=hall&text=${encodeURIComponent('An announcement speaking now')}`)).status,
      200,
    );
    const first = await get(svc, '/readout?id=hall');
    const again = await get(svc, '/readout?id=hall');
    assert.deepEqual([first.status, first.json.position, first.json.restarted], [200, 1, false], first.text);
    assert.deepEqual([again.status, again.json.position, again.json.restarted], [200, 1, false], again.text);
    assert.equal((await speech()).queue.filter((x) => x.source === 'readout').length, 1);
    await until(async () => (await speech()).speaking?.source === 'readout', 30_000, 'the readout speaking');
    const pressed = Date.now();
    const r = await get(svc, '/readout?id=hall');
    assert.deepEqual([r.status, r.json.restarted], [200, true], r.text);
    const s = await idle();
    assert.deepEqual([s.counts.readouts - before.readouts, s.counts.repeated - before.repeated], [2, 1]);
    assert.equal(s.last?.source, 'readout');
    // Said again at once: its file is complete long before the first readout's sound would have ended.
    const seconds = espeakAlone(`${long.replaceAll('[np]', '. ')}.`);
    const lastFile = file(files());
    assert.equal(readWav(lastFile).info.seconds > seconds * 0.9, true);
    const waited = statSync(lastFile).mtimeMs - pressed;
    assert.ok(
      waited < seconds * 1000 * 0.5,
      `the restarted readout was complete ${waited} ms after the press; the readout lasts ${seconds} s`,
    );
  },
);

test(
  'the MQTT payload {"id","readout":true} reads the sign and is confirmed 1; a faulty one is confirmed 2',
  { skip },
  async () => {
    const n = files();
    await w.publish('mlds/u1/cmd', JSON.stringify({ id: 'hall', readout: true, inumber: 'r1', ts: Date.now() }));
    await until(() => confirmsOf('r1').length === 1, 10_000, 'confirm r1');
    assert.deepEqual(confirmsOf('r1')[0], {
      inumber: 'r1',
      id: 'hall',
      confirm: 1,
      code: null,
      message: 'readout queued at position 1',
    });
    await until(() => existsSync(file(n + 1)), 30_000, file(n + 1));
    assert.equal((await idle()).last?.source, 'readout');
    await w.publish('mlds/u1/cmd', JSON.stringify({ id: 'hall', readout: 1, inumber: 'r2' }));
    await w.publish('mlds/u1/cmd', JSON.stringify({ id: 'side', readout: true, inumber: 'r3' }));
    await w.publish('mlds/u1/cmd', JSON.stringify({ id: 'hall', readout: true, layout: 'board', inumber: 'r4' }));
    await until(() => ['r2', 'r3', 'r4'].every((i) => confirmsOf(i).length === 1), 10_000, 'confirm r2..r4');
    assert.deepEqual(
      ['r2', 'r3', 'r4'].map((i) => [confirmsOf(i)[0].confirm, confirmsOf(i)[0].code]),
      [
        [2, 'MLDS_MQTT_PAYLOAD'],
        [2, 'MLDS_NO_READOUT'],
        [2, 'MLDS_MQTT_PAYLOAD'],
      ],
    );
    assert.equal(files(), n + 1);
  },
);

const noAsr = !existsSync(`${MODEL}/en-us`) && 'pocketsphinx-en-us is not installed (make test-deps)';

test('pocketsphinx hears the words the sign shows in its readout', { skip: skip || noAsr }, async () => {
  // The voice recognise.test.ts found pocketsphinx follows: en-us+f2, slower and softer.
  const cfg = speechConfig({ voice: 'en-us+f2', rate: '150', volume: '50' });
  cfg.displays = { asr: { ...cfg.displays.hall, readout: { inputs: [] } } };
  cfg.displays.asr.layout.board.line.speak = false;
  const sd2 = serviceDir(cfg);
  const svc2 = await start(sd2);
  try {
    assert.equal((await get(svc2, '/mlds?id=asr&layout=board&line=Platform%20two&quiet=')).status, 200);
    assert.equal((await get(svc2, '/readout?id=asr')).status, 200);
    const wav = path.join(out, 'asr.announce.1.wav');
    await until(() => existsSync(wav), 30_000, wav);
    const grammar = path.join(out, 'station.gram');
    writeFileSync(grammar, GRAMMAR);
    const heard = execFileSync(
      'pocketsphinx_continuous',
      [
        '-infile',
        wav,
        '-hmm',
        `${MODEL}/en-us`,
        '-jsgf',
        grammar,
        '-dict',
        `${MODEL}/cmudict-en-us.dict`,
        '-logfn',
        '/dev/null',
      ],
      { encoding: 'utf8', timeout: 120_000 },
    ).trim();
    console.log(`readout: pocketsphinx heard "${heard}"`);
    assert.equal(heard, 'platform two');
  } finally {
    await svc2.close();
    sd2.cleanup();
  }
});
