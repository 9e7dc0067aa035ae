// Volume by the hour, on the service's clock (a fake one): `speech.volumeSchedule` in the
// configured zone sets the volume in force, /status shows it, a display's `volume` is its share
// of it, and the WAVs written are as loud as that says.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { get, serviceDir, start, until, type ServiceDir } from '../helpers/service.js';
import { FakeClock } from '../helpers/clock.js';
import type { RunningService } from '../../src/main.js';
import { parseConfig } from '../../src/config/load.js';
import { volumeInForce } from '../../src/speech/volume.js';
import { readWav, rms, speechConfig, wavFolder, speechOf } from './audio.js';

type Speech = {
  volume: number;
  volumeInForce: number;
  displayVolumes: Record<string, number>;
  volumeSchedule: unknown;
  quietHours: string | null;
  counts: Record<string, number>;
  speaking: unknown;
  queue: unknown[];
};
let sink: ReturnType<typeof wavFolder>;
let out: string, sd: ServiceDir, svc: RunningService;
// 12:00 UTC is 13:00 in Prague (winter time).
const clock = new FakeClock(Date.UTC(2026, 11, 7, 12, 0, 0));
const speech = () => speechOf<Speech>(svc);
const SCHEDULE = [
  { at: '22:00', volume: '20' },
  { at: '06:00', volume: 80 },
];

before(async () => {
  sink = wavFolder('mlds-volume-out-');
  out = sink.dir;
  const cfg = speechConfig({ volumeSchedule: SCHEDULE, quietHours: '23:00-05:00' });
  cfg.timezone = 'Europe/Prague';
  cfg.displays.hall.layout.board.line.speak = false;
  cfg.displays.side = { ...cfg.displays.hall, displayPort: '9300', volume: '50' };
  sd = serviceDir(cfg);
  svc = await start(sd, { clock });
});

after(async () => {
  await svc?.close();
  sd?.cleanup();
  sink?.remove();
});

async function said(id: string, n: number, text: string): Promise<number> {
  const r = await get(svc, `/announce?id=${id}&text=${encodeURIComponent(text)}&priority=1`);
  assert.equal(r.status, 200, r.text);
  const file = path.join(out, `${id}.announce.${n}.wav`);
  await until(() => existsSync(file), 30_000, file);
  await until(
    async () => {
      const s = await speech();
      return !s.speaking && s.queue.length === 0;
    },
    60_000,
    'idle',
  );
  return rms(readWav(file).samples);
}

test(
  "the volume schedule in the configured zone sets the volume in force, shown on /status, and each display's " +
    'share of it',
  async () => {
    let s = await speech();
    assert.deepEqual(
      [s.volume, s.volumeInForce, s.displayVolumes, s.quietHours],
      [80, 80, { side: 40 }, '23:00-05:00'],
    );
    assert.deepEqual(s.volumeSchedule, [
      { at: '06:00', volume: 80 },
      { at: '22:00', volume: 20 },
    ]);
    const day = await said('hall', 1, 'Platform two');
    // 21:30 UTC is 22:30 in Prague: the night's volume, though it is not yet 22:00 in UTC.
    clock.advance(9.5 * 3_600_000);
    s = await speech();
    assert.deepEqual([s.volumeInForce, s.displayVolumes], [20, { side: 10 }]);
    const night = await said('hall', 2, 'Platform two');
    const side = await said('side', 1, 'Platform two');
    // espeak-ng's amplitude is linear: a quarter of the volume, about a quarter of the loudness.
    assert.ok(night / day > 0.15 && night / day < 0.4, `day RMS ${day}, night ${night}`);
    assert.ok(side / night > 0.3 && side / night < 0.7, `night RMS ${night}, the side display's half of it ${side}`);
    // 04:00 UTC is 05:00 in Prague: before 06:00, still the night's volume from the day before.
    clock.advance(6.5 * 3_600_000);
    assert.equal((await speech()).volumeInForce, 20);
    clock.advance(3_600_000);
    assert.equal((await speech()).volumeInForce, 80);
    console.log(
      `volume: day RMS ${day.toFixed(3)}, night ${night.toFixed(3)}, side display at night ${side.toFixed(3)}`,
    );
  },
);

test("a time given twice in the schedule is a fault naming it; a display's volume without speech is one too", () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-volume-cfg-'));
  try {
    const twice = speechConfig({
      volumeSchedule: [
        { at: '06:00', volume: 50 },
        { at: '06:00', volume: 60 },
      ],
    });
    assert.throws(() => parseConfig(JSON.stringify(twice), dir), /volumeSchedule\/1\/at/);
    const bad = speechConfig({
      volumeSchedule: [
        { at: '24:00', volume: 50 },
        { at: '06:00', volume: 101 },
      ],
    });
    assert.throws(
      () => parseConfig(JSON.stringify(bad), dir),
      (e: Error) => /volumeSchedule\/0\/at/.test(e.message) && /volumeSchedule\/1\/volume/.test(e.message),
    );
    const noSpeech = speechConfig();
    delete noSpeech.speech;
    noSpeech.displays.hall.volume = 40;
    assert.throws(() => parseConfig(JSON.stringify(noSpeech), dir), /displays\/hall\/volume/);
    const one = parseConfig(JSON.stringify(speechConfig({ volumeSchedule: [{ at: '07:30', volume: '60' }] })), dir);
    assert.equal(volumeInForce(one.speech!, Date.UTC(2026, 0, 1, 3), 'UTC'), 60);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
