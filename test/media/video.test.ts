// Video areas end to end: an MP4 made here by ffmpeg (two colour bars that change every
// second) plays in its area, screenshots follow it, and no decoder outlives its area.
import assert from 'node:assert/strict';
import { copyFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ConfigError } from '../../src/config/faults.js';
import { loadConfig } from '../../src/config/load.js';
import type { RunningService } from '../../src/main.js';
import { baseConfig, decode, get, serviceDir, start, until, type ServiceDir } from '../helpers/service.js';
import { argsOf, BARS, descendants, makeBars, near, type Rgb } from './helpers.js';
import { redrawn } from '../helpers/wait.js';

// The video area: 160x90, the 64x36 video scaled up 2.5 times, filling it.
const VIDEO_AREA = {
  coordinates: '0 0 159 89',
  type: 'video',
  params: { bars: 'bars.mp4' },
  backgroundColor: '40 40 40',
};
const BACKGROUND: Rgb = [40, 40, 40];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function config(): Record<string, any> {
  const c = baseConfig();
  c.displays.main.layout = {
    v: { vid: VIDEO_AREA, label: { coordinates: '160 0 199 99', type: 'text', fontSize: '20' } },
    t: { other: { coordinates: '0 0 199 99', type: 'text', fontSize: '40' } },
    short: { vid: { ...VIDEO_AREA, ttl: '1' } },
  };
  return c;
}

const decoders = () => descendants('ffmpeg');

describe('a video area', () => {
  let sd: ServiceDir;
  let svc: RunningService;
  before(async () => {
    sd = serviceDir(config());
    makeBars(path.join(sd.dir, 'images/bars.mp4'));
    svc = await start(sd);
  });
  after(async () => {
    await svc?.close();
    sd.cleanup();
  });

  const send = async (q: string) => {
    const r = await get(svc, `/mlds?id=main&${q}`);
    assert.equal(r.status, 200, r.text);
  };
  const halves = async (): Promise<{ left: Rgb; right: Rgb }> => {
    const px = await decode((await get(svc, '/screenshot?id=main&format=png')).bytes);
    return { left: px.at(40, 45), right: px.at(120, 45) };
  };

  test("plays: the area shows the video's bars, and they change as the video runs", async () => {
    assert.deepEqual(decoders(), [], 'a decoder ran before any video was shown');
    await send('layout=v&vid=bars&label=x');
    const seen = new Set<number>();
    await until(
      async () => {
        const h = await halves();
        const s = BARS.findIndex((b) => near(h.left, b.left) && near(h.right, b.right));
        // Before the first frame the area shows its background; after it, only the video's pictures.
        if (s < 0)
          assert.ok(
            seen.size === 0 && near(h.left, BACKGROUND) && near(h.right, BACKGROUND),
            `not a picture of the video: ${JSON.stringify(h)}`,
          );
        else seen.add(s);
        return seen.size >= 2;
      },
      10_000,
      () => `the picture to change (seen seconds ${[...seen]})`,
      150,
    );
    const running = decoders();
    assert.equal(running.length, 1);
    assert.ok(
      argsOf(running[0]).some((a) => a.endsWith('/images/bars.mp4')),
      'the decoder plays another file',
    );
    const area = (
      svc.api.status().displays as Array<{ areas: Array<{ id: string; fault?: string; file?: string }> }>
    )[0].areas.find((a) => a.id === 'vid')!;
    assert.equal(area.fault, undefined);
    assert.equal(area.file, 'images/bars.mp4');
  });

  test('an empty value stops it: the decoder ends and the area shows its background', async () => {
    await send('layout=v&vid=bars&label=x');
    await until(() => decoders().length === 1, 5000, 'a decoder');
    await send('layout=v&vid=&label=x');
    await until(() => decoders().length === 0, 3000, 'the decoder to end');
    await until(
      async () => {
        const h = await halves();
        return near(h.left, BACKGROUND, 4) && near(h.right, BACKGROUND, 4);
      },
      3000,
      'the background',
    );
  });

  test('ttl expiry ends the decoder', async () => {
    await send('layout=short&vid=bars');
    await until(() => decoders().length === 1, 5000, 'a decoder');
    await until(() => decoders().length === 0, 4000, 'the decoder to end after the ttl');
  });

  test('no decoder is left after 50 layout switches, and never more than one runs for long', async () => {
    let most = 0;
    const started = new Set<number>();
    for (let i = 0; i < 50; i++) {
      await send(i % 2 === 0 ? 'layout=v&vid=bars&label=x' : 'layout=t&other=text');
      // The frame loop draws the layout (which starts the decoder) before it is switched away.
      await redrawn(svc, 'main');
      const now = decoders();
      for (const pid of now) started.add(pid);
      most = Math.max(most, now.length);
    }
    await until(() => decoders().length === 0, 3000, 'every decoder to end');
    assert.ok(started.size >= 10, `only ${started.size} decoders were seen in 25 switches to the video`);
    // A decoder being ended and the next one starting may overlap for a moment.
    assert.ok(most <= 2, `${most} decoders ran at once`);
  });

  test('shutdown ends the decoder', async () => {
    await send('layout=v&vid=bars&label=x');
    await until(() => decoders().length === 1, 5000, 'a decoder');
    await svc.close();
    await until(() => decoders().length === 0, 2000, 'the decoder to end with the service');
  });
});

