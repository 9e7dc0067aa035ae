// A picture's size is read from its header before it is decoded: a 12000x12000 PNG of a few
// kilobytes is refused at load and at command time without the 576 MB its decoding takes.
import assert from 'node:assert/strict';
import { loadImage } from 'canvas';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { bufferReader, pictureHeader } from '../../src/media/picture-header.js';
import { graphicImage } from '../../src/render/content/line-raster.js';
import { preloadImage } from '../../src/render/images.js';
import { flatPng } from '../helpers/png.js';
import { baseConfig, get, REPO, serviceDir, start, until } from '../helpers/service.js';
import { fileFaults } from '../helpers/config-faults.js';

const rss = () => process.memoryUsage.rss();

test('the header gives the size the decoder finds, for every example picture (PNG, JPEG, GIF)', async () => {
  const dir = path.join(REPO, 'examples/images');
  for (const name of readdirSync(dir).filter((n) => /\.(png|jpe?g|gif)$/.test(n))) {
    const bytes = readFileSync(path.join(dir, name));
    const h = pictureHeader(bufferReader(bytes));
    const img = await loadImage(bytes);
    assert.ok(!('error' in h), `${name}: ${JSON.stringify(h)}`);
    assert.deepEqual([h.width, h.height], [img.width, img.height], name);
  }
  // A JPEG with an APP1 segment before its frame header, and markers padded with FF.
  const jpeg = readFileSync(path.join(dir, 'bus.jpg'));
  const app1 = Buffer.concat([Buffer.from([0xff, 0xff, 0xe1, 0x01, 0x02]), Buffer.alloc(256, 0xc0)]);
  const padded = Buffer.concat([jpeg.subarray(0, 2), app1, jpeg.subarray(2)]);
  assert.deepEqual(pictureHeader(bufferReader(padded)), {
    format: 'jpeg',
    width: (await loadImage(jpeg)).width,
    height: (await loadImage(jpeg)).height,
  });
  assert.match(
    (pictureHeader(bufferReader(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))) as { error: string }).error,
    /not a PNG, JPEG or GIF/,
  );
});

test('an image area whose defaultValue is a 12000x12000 PNG is a fault at load, with RSS growth under 20 MB', () => {
  const c = baseConfig();
  c.displays.main.layout.l1.pic.defaultValue = 'huge.png';
  const sd = serviceDir(c);
  try {
    const png = flatPng(12000, 12000);
    assert.ok(png.length < 100_000, `${png.length} bytes on disk`);
    writeFileSync(path.join(sd.dir, 'images/huge.png'), png);
    const before = rss();
    const faults = fileFaults(sd.configFile);
    const grown = rss() - before;
    assert.deepEqual(
      faults.map((f) => f.path),
      ['/displays/main/layout/l1/pic/defaultValue'],
      JSON.stringify(faults),
    );
    assert.match(
      faults[0].message,
      /"huge\.png" is 12000x12000, too large to show \(at most 16 megapixels: limits\.maxPictureMegapixels\)/,
    );
    assert.ok(grown < 20 * 1024 * 1024, `RSS grew ${(grown / 1048576).toFixed(1)} MB`);
  } finally {
    sd.cleanup();
  }
});

test(
  'a /mlds selecting a picture replaced by a 12000x12000 ' + 'PNG shows a fault without decoding it, every time',
  async () => {
    const c = baseConfig();
    c.displays.main.layout.l1.pic.params.huge = 'huge.png';
    const sd = serviceDir(c);
    const file = path.join(sd.dir, 'images/huge.png');
    copyFileSync(path.join(sd.dir, 'images/logo.png'), file);
    const svc = await start(sd);
    try {
      writeFileSync(file, flatPng(12000, 12000));
      const before = rss();
      for (let i = 0; i < 3; i++) {
        const r = await get(svc, `/mlds?id=main&layout=l1&title=T${i}&pic=huge`);
        assert.equal(r.status, 200, r.text);
        await until(
          () =>
            /12000x12000,? (is )?too large to show/.test(svc.controller().state('main').areas.get('pic')?.fault ?? ''),
          3000,
          'the fault',
        );
        const grown = rss() - before;
        assert.ok(grown < 20 * 1024 * 1024, `request ${i}: RSS grew ${(grown / 1048576).toFixed(1)} MB`);
      }
      assert.match((await get(svc, '/status')).text, /12000x12000, too large to show/);
    } finally {
      await svc.close();
      sd.cleanup();
    }
  },
);

test('a GIF whose frame says 10000x10000 on a 10x10 screen is refused before that frame is decoded', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-gif-'));
  try {
    const u16 = (n: number) => [n & 0xff, n >> 8];
    const gif = Buffer.from([
      ...Buffer.from('GIF89a'),
      ...u16(10),
      ...u16(10),
      0,
      0,
      0, // logical screen 10x10, no global colours
      0x2c,
      ...u16(0),
      ...u16(0),
      ...u16(10000),
      ...u16(10000),
      0x80,
      0,
      0,
      0,
      255,
      255,
      255, // a 10000x10000 frame, 2 local colours
      2,
      2,
      0x44,
      0x01,
      0,
      0x3b, // LZW data (clear, 0, end), trailer
    ]);
    const file = path.join(dir, 'frame.gif');
    writeFileSync(file, gif);
    await assert.rejects(
      preloadImage(file),
      /GIF frame 1 is 10000x10000, too large to show \(at most 16 megapixels: limits\.maxPictureMegapixels\)/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an inline graphic ([g<n>]) whose header says 8000x8000 is refused without decoding it', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-graphic-'));
  try {
    const file = path.join(dir, 'big.png');
    writeFileSync(file, flatPng(8000, 8000));
    const before = rss();
    assert.equal(graphicImage(file), undefined);
    const grown = rss() - before;
    assert.ok(grown < 20 * 1024 * 1024, `RSS grew ${(grown / 1048576).toFixed(1)} MB`);
    writeFileSync(path.join(dir, 'ok.png'), flatPng(64, 32));
    assert.equal(graphicImage(path.join(dir, 'ok.png'))?.width, 64);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
