// /load_config answers a person can act on: 400 naming the entry for paths the filesystem
// cannot hold and for the service's own log folder, where a config.json was found when it is
// not at the root, which files the load removed, why a written port is refused; and a
// download cut short by kill -9 is cleaned by the next start.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { archiveServer, makeZip, type ZipSpec } from '../helpers/zips.js';
import { cliStart, baseConfig, get, REPO, serviceDir, start, until } from '../helpers/service.js';
import { LISTEN_MS } from '../helpers/emulation.js';

let archives: Awaited<ReturnType<typeof archiveServer>>;
let base: string;
const served = new Map<string, Buffer>();
const root = mkdtempSync(path.join(tmpdir(), 'mlds-answers-'));

before(async () => {
  archives = await archiveServer(served, (name, res) => {
    // A download that never finishes: its first kilobyte is on disk when the test kills the service.
    if (name !== 'stalled.zip') return false;
    res.writeHead(200, { 'content-type': 'application/zip', 'content-length': '1000000' }).write(Buffer.alloc(1024, 1));
    return true;
  });
  base = archives.base;
});

after(() => {
  archives.close();
  rmSync(root, { recursive: true, force: true });
});

function zipOf(name: string, entries: ZipSpec[]): string {
  served.set(name, readFileSync(makeZip(path.join(root, name), entries)));
  return `/load_config?url=${encodeURIComponent(`${base}/${name}`)}`;
}

const images = (): ZipSpec[] =>
  ['logo.png', 'bus.png'].map((n) => ({
    name: `images/${n}`,
    base64: readFileSync(path.join(REPO, 'examples/images', n)).toString('base64'),
  }));

test(
  'archive faults are 400 MLDS_BAD_ARCHIVE naming the entry: a path too long for the filesystem, the log ' +
    'folder, a config.json in a folder',
  async () => {
    const config = JSON.stringify(baseConfig());
    // 20 segments of 250 bytes: each is within the 255-byte name limit, the path is over PATH_MAX.
    const long = Array.from({ length: 20 }, (_, i) => String(i).padEnd(250, 'x')).join('/') + '/a.txt';
    const tooLong = zipOf('long.zip', [{ name: 'config.json', text: config }, ...images(), { name: long, text: 'x' }]);
    const logs = zipOf('logs.zip', [
      { name: 'config.json', text: config },
      ...images(),
      { name: 'logs/mlds.log', text: 'old log' },
    ]);
    const nested = zipOf('nested.zip', [
      { name: 'site/config.json', text: config },
      { name: 'site/images/logo.png', text: 'x' },
      { name: 'other/deeper/config.json', text: '{}' },
    ]);
    const sd = serviceDir(baseConfig());
    const svc = await start(sd, { logDir: path.join(sd.dir, 'logs') });
    try {
      const before = readdirSync(sd.dir).sort();
      const r1 = await get(svc, tooLong);
      assert.equal(r1.status, 400, r1.text);
      assert.equal(r1.json.code, 'MLDS_BAD_ARCHIVE');
      assert.match(
        String(r1.json.message),
        /^entry "0x{119}….*x\/a\.txt": has a path longer than the filesystem allows/,
      );

      const r2 = await get(svc, logs);
      assert.equal(r2.status, 400, r2.text);
      assert.equal(r2.json.code, 'MLDS_BAD_ARCHIVE');
      assert.match(
        String(r2.json.message),
        /^entry "logs\/mlds\.log": is in "logs\/", the service's own state or log folder/,
      );

      const r3 = await get(svc, nested);
      assert.equal(r3.status, 400, r3.text);
      assert.equal(r3.json.code, 'MLDS_BAD_ARCHIVE');
      assert.match(
        String(r3.json.message),
        /has no config\.json at its root, but one at "site\/config\.json": zip the contents of "site\/"/,
      );

      assert.deepEqual(readdirSync(sd.dir).sort(), before, 'nothing changed in the service folder');
      assert.ok(!existsSync(path.join(sd.dir, '.mlds-staging')));
    } finally {
      await svc.close();
      sd.cleanup();
    }
  },
);