describe('a video that stops decoding after the configuration loaded', () => {
  test("shows the defaultValue's video and the fault on /status and /info", async () => {
    const c = config();
    c.displays.main.layout.v.vid = { ...VIDEO_AREA, params: { bars: 'bars.mp4' }, defaultValue: 'other.mp4' };
    const sd = serviceDir(c);
    makeBars(path.join(sd.dir, 'images/bars.mp4'));
    makeBars(path.join(sd.dir, 'images/other.mp4'));
    const svc = await start(sd);
    try {
      // Replaced on disk by something that is no video at all, after the check at load.
      writeFileSync(path.join(sd.dir, 'images/bars.mp4'), 'broken in the field');
      assert.equal((await get(svc, '/mlds?id=main&layout=v&vid=bars&label=x')).status, 200);
      const fault = () =>
        (svc.api.status().displays as Array<{ areas: Array<{ id: string; fault?: string }> }>)[0].areas.find(
          (a) => a.id === 'vid',
        )?.fault;
      await until(() => fault() !== undefined, 8000, 'the fault');
      assert.match(fault()!, /^bars\.mp4: /);
      await until(
        async () => {
          const px = await decode((await get(svc, '/screenshot?id=main&format=png')).bytes);
          return BARS.some((b) => near(px.at(40, 45), b.left) && near(px.at(120, 45), b.right));
        },
        8000,
        "the defaultValue's video",
      );
      assert.ok(argsOf(decoders()[0]).some((a) => a.endsWith('/images/other.mp4')));
      assert.ok((await get(svc, '/info')).text.includes('bars.mp4: '), '/info does not show the fault');
    } finally {
      await svc.close();
      sd.cleanup();
    }
    await until(() => decoders().length === 0, 3000, 'no decoder left');
  });
});

describe('video files are checked when the configuration loads', () => {
  function faults(
    setup: (images: string) => void,
    params: Record<string, string>,
    type = 'video',
  ): Array<{ path: string; message: string }> {
    const c = config();
    c.displays.main.layout.v.vid = { ...VIDEO_AREA, type, params };
    const sd = serviceDir(c);
    try {
      setup(path.join(sd.dir, 'images'));
      loadConfig(sd.configFile);
      return [];
    } catch (err) {
      if (err instanceof ConfigError) return err.faults;
      throw err;
    } finally {
      sd.cleanup();
    }
  }

  test('a real MP4 loads', () => {
    assert.deepEqual(
      faults((dir) => makeBars(path.join(dir, 'bars.mp4')), { bars: 'bars.mp4' }),
      [],
    );
  });

  test('a text file named .mp4 and a PNG named .mp4 are faults naming the params entry', () => {
    const f = faults(
      (dir) => {
        writeFileSync(path.join(dir, 'notes.mp4'), 'this is not a video\n');
        copyFileSync(path.join(dir, 'logo.png'), path.join(dir, 'logo.mp4'));
      },
      { notes: 'notes.mp4', logo: 'logo.mp4' },
    );
    const at = (k: string) => f.find((x) => x.path === `/displays/main/layout/v/vid/params/${k}`);
    assert.ok(at('notes'), JSON.stringify(f));
    assert.match(at('notes')!.message, /notes\.mp4/);
    assert.ok(at('logo') && /not an MP4/.test(at('logo')!.message), JSON.stringify(f));
  });

  test('a defaultValue that is not a video is a fault too', () => {
    const c = config();
    c.displays.main.layout.v.vid = { ...VIDEO_AREA, params: {}, defaultValue: 'notes.mp4' };
    const sd = serviceDir(c);
    try {
      writeFileSync(path.join(sd.dir, 'images/notes.mp4'), 'plain text');
      assert.throws(
        () => loadConfig(sd.configFile),
        (err: ConfigError) => err.faults.some((f) => f.path === '/displays/main/layout/v/vid/defaultValue'),
      );
    } finally {
      sd.cleanup();
    }
  });
});
