// /load_config?url= below the HTTP route: a loopback server serves archives, good and hostile;
// stageFromUrl downloads, inspects and extracts them. After every refusal the service
// directory (dot entries included) and the download folder are exactly as before.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { inspectZip, DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from '../../src/config/archive/inspect.js';
import { discardStaging, stageFromUrl } from '../../src/config/archive/stage.js';
import { swapConfiguration } from '../../src/config/archive/swap.js';
import { ConfigError } from '../../src/config/faults.js';
import { loadConfig } from '../../src/config/load.js';
import type { AreaOf } from '../../src/config/types.js';
import { MldsError } from '../../src/errors.js';
import { entriesOf, makeZip, snapshot, type ZipSpec } from '../helpers/zips.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const root = mkdtempSync(path.join(tmpdir(), 'mlds-archive-'));
const zips = path.join(root, 'zips');
const downloads = path.join(root, 'downloads');
const good = path.join(root, 'good');
let service = '';
let base = '';
let server: http.Server;

function configOf(title: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify(
    {
      port: '9199',
      displays: {
        main: {
          displayIp: '127.0.0.1',
          displayPort: '9001',
          displayWidth: '200',
          displayHeight: '100',
          output: { driver: 'virtual' },
          startScreen: { image: 'logo.png', imageTtl: '1' },
          layout: {
            l1: {
              title: { coordinates: '0 0 199 49', type: 'text', font: 'Mine.ttf', defaultValue: title },
              pic: { coordinates: '100 50 199 99', type: 'image', params: { bus: 'sub/bus.png' } },
              ...extra,
            },
          },
        },
      },
    },
    null,
    1,
  );
}

/** A configuration tree: config.json, fonts/Mine.ttf, images/logo.png, images/sub/bus.png. */
function tree(dir: string, title: string): void {
  mkdirSync(path.join(dir, 'fonts'), { recursive: true });
  mkdirSync(path.join(dir, 'images/sub'), { recursive: true });
  cpSync(path.join(REPO, 'fonts/DejaVuSans.ttf'), path.join(dir, 'fonts/Mine.ttf'));
  cpSync(path.join(REPO, 'examples/images/logo.png'), path.join(dir, 'images/logo.png'));
  cpSync(path.join(REPO, 'examples/images/bus.png'), path.join(dir, 'images/sub/bus.png'));
  writeFileSync(path.join(dir, 'config.json'), configOf(title));
}

const zip = (name: string, entries: ZipSpec[]) => makeZip(path.join(zips, name), entries);
const cfg = { name: 'config.json', text: configOf('x') };

