// GET /load_config without url, below the route: packConfiguration builds the download; it
// must load onto another unit unchanged (inspect + extract + loadConfig give the same config).
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { extractZip } from '../../src/config/archive/extract.js';
import { packConfiguration } from '../../src/config/archive/pack.js';
import { packageRoot } from '../../src/util/package-root.js';
import { loadConfig } from '../../src/config/load.js';
import type { ServiceConfig } from '../../src/config/types.js';
import { snapshot } from '../helpers/zips.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const root = mkdtempSync(path.join(tmpdir(), 'mlds-pack-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** The normalized configuration as JSON, every path made relative to the folder it was found in. */
function portable(config: ServiceConfig): string {
  const prefixes = [realpathSync(config.dir) + path.sep, config.dir + path.sep, realpathSync(packageRoot)].map((p) =>
    p.endsWith(path.sep) ? p : p + path.sep,
  );
  return JSON.stringify(
    config,
    (key, value: unknown) => {
      if (key === 'dir') return '<dir>';
      if (value instanceof Map) return Object.fromEntries(value);
      if (typeof value === 'string') {
        const p = prefixes.find((x) => value.startsWith(x));
        return p ? value.slice(p.length) : value;
      }
      return value;
    },
    1,
  );
}

async function unpack(zip: Buffer, name: string): Promise<string> {
  const file = path.join(root, `${name}.zip`);
  writeFileSync(file, zip);
  const dir = path.join(root, name);
  mkdirSync(dir);
  await extractZip(file, dir);
  return dir;
}

test('examples/config.json packs with every image and the package fonts it uses, and loads back the same', async () => {
  const example = path.join(REPO, 'examples/config.json');
  const packed = await packConfiguration(example);
  assert.deepEqual(packed.skipped, []);
  assert.equal(packed.files[0], 'config.json');
  assert.deepEqual([...packed.files].sort(), [
    'config.json',
    'fonts/6x10.bdf',
    'fonts/7x13.bdf',
    'fonts/DejaVuSans-Bold.ttf',
    'fonts/DejaVuSans.ttf',
    'images/arrow.gif',
    'images/bus.png',
    'images/logo.png',
    'images/mlds-logo.png',
    'images/test-pattern.mp4',
  ]);
  const dir = await unpack(packed.zip, 'example');
  assert.equal(portable(loadConfig(path.join(dir, 'config.json'))), portable(loadConfig(example)));
});

test(
  'includes, brightness schedule, start image, own fonts and sub-folders travel; missing files and TLS files ' +
    'are listed',
  async () => {
    const src = path.join(root, 'src');
    mkdirSync(path.join(src, 'fonts'), { recursive: true });
    mkdirSync(path.join(src, 'images/pics'), { recursive: true });
    mkdirSync(path.join(src, 'layouts'));
    cpSync(path.join(REPO, 'fonts/DejaVuSans.ttf'), path.join(src, 'fonts/Own.ttf'));
    cpSync(path.join(REPO, 'examples/images/logo.png'), path.join(src, 'images/pics/logo.png'));
    cpSync(path.join(REPO, 'examples/images/bus.png'), path.join(src, 'images/start.png'));
    writeFileSync(path.join(src, 'brightness-schedule.json'), '{"periods":[],"rampMinutes":30}');
    writeFileSync(path.join(src, 'unused.txt'), 'not referenced, not packed');
    writeFileSync(
      path.join(src, 'layouts/board.json'),
      JSON.stringify({
        title: { coordinates: '0 0 199 49', type: 'text', font: 'Own.ttf' },
        pic: { $include: 'layouts/pic.json' },
      }),
    );
    writeFileSync(
      path.join(src, 'layouts/pic.json'),
      JSON.stringify({
        coordinates: '100 50 199 99',
        type: 'image',
        params: { a: 'pics/logo.png' },
        defaultValue: 'pics/logo.png',
      }),
    );
    const config = {
      displays: {
        main: {
          displayIp: '127.0.0.1',
          displayPort: '9001',
          displayWidth: '200',
          displayHeight: '100',
          output: { driver: 'virtual' },
          startScreen: { image: 'start.png', imageTtl: '2' },
          layout: { board: { $include: './layouts/board.json' } },
        },
      },
    };
    writeFileSync(path.join(src, 'config.json'), JSON.stringify(config, null, 1));
    const packed = await packConfiguration(path.join(src, 'config.json'));
    assert.deepEqual(packed.skipped, []);
    assert.deepEqual([...packed.files].sort(), [
      'brightness-schedule.json',
      'config.json',
      'fonts/Own.ttf',
      'images/pics/logo.png',
      'images/start.png',
      'layouts/board.json',
      'layouts/pic.json',
    ]);
    const dir = await unpack(packed.zip, 'rich');
    const copy = snapshot(dir);
    for (const [name, bytes] of snapshot(src)) if (copy.has(name)) assert.deepEqual(copy.get(name), bytes, name);
    assert.equal(
      portable(loadConfig(path.join(dir, 'config.json'))),
      portable(loadConfig(path.join(src, 'config.json'))),
    );

    // Download of the loaded copy: the same files, byte for byte.
    const again = await packConfiguration(path.join(dir, 'config.json'));
    assert.deepEqual(snapshot(await unpack(again.zip, 'rich-again')), copy);

    // A reference that cannot be packed is named with its JSON path; TLS files never leave the unit.
    writeFileSync(
      path.join(src, 'config.json'),
      JSON.stringify({
        ...config,
        https: { cert: 'tls/cert.pem', key: 'tls/key.pem' },
        displays: { main: { ...config.displays.main, startScreen: { image: 'gone.png' } } },
      }),
    );
    const partial = await packConfiguration(path.join(src, 'config.json'));
    assert.deepEqual(
      partial.skipped.map((s) => s.path),
      ['/displays/main/startScreen/image', '/https'],
    );
    assert.match(partial.skipped[0].message, /gone.png" was not found/);
  },
);