test('a load lists the files it removed from the service folder and where they went', async () => {
  const next = baseConfig();
  next.displays.main.layout.l1.title.backgroundColor = '0 200 0';
  const url = zipOf('next.zip', [
    { name: 'config.json', text: JSON.stringify(next) },
    { name: 'images/logo.png', base64: readFileSync(path.join(REPO, 'examples/images/logo.png')).toString('base64') },
    { name: 'images/bus.png', base64: readFileSync(path.join(REPO, 'examples/images/bus.png')).toString('base64') },
  ]);
  const sd = serviceDir(baseConfig());
  writeFileSync(path.join(sd.dir, 'NOTES.txt'), 'call Anna about the sign');
  const svc = await start(sd);
  try {
    const r = await get(svc, url);
    assert.equal(r.status, 200, r.text);
    const removed = r.json.removedFiles as string[];
    assert.ok(removed.includes('NOTES.txt'), JSON.stringify(removed));
    // The example images the archive left out went too; the ones it brought back are not listed.
    assert.ok(!removed.includes('images/logo.png') && !removed.includes('config.json'));
    assert.ok(removed.every((f) => !existsSync(path.join(sd.dir, f))));
    assert.match(String(r.json.backup), /^\.mlds-backup\/\d{6}-/);
    assert.equal(
      readFileSync(path.join(sd.dir, String(r.json.backup), 'NOTES.txt'), 'utf8'),
      'call Anna about the sign',
    );
    assert.equal(r.json.removedFilesNotListed, undefined);
  } finally {
    await svc.close();
    sd.cleanup();
  }
});

test(
  'a written port outside the range is refused saying which rule and how to widen it; urlPortRange applies to ' +
    '/load_config',
  async () => {
    const url = zipOf('ok.zip', [{ name: 'config.json', text: JSON.stringify(baseConfig()) }, ...images()]);
    const c = baseConfig();
    c.urlPortRange = [2000, 3000];
    const sd = serviceDir(c);
    const svc = await start(sd);
    try {
      const r80 = await get(svc, `/load_config?url=${encodeURIComponent('http://127.0.0.1:80/x.zip')}`);
      assert.equal(r80.status, 400);
      assert.equal(r80.json.code, 'MLDS_BAD_URL');
      assert.match(
        String(r80.json.message),
        /port 80: the written-port rule accepts a port written in a URL only within 2000\.\.3000.*leave the port out, or widen "urlPortRange"/,
      );
      // The test server's port is outside 2000..3000: the running configuration's range is the one applied.
      const r = await get(svc, url);
      assert.equal(r.status, 400, r.text);
      assert.match(String(r.json.message), /within 2000\.\.3000/);
    } finally {
      await svc.close();
      sd.cleanup();
    }
  },
);

test('a download cut short by kill -9 lies in the service folder and the next start removes it', async () => {
  const sd = serviceDir(baseConfig());
  const child = spawn(process.execPath, cliStart(sd, '--state-dir', sd.stateDir), {
    cwd: REPO,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    await until(() => /listening on port \d+/.test(err) || child.exitCode !== null, LISTEN_MS, 'the service to listen');
    const port = Number(/listening on port (\d+)/.exec(err)?.[1]);
    void fetch(`http://127.0.0.1:${port}/load_config?url=${encodeURIComponent(`${base}/stalled.zip`)}`).catch(
      () => undefined,
    );
    const downloads = path.join(sd.dir, '.mlds-download');
    const partial = () =>
      existsSync(downloads) && readdirSync(downloads).some((d) => existsSync(path.join(downloads, d, 'config.zip')));
    await until(partial, 10_000, 'the download to start in the service folder');
    child.kill('SIGKILL');
    await exited;
    assert.ok(partial(), 'the partial download is left behind by the kill');
    const svc = await start(sd);
    await svc.close();
    assert.ok(!existsSync(downloads), 'the start removed it');
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    sd.cleanup();
  }
});
