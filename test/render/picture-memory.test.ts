// Pictures at the size limit within the memory a unit has: the default limit follows its memory
// (at most 16 megapixels), a picture beyond it is refused at load with its JSON path, and every
// decoded picture, being decoded included, counts against one budget of two pictures at the
// limit: a unit switching between pictures at the limit keeps its peak RSS bounded.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { after, test } from 'node:test';
import { holdPicture, letGoOfPicture, pictureMemory, preloadImage, setPictureLimit } from '../../src/render/images.js';
import { defaultPictureMegapixels } from '../../src/media/picture-limits.js';
import { LISTEN_MS, underEmulation } from '../helpers/emulation.js';
import { REPO, baseConfig, decode, near, serviceDir, until } from '../helpers/service.js';
import { fileFaults } from '../helpers/config-faults.js';
import { flatPng } from '../helpers/png.js';
import { skipReason } from '../helpers/skip.js';

const MB = 1024 * 1024;

/** A GIF's header and logical screen, which is all a configuration check reads. */
function gifHeader(w: number, h: number): Buffer {
  return Buffer.from([...Buffer.from('GIF89a'), w & 0xff, w >> 8, h & 0xff, h >> 8, 0, 0, 0, 0x3b]);
}

const COLOURS: Record<string, [number, number, number]> = {
  red: [255, 0, 0],
  green: [0, 255, 0],
  blue: [0, 0, 255],
  yellow: [255, 255, 0],
};

test("the default limit follows the unit's memory: 16 megapixels from 384 MB up, fewer below", () => {
  assert.equal(defaultPictureMegapixels(400 * MB), 16, 'MemoryMax=400M');
  assert.equal(defaultPictureMegapixels(16 * 1024 * MB), 16);
  assert.equal(defaultPictureMegapixels(256 * MB), 10);
  assert.equal(defaultPictureMegapixels(128 * MB), 5);
  assert.equal(defaultPictureMegapixels(16 * MB), 1);
  // This machine has more than 384 MB: what the tests below rely on.
  assert.equal(defaultPictureMegapixels(), 16);
});

test(
  'a picture over the limit is a fault at load with its JSON ' +
    'path; at the limit, or under a raised limit, it loads',
  () => {
    const c = baseConfig();
    c.displays.main.layout.l1.pic.params = { at: 'at.png', over: 'over.png' };
    c.displays.main.layout.l1.pic.defaultValue = 'over.png';
    c.displays.main.layout.l2.logo = {
      coordinates: '0 0 9 9',
      type: 'image',
      params: { anim: 'anim.gif', small: 'small.gif' },
    };
    c.displays.main.startScreen = { image: 'over.png' };
    const sd = serviceDir(c);
    try {
      writeFileSync(path.join(sd.dir, 'images/at.png'), flatPng(4096, 4096, COLOURS.red));
      writeFileSync(path.join(sd.dir, 'images/over.png'), flatPng(4097, 4096, COLOURS.red));
      // A GIF plays from three pictures of its size: two thirds of the limit, 10.7 megapixels.
      writeFileSync(path.join(sd.dir, 'images/anim.gif'), gifHeader(4096, 3000));
      writeFileSync(path.join(sd.dir, 'images/small.gif'), gifHeader(3000, 3000));
      const faults = fileFaults(sd.configFile);
      assert.deepEqual(
        faults.map((f) => f.path).sort(),
        [
          '/displays/main/layout/l1/pic/defaultValue',
          '/displays/main/layout/l1/pic/params/over',
          '/displays/main/layout/l2/logo/params/anim',
          '/displays/main/startScreen/image',
        ],
        JSON.stringify(faults),
      );
      const over = faults.find((f) => f.path.endsWith('params/over'))!;
      assert.equal(
        over.message,
        '"over.png" is 4097x4096, too large to show (at most 16 megapixels: limits.maxPictureMegapixels)',
      );
      assert.match(
        faults.find((f) => f.path.endsWith('anim'))!.message,
        /"anim\.gif" is a 4096x3000 GIF, too large to play \(.*at most 10\.7 megapixels, two thirds of limits\.maxPictureMegapixels\)/,
      );

      c.limits = { maxPictureMegapixels: 32 };
      writeFileSync(sd.configFile, JSON.stringify(c));
      assert.deepEqual(fileFaults(sd.configFile), []);
      c.limits = { maxPictureMegapixels: 65 };
      writeFileSync(sd.configFile, JSON.stringify(c));
      assert.deepEqual(
        fileFaults(sd.configFile).map((f) => f.path),
        ['/limits/maxPictureMegapixels'],
      );
    } finally {
      sd.cleanup();
    }
  },
);

