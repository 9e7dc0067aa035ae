// Audio areas: ffmpeg plays the file the request names, looping, into a file sink
// (MLDS_AUDIO_SINK=file:<folder>, raw 8 kHz mono PCM), and stops on an empty value or a
// layout switch. The tone in the sink tells which file is playing.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ConfigError } from '../../src/config/faults.js';
import { loadConfig } from '../../src/config/load.js';
import type { RunningService } from '../../src/main.js';
import { baseConfig, get, serviceDir, start, until, type ServiceDir } from '../helpers/service.js';
import { argsOf, descendants, makeTone } from './helpers.js';
import { skipReason } from '../helpers/skip.js';

const sinkDir = mkdtempSync(path.join(tmpdir(), 'mlds-audio-sink-'));
const SINK = path.join(sinkDir, 'main.aud.pcm');
process.env.MLDS_AUDIO_SINK = `file:${sinkDir}`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function config(): Record<string, any> {
  const c = baseConfig();
  c.displays.main.layout = {
    a: {
      aud: { coordinates: '0 0 9 9', type: 'audio', params: { low: 'low.wav', high: 'high.mp3' } },
      title: { coordinates: '10 0 199 99', type: 'text', fontSize: '20' },
    },
    t: { other: { coordinates: '0 0 199 99', type: 'text', fontSize: '40' } },
  };
  return c;
}

/** The tone's frequency in the last `seconds` of the sink, from its zero crossings. */
function toneHz(seconds = 0.5): number {
  const bytes = readFileSync(SINK);
  const n = Math.min(Math.floor(bytes.length / 2), seconds * 8000);
  const start = Math.floor(bytes.length / 2) - n;
  let crossings = 0;
  let prev = bytes.readInt16LE(start * 2);
  for (let i = start + 1; i < start + n; i++) {
    const v = bytes.readInt16LE(i * 2);
    if (prev < 0 !== v < 0) crossings++;
    prev = v;
  }
  return crossings / 2 / (n / 8000);
}

const sinkBytes = () => (existsSync(SINK) ? statSync(SINK).size : 0);
const players = () => descendants('ffmpeg');
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('an audio area', () => {
  let sd: ServiceDir;
  let svc: RunningService;
  before(async () => {
    sd = serviceDir(config());
    makeTone(path.join(sd.dir, 'images/low.wav'), 440);
    makeTone(path.join(sd.dir, 'images/high.mp3'), 1000);
    svc = await start(sd);
  });
  after(async () => {
    await svc?.close();
    sd.cleanup();
    rmSync(sinkDir, { recursive: true, force: true });
  });

  const send = async (q: string) => {
    const r = await get(svc, `/mlds?id=main&${q}`);
    assert.equal(r.status, 200, r.text);
  };

  test('plays the file its key names, looping, to the sink', async () => {
    assert.deepEqual(players(), []);
    await send('layout=a&aud=low&title=Music');
    await until(() => sinkBytes() > 16000 * 2.5, 8000, 'the low tone to play past its 2 s length');
    const [pid] = players();
    assert.ok(
      argsOf(pid).some((a) => a.endsWith('/images/low.wav')),
      argsOf(pid).join(' '),
    );
    assert.ok(Math.abs(toneHz() - 440) < 30, `the sink holds ${toneHz()} Hz, the low tone is 440 Hz`);
    const media = (
      svc.api.status().components as Record<string, { audio: Array<{ area: string; file: string; running: boolean }> }>
    ).media;
    assert.deepEqual(
      media.audio.map((a) => [a.area, a.file, a.running]),
      [['aud', 'low.wav', true]],
    );
  });

  test('a new key plays the other file', async () => {
    const old = players();
    const before = sinkBytes();
    await send('layout=a&aud=high&title=Music');
    await until(() => players().length === 1 && players()[0] !== old[0], 3000, 'a new player');
    assert.ok(argsOf(players()[0]).some((a) => a.endsWith('/images/high.mp3')));
    // The new player starts after the old one has ended, and rewrites the sink from its start.
    await until(() => sinkBytes() < before, 3000, 'the sink to start again');
    await until(() => sinkBytes() > 8000, 5000, 'the high tone in the sink');
    assert.ok(Math.abs(toneHz(0.4) - 1000) < 60, `the sink holds ${toneHz(0.4)} Hz, the high tone is 1000 Hz`);
  });

  test('an empty value stops it', async () => {
    await send('layout=a&aud=&title=Music');
    await until(() => players().length === 0, 3000, 'the player to end');
    const size = sinkBytes();
    // the passing of time is what is tested: the sink does not grow for 400 ms.
    await wait(400);
    assert.equal(sinkBytes(), size, 'the sink still grows');
  });

  test('a reload that takes the area away stops it; one that leaves the display alone does not', async () => {
    await send('layout=a&aud=low&title=Music');
    await until(() => players().length === 1, 3000, 'a player');
    const playing = players()[0];
    const c = config();
    c.displays.second = {
      ...c.displays.main,
      displayPort: '9002',
      layout: { x: { t: { coordinates: '0 0 99 99', type: 'text' } } },
    };
    writeFileSync(sd.configFile, JSON.stringify(c));
    assert.equal((await get(svc, '/reload_config')).status, 200);
    assert.deepEqual(players(), [playing], 'a reload that did not change the display restarted its sound');
    delete c.displays.main.layout.a.aud;
    writeFileSync(sd.configFile, JSON.stringify(c));
    assert.equal((await get(svc, '/reload_config')).status, 200);
    await until(() => players().length === 0, 3000, 'the player to end');
    writeFileSync(sd.configFile, JSON.stringify(config()));
    assert.equal((await get(svc, '/reload_config')).status, 200);
  });

  test('a layout switch and the service stopping stop it', async () => {
    await send('layout=a&aud=low&title=Music');
    await until(() => players().length === 1, 3000, 'a player');
    await send('layout=t&other=Quiet');
    await until(() => players().length === 0, 3000, 'the player to end on the layout switch');
    await send('layout=a&aud=low&title=Music');
    await until(() => players().length === 1, 3000, 'a player');
    await svc.close();
    await until(() => players().length === 0, 3000, 'the player to end with the service');
  });
});