before(async () => {
  mkdirSync(zips);
  mkdirSync(downloads);
  tree(good, 'New');
  zip('good.zip', entriesOf(good));
  const goodBytes = readFileSync(path.join(zips, 'good.zip'));
  // Central directory signature overwritten / archive cut in half / compressed data damaged.
  const cd = goodBytes.lastIndexOf(Buffer.from('PK\x01\x02', 'latin1'));
  const badDir = Buffer.from(goodBytes);
  badDir.write('XXXX', cd, 'latin1');
  writeFileSync(path.join(zips, 'bad-directory.zip'), badDir);
  writeFileSync(path.join(zips, 'truncated.zip'), goodBytes.subarray(0, goodBytes.length >> 1));
  // Bytes in the middle of the font's compressed data flipped: found only while extracting, after config.json.
  const damaged = Buffer.from(goodBytes);
  const font = damaged.indexOf('fonts/Mine.ttf') + 200_000;
  for (let i = font; i < font + 64; i++) damaged[i] ^= 0xff;
  writeFileSync(path.join(zips, 'damaged.zip'), damaged);
  zip('dotdot.zip', [cfg, { name: '../x', text: 'escaped' }]);
  zip('absolute.zip', [cfg, { name: path.join(root, 'absolute-target'), text: 'escaped' }]);
  zip('symlink.zip', [cfg, { name: 'images/link.png', text: '/etc/passwd', mode: 0o120777 }]);
  zip('device.zip', [cfg, { name: 'images/tty', mode: 0o020644 }]);
  zip('fifo.zip', [cfg, { name: 'images/pipe', mode: 0o010644 }]);
  zip('backslash.zip', [cfg, { name: 'images\\..\\..\\x', text: 'escaped' }]);
  zip('duplicate.zip', [cfg, { name: 'images/a.png', text: '1' }, { name: 'images/a.png', text: '2' }]);
  zip('file-and-folder.zip', [cfg, { name: 'images', text: 'a file' }, { name: 'images/a.png', text: '1' }]);
  zip('no-config.zip', [{ name: 'sub/config.json', text: configOf('x') }]);
  zip('reserved.zip', [cfg, { name: '.mlds-swap.json', text: '{}' }]);
  zip('bomb.zip', [cfg, { name: 'images/bomb.bmp', zeros: 30 * 1024 * 1024 }]);
  zip('many.zip', [cfg, ...Array.from({ length: 1000 }, (_, i) => ({ name: `images/${i}.txt`, text: 'x' }))]);
  zip('heavy.zip', [cfg, { name: 'images/a.bin', random: 300_000 }, { name: 'images/b.bin', random: 300_000 }]);
  zip('big.zip', [cfg, { name: 'images/big.bin', random: 1_500_000, deflate: false }]);
  zip('schema-fault.zip', [
    { name: 'config.json', text: configOf('x', { bad: { coordinates: '0 0 9 9', type: 'text', scrollSpeed: '99' } }) },
  ]);
  // The directory says 1000 bytes; the data inflates to 2 MB: only counting the real bytes shows it.
  zip('liar.zip', [cfg, { name: 'images/liar.bin', zeros: 2_000_000 }]);
  const liar = readFileSync(path.join(zips, 'liar.zip'));
  const entry = liar.lastIndexOf(Buffer.from('PK\x01\x02', 'latin1'));
  liar.writeUInt32LE(1000, entry + 24);
  writeFileSync(path.join(zips, 'liar.zip'), liar);

  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const name = url.pathname.slice(1);
    if (name === 'not-a-zip.zip')
      return void res.writeHead(200, { 'content-type': 'application/zip' }).end('<html>login page</html>');
    if (name === 'slow.zip') return void res.writeHead(200).write(goodBytes.subarray(0, 100));
    const hop = /^hop(\d)$/.exec(name);
    if (hop)
      return void res
        .writeHead(302, { location: Number(hop[1]) > 0 ? `/hop${Number(hop[1]) - 1}` : '/good.zip' })
        .end();
    if (name === 'to-port-80') return void res.writeHead(302, { location: 'http://127.0.0.1:80/good.zip' }).end();
    const file = path.join(zips, name);
    if (!name.endsWith('.zip') || !existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/zip' }).end(readFileSync(file));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => {
  server.closeAllConnections();
  server.close();
  rmSync(root, { recursive: true, force: true });
});

/** A fresh service directory holding the "Old" configuration, a state folder and a dot file. */
function freshService(): string {
  service = mkdtempSync(path.join(root, 'service-'));
  tree(service, 'Old');
  mkdirSync(path.join(service, 'state'));
  writeFileSync(path.join(service, 'state/last.json'), '{}');
  writeFileSync(path.join(service, '.hidden'), 'x');
  return service;
}

async function refused(
  url: string,
  code: string,
  why: RegExp,
  limits?: ArchiveLimits,
  timeoutMs = 10_000,
): Promise<MldsError> {
  const dir = freshService();
  const before = snapshot(dir);
  const outside = snapshot(root, false);
  let err: unknown;
  try {
    await stageFromUrl(dir, url, { tmpDir: downloads, limits, fetch: { timeoutMs, maxBytes: 1_000_000 } });
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof MldsError, `${url}: expected a refusal, got ${String(err)}`);
  assert.equal(err.code, code, `${url}: ${err.message}`);
  assert.match(err.message, why, url);
  assert.deepEqual(snapshot(dir), before, `${url}: the service directory changed`);
  assert.deepEqual(readdirSync(downloads), [], `${url}: the download was left behind`);
  // Nothing was written anywhere else under the test's root either (../x, absolute paths).
  const now = snapshot(root, false);
  for (const k of now.keys())
    assert.ok(outside.has(k) || k.startsWith(path.relative(root, dir)), `${url}: ${k} appeared`);
  rmSync(dir, { recursive: true });
  return err;
}

test(
  'a good archive is staged as an exact copy of its ' + 'source, validates, and swaps in with the old one kept',
  async () => {
    const dir = freshService();
    const progress: number[] = [];
    const staged = await stageFromUrl(dir, `${base}/hop2`, {
      tmpDir: downloads,
      fetch: { onProgress: (p) => progress.push(p.received), progressStep: 100_000 },
    });
    assert.deepEqual(snapshot(staged.dir), snapshot(good));
    assert.equal(progress.at(-1), staged.download.bytes);
    assert.deepEqual(readdirSync(downloads), []);
    const loaded = loadConfig(path.join(staged.dir, 'config.json'));
    const first = loaded.displays[0].layouts.get('l1')?.areas[0] as AreaOf<'text'>;
    assert.equal(first.defaultValue, 'New');
    const oldTree = snapshot(dir, true);
    const r = await swapConfiguration(dir, staged.dir, { keep: [path.join(dir, 'state')] });
    const now = snapshot(dir, true);
    assert.deepEqual(new Map([...now].filter(([k]) => !k.startsWith('state/'))), snapshot(good));
    assert.equal(readFileSync(path.join(dir, 'state/last.json'), 'utf8'), '{}');
    assert.deepEqual(snapshot(r.backup), new Map([...oldTree].filter(([k]) => !k.startsWith('state/'))));
    assert.equal(existsSync(path.join(dir, '.hidden')), true);
    assert.equal(existsSync(staged.dir), false);
  },
);

test('hostile and broken archives are refused before anything is extracted, naming the entry', async () => {
  await refused(`${base}/not-a-zip.zip`, 'MLDS_BAD_ARCHIVE', /not a zip archive/);
  await refused(`${base}/truncated.zip`, 'MLDS_BAD_ARCHIVE', /not a zip archive/);
  await refused(`${base}/bad-directory.zip`, 'MLDS_BAD_ARCHIVE', /malformed/);
  await refused(`${base}/dotdot.zip`, 'MLDS_BAD_ARCHIVE', /entry "\.\.\/x": contains "\.\."/);
  await refused(`${base}/absolute.zip`, 'MLDS_BAD_ARCHIVE', /absolute path/);
  await refused(`${base}/symlink.zip`, 'MLDS_BAD_ARCHIVE', /"images\/link.png": is a symbolic link/);
  await refused(`${base}/device.zip`, 'MLDS_BAD_ARCHIVE', /"images\/tty": is a device/);
  await refused(`${base}/fifo.zip`, 'MLDS_BAD_ARCHIVE', /"images\/pipe": is a device, FIFO/);
  await refused(`${base}/backslash.zip`, 'MLDS_BAD_ARCHIVE', /backslash/);
  await refused(`${base}/duplicate.zip`, 'MLDS_BAD_ARCHIVE', /"images\/a.png": appears twice/);
  await refused(`${base}/file-and-folder.zip`, 'MLDS_BAD_ARCHIVE', /"images\/a.png": lies inside "images"/);
  await refused(`${base}/no-config.zip`, 'MLDS_BAD_ARCHIVE', /no config.json at its root/);
  await refused(`${base}/reserved.zip`, 'MLDS_BAD_ARCHIVE', /reserved for the service/);
  await refused(`${base}/bomb.zip`, 'MLDS_BAD_ARCHIVE', /"images\/bomb.bmp": expands .* zip bomb/);
  await refused(`${base}/many.zip`, 'MLDS_BAD_ARCHIVE', /1001 entries; at most 1000/);
  await refused(`${base}/heavy.zip`, 'MLDS_BAD_ARCHIVE', /"images\/b.bin": brings the uncompressed total over 500000/, {
    ...DEFAULT_ARCHIVE_LIMITS,
    maxTotalBytes: 500_000,
  });
  await refused(
    `${base}/liar.zip`,
    'MLDS_BAD_ARCHIVE',
    /"images\/liar.bin": holds more data than its declared 1000 bytes/,
  );
  await refused(
    `${base}/damaged.zip`,
    'MLDS_BAD_ARCHIVE',
    /"fonts\/Mine.ttf": (is corrupt|fails its CRC-32 check|holds more data|holds \d+ bytes, not)/,
  );
});

test('downloads that fail are refused with their own codes and leave nothing behind', async () => {
  await refused(`${base}/big.zip`, 'MLDS_FETCH_TOO_LARGE', /limit is 1000000 bytes/);
  await refused(`${base}/slow.zip`, 'MLDS_FETCH_TIMEOUT', /did not finish within 0.3 s/, undefined, 300);
  await refused(`${base}/absent.zip`, 'MLDS_FETCH_FAILED', /HTTP 404/);
  await refused(`${base}/hop4`, 'MLDS_FETCH_FAILED', /more than 3 times/);
  await refused(`${base}/to-port-80`, 'MLDS_FETCH_FAILED', /port 80/);
  await refused('http://127.0.0.1:22/good.zip', 'MLDS_BAD_URL', /port 22/);
});

test('a staged configuration with a fault is discarded and the service directory is untouched', async () => {
  const dir = freshService();
  const before = snapshot(dir);
  const staged = await stageFromUrl(dir, `${base}/schema-fault.zip`, { tmpDir: downloads });
  assert.throws(
    () => loadConfig(path.join(staged.dir, 'config.json')),
    (e: unknown) => e instanceof ConfigError && /scrollSpeed/.test(e.message),
  );
  await discardStaging(dir);
  assert.deepEqual(snapshot(dir), before);
});

test('inspectZip lists entries without extracting; the limits default to the documented values', async () => {
  const entries = await inspectZip(path.join(zips, 'good.zip'));
  assert.deepEqual(
    entries
      .filter((e) => !e.isDirectory)
      .map((e) => e.name)
      .sort(),
    ['config.json', 'fonts/Mine.ttf', 'images/logo.png', 'images/sub/bus.png'],
  );
  assert.deepEqual(DEFAULT_ARCHIVE_LIMITS, {
    maxEntries: 1000,
    maxTotalBytes: 200 * 1024 * 1024,
    maxRatio: 100,
    ratioFloorBytes: 1024 * 1024,
  });
});