test(
  'a decode waits while another is under way and the ' + 'budget is full: two decodes never both overrun it',
  async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mlds-pictures-'));
    try {
      setPictureLimit(16);
      assert.equal(pictureMemory().budget, 128 * MB, 'two pictures at the limit');
      const file = (name: string) => path.join(dir, `${name}.png`);
      for (const [name, rgb] of Object.entries(COLOURS)) writeFileSync(file(name), flatPng(4096, 4096, rgb));
      const shown = await preloadImage(file('red'));
      holdPicture(shown);
      const peaks: number[] = [];
      const sample = () => {
        const m = pictureMemory();
        peaks.push(m.held + m.decoding);
      };
      // Two commands at once, each for another picture at the limit, while red is on screen.
      const green = preloadImage(file('green')).then((p) => {
        sample();
        return p;
      });
      const blue = preloadImage(file('blue')).then((p) => {
        sample();
        return p;
      });
      const g = await green;
      sample();
      assert.equal(pictureMemory().held, 128 * MB, 'red on screen and green decoded');
      assert.equal(pictureMemory().decoding, 0, 'blue waits: it would overrun the budget');
      // Green is shown: red is let go, and blue takes its room.
      holdPicture(g);
      letGoOfPicture(shown);
      const b = await blue;
      holdPicture(b);
      letGoOfPicture(g);
      sample();
      assert.deepEqual(pictureMemory(), { held: 128 * MB, decoding: 0, budget: 128 * MB, maxPixels: 16 * MB });
      assert.ok(
        peaks.every((p) => p <= 128 * MB),
        `counted ${peaks.map((p) => p / MB).join(', ')} MB`,
      );
      letGoOfPicture(b);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

const LAUNCH = path.join(REPO, 'dist/launch.cjs');
const noBuild =
  skipReason(existsSync(LAUNCH) ? undefined : `${LAUNCH} is missing: run make build`) ??
  underEmulation("qemu-user's own memory counts in the process's RSS");
const services: ChildProcess[] = [];
after(() => {
  for (const c of services) c.kill();
});

test(
  'a unit switching among four pictures at the limit, two commands at a time, keeps its peak RSS under 250 MB',
  { skip: noBuild, timeout: LISTEN_MS + 240_000 },
  async () => {
    // Four 4096x4096 pictures (64 MB each decoded) in a 200x100 area. The bound: the service's own
    // peak (its start, about 90 MB before the memory release), the budget of two pictures at the
    // limit (128 MB), and 32 MB for a decode's file, the scaled copy, malloc's slack. Before the
    // budget counted shown and decoding pictures it was 360 MB; with the 64-megapixel limit, two
    // 8000x8000 pictures took 827 MB.
    const c = baseConfig();
    c.displays.main.layout.l1.pic = {
      coordinates: '0 0 199 99',
      type: 'image',
      params: Object.fromEntries(Object.keys(COLOURS).map((n) => [n, `${n}.png`])),
    };
    delete c.displays.main.layout.l1.title;
    delete c.displays.main.layout.l1.sign;
    const sd = serviceDir(c);
    for (const [name, rgb] of Object.entries(COLOURS))
      writeFileSync(path.join(sd.dir, `images/${name}.png`), flatPng(4096, 4096, rgb));
    const child = spawn(
      process.execPath,
      [LAUNCH, 'start', '--config', sd.configFile, '--port', '0', '--state-dir', sd.stateDir],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, MALLOC_ARENA_MAX: '2', MLDS_CODE_CACHE_DIR: '' },
      },
    );
    services.push(child);
    try {
      let err = '';
      child.stderr!.on('data', (d: Buffer) => {
        err += d.toString();
      });
      await until(
        () => /listening on port \d+/.test(err) || child.exitCode !== null,
        LISTEN_MS,
        'the service to listen',
      );
      const url = `http://127.0.0.1:${/listening on port (\d+)/.exec(err)![1]}`;
      const peakMb = () =>
        Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024;
      const names = Object.keys(COLOURS);
      let last = '';
      for (let round = 0; round < 20; round++) {
        const pair = [names[(2 * round) % 4], names[(2 * round + 1) % 4]];
        const answers = await Promise.all(pair.map((n) => fetch(`${url}/mlds?id=main&layout=l1&pic=${n}`)));
        for (const a of answers) assert.equal(a.status, 200, await a.text());
        last = pair[1];
      }
      // The last command accepted is what shows.
      await until(
        async () =>
          near(
            (await decode(Buffer.from(await (await fetch(`${url}/screenshot?id=main&format=png`)).arrayBuffer()))).at(
              100,
              50,
            ),
            COLOURS[last],
          ),
        10_000,
        `the ${last} picture on screen`,
      );
      const peak = peakMb();
      assert.ok(peak < 250, `peak RSS ${peak.toFixed(0)} MB`);
      assert.equal(child.exitCode, null);
    } finally {
      // The service writes its state and log as it stops: the folder goes once it has exited.
      const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : once(child, 'exit');
      child.kill();
      await exited;
      sd.cleanup();
    }
  },
);