/** A service playing to ALSA (no sink override) with `config`, for `fn`; everything ended after. */
async function withAlsa(
  c: ReturnType<typeof config>,
  fn: (svc: RunningService, fault: () => string | undefined) => Promise<void>,
): Promise<void> {
  const sd = serviceDir(c);
  makeTone(path.join(sd.dir, 'images/low.wav'), 440, 1);
  makeTone(path.join(sd.dir, 'images/high.mp3'), 1000, 1);
  const saved = process.env.MLDS_AUDIO_SINK;
  delete process.env.MLDS_AUDIO_SINK;
  const svc = await start(sd);
  const fault = () =>
    (svc.api.status().displays as Array<{ areas: Array<{ id: string; fault?: string }> }>)[0].areas.find(
      (a) => a.id === 'aud',
    )?.fault;
  try {
    assert.equal((await get(svc, '/mlds?id=main&layout=a&aud=low')).status, 200);
    await fn(svc, fault);
  } finally {
    process.env.MLDS_AUDIO_SINK = saved;
    await svc.close();
    sd.cleanup();
  }
  await until(() => players().length === 0, 3000, 'no player left');
}

describe('an audio device that cannot play', () => {
  test('shows the fault on /status and /info, and the player is tried again later', async () => {
    const c = config();
    c.audioDevice = 'mlds-no-such-device';
    await withAlsa(c, async (svc, fault) => {
      await until(() => fault() !== undefined, 5000, 'the fault');
      assert.match(fault()!, /trying again/);
      const info = (await get(svc, '/info')).text;
      assert.ok(info.includes('trying again'), '/info does not show the fault');
      // The media card lists the player with its fault, besides the area's row on the display's card.
      assert.match(info, /data-component="media"[\s\S]*audio main\/aud[\s\S]*trying again/);
    });
  });
});

test('audio files are probed at load: a text file named .mp3 is a fault', () => {
  const c = config();
  const sd = serviceDir(c);
  try {
    makeTone(path.join(sd.dir, 'images/low.wav'), 440, 1);
    writeFileSync(path.join(sd.dir, 'images/high.mp3'), 'not a sound');
    assert.throws(
      () => loadConfig(sd.configFile),
      (err: ConfigError) => err.faults.length === 1 && err.faults[0].path === '/displays/main/layout/a/aud/params/high',
    );
  } finally {
    sd.cleanup();
  }
});

test(
  'on a unit with a sound card, the ALSA device plays without a fault',
  { skip: skipReason(existsSync('/dev/snd') ? undefined : 'no sound card here (/dev/snd is missing)', 'hardware') },
  async () => {
    await withAlsa(config(), async (_svc, fault) => {
      await until(() => players().length === 1, 3000, 'a player');
      // the passing of time is what is tested: 2 s of playing without a fault.
      await wait(2000);
      assert.equal(fault(), undefined);
      assert.equal(players().length, 1);
    });
  },
);
