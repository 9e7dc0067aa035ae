import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { archiveServer, makeZip, type ZipSpec } from '../helpers/zips.js';
import { VERSION } from '../../src/version.js';
import { baseConfig, decode, get, REPO, serviceDir, start, until, type ServiceDir } from '../helpers/service.js';

let archives: Awaited<ReturnType<typeof archiveServer>>;
let base: string;
const served = new Map<string, Buffer>();
const root = mkdtempSync(path.join(tmpdir(), 'mlds-load-'));

/** Requests for slow.zip the archive server has had. */
let slowAsked = 0;

before(async () => {
  archives = await archiveServer(served, (name, res) => {
    if (name !== 'slow.zip') return false;
    slowAsked++;
    res.writeHead(200, { 'content-type': 'application/zip' }).write('PK');
    return true;
  });
  base = archives.base;
});

after(() => {
  archives.close();
  rmSync(root, { recursive: true, force: true });
});

/** An archive of a configuration like the test's, with `title`'s background in `rgb`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function configWith(rgb: string, mutate: (c: Record<string, any>) => void = () => {}): Record<string, any> {
  const c = baseConfig();
  c.displays.main.layout.l1.title.backgroundColor = rgb;
  mutate(c);
  return c;
}

function zipOf(name: string, entries: ZipSpec[]): void {
  served.set(name, readFileSync(makeZip(path.join(root, name), entries)));
}

function imagesOf(): ZipSpec[] {
  const dir = path.join(REPO, 'examples/images');
  return readdirSync(dir).map((n) => ({
    name: `images/${n}`,
    base64: readFileSync(path.join(dir, n)).toString('base64'),
  }));
}

/** Every file of the service directory (dot-folders of the swap excluded), by content. */
function files(dir: string, rel = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const n of readdirSync(path.join(dir, rel)).sort()) {
    const p = path.join(rel, n);
    if (rel === '' && n.startsWith('.mlds-backup')) continue;
    const st = lstatSync(path.join(dir, p));
    if (st.isDirectory()) for (const [k, v] of files(dir, p)) out.set(k, v);
    else
      out.set(
        p,
        createHash('sha256')
          .update(readFileSync(path.join(dir, p)))
          .digest('hex'),
      );
  }
  return out;
}

async function picture(svc: { url: string }): Promise<Buffer> {
  return (await get(svc, '/screenshot?format=png')).bytes;
}

test(
  '/load_config: a good archive is applied and the screen follows; every bad one changes nothing on disk, in ' +
    'the configuration or on screen',
  async () => {
    // The archives are made before the service starts: making them is synchronous and slow (the
    // 50 MB bomb), and under emulation it outlasts keepAliveTimeoutMs, so the client's pooled
    // connection would be closed by the service with no chance for the client to see it.
    const good = configWith('0 200 0');
    zipOf('good.zip', [{ name: 'config.json', text: JSON.stringify(good) }, ...imagesOf()]);
    zipOf('malformed.zip', [{ name: 'config.json', text: '{}' }]);
    served.set('malformed.zip', served.get('malformed.zip')!.subarray(0, 40));
    served.set('not-a-zip.zip', Buffer.from('<html>a login page</html>'));
    zipOf('slip.zip', [
      { name: 'config.json', text: JSON.stringify(good) },
      { name: '../x', text: 'out' },
    ]);
    zipOf('absolute.zip', [
      { name: 'config.json', text: JSON.stringify(good) },
      { name: '/tmp/mlds-evil', text: 'out' },
    ]);
    zipOf('link.zip', [
      { name: 'config.json', text: JSON.stringify(good) },
      { name: 'images/l.png', text: '/etc/passwd', mode: 0o120777 },
    ]);
    zipOf('bomb.zip', [
      { name: 'config.json', text: JSON.stringify(good) },
      { name: 'images/zero.png', zeros: 50_000_000 },
    ]);
    zipOf('big.zip', [
      { name: 'config.json', text: JSON.stringify(good) },
      { name: 'images/noise.png', random: 300_000, deflate: false },
    ]);
    zipOf('schema.zip', [{ name: 'config.json', text: JSON.stringify(configWith('0 200')) }, ...imagesOf()]);
    zipOf('missing-image.zip', [{ name: 'config.json', text: JSON.stringify(good) }]);
    const sd: ServiceDir = serviceDir(configWith('0 0 255'));
    const svc = await start(sd, { archiveFetch: { maxBytes: 200_000, timeoutMs: 800 } });
    try {
      await get(svc, '/mlds?id=main&layout=l1&title=Hi');
      await until(async () => (await decode(await picture(svc))).at(190, 5)[2] === 255, 3000, 'blue title');

      const cases: Array<[string, number, string, RegExp]> = [
        ['malformed.zip', 400, 'MLDS_BAD_ARCHIVE', /zip/i],
        ['not-a-zip.zip', 400, 'MLDS_BAD_ARCHIVE', /zip/i],
        ['slip.zip', 400, 'MLDS_BAD_ARCHIVE', /\.\.\/x/],
        ['absolute.zip', 400, 'MLDS_BAD_ARCHIVE', /mlds-evil/],
        ['link.zip', 400, 'MLDS_BAD_ARCHIVE', /images\/l\.png/],
        ['bomb.zip', 400, 'MLDS_BAD_ARCHIVE', /zero\.png/],
        ['big.zip', 502, 'MLDS_FETCH_TOO_LARGE', /./],
        ['slow.zip', 504, 'MLDS_FETCH_TIMEOUT', /./],
        ['nothing.zip', 502, 'MLDS_FETCH_FAILED', /404/],
        ['schema.zip', 400, 'MLDS_CONFIG_INVALID', /fault/],
        ['missing-image.zip', 400, 'MLDS_CONFIG_INVALID', /fault/],
      ];
      const disk = files(sd.dir);
      const config = JSON.stringify(svc.runtime.config, (_k, v: unknown) => (v instanceof Map ? [...v] : v));
      const screen = await picture(svc);
      for (const [name, status, code, why] of cases) {
        const r = await get(svc, `/load_config?url=${encodeURIComponent(`${base}/${name}`)}`);
        assert.equal(r.status, status, `${name}: ${r.text}`);
        assert.equal(r.json.code, code, name);
        assert.match(String(r.json.message) + JSON.stringify(r.json.faults ?? ''), why, name);
        assert.deepEqual(files(sd.dir), disk, `${name}: files on disk changed`);
        assert.equal(
          JSON.stringify(svc.runtime.config, (_k, v: unknown) => (v instanceof Map ? [...v] : v)),
          config,
          `${name}: the running configuration changed`,
        );
        assert.ok((await picture(svc)).equals(screen), `${name}: the screen changed`);
        assert.ok(!existsSync('/tmp/mlds-evil') && !existsSync(path.join(sd.dir, '..', 'x')), `${name}: wrote outside`);
      }
      const status = await get(svc, '/status');
      assert.equal((status.json.config as { lastArchive: { result: string } }).lastArchive.result, 'error');
      assert.match(
        (await get(svc, '/info')).text.replaceAll('<wbr>', ''),
        /Last archive<\/th><td class="bad">.*missing-image\.zip.*fault/s,
      );

      const ok = await get(svc, `/load_config?url=${encodeURIComponent(`${base}/good.zip`)}`);
      assert.equal(ok.status, 200, ok.text);
      assert.equal(ok.json.result, 'configuration loaded');
      assert.deepEqual(ok.json.changed, ['main']);
      assert.deepEqual(JSON.parse(readFileSync(sd.configFile, 'utf8')), good);
      await until(
        async () => (await decode(await picture(svc))).at(190, 5)[1] === 200,
        3000,
        'green title after the load',
      );
      assert.equal(svc.controller().state('main').areas.get('title')!.text, 'Hi');
      assert.ok(
        readdirSync(sd.dir).some((n) => n.startsWith('.mlds-backup')),
        'the previous configuration is kept',
      );
    } finally {
      await svc.close();
      sd.cleanup();
    }
  },
);

test('/load_config without url downloads the configuration; loading that archive back changes nothing', async () => {
  const sd = serviceDir(configWith('10 20 30'));
  const svc = await start(sd);
  try {
    const res = await fetch(`${svc.url}/load_config`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/zip');
    assert.match(res.headers.get('content-disposition')!, /attachment; filename="mlds-.+-main-\d{4}-\d\d-\d\d\.zip"/);
    served.set('roundtrip.zip', Buffer.from(await res.arrayBuffer()));
    const disk = files(sd.dir);
    const r = await get(svc, `/load_config?url=${encodeURIComponent(`${base}/roundtrip.zip`)}`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.result, 'configuration unchanged');
    const after = files(sd.dir);
    // What the configuration uses came back byte for byte (pictures it does not reference are
    // not exported; the package's own font it uses now travels in fonts/).
    assert.equal(after.get('config.json'), disk.get('config.json'));
    for (const f of ['images/logo.png', 'images/bus.png']) assert.equal(after.get(f), disk.get(f), f);
    for (const [k, v] of after) if (disk.has(k)) assert.equal(v, disk.get(k), k);
  } finally {
    await svc.close();
    sd.cleanup();
  }
});

test("/load_config?url= says who asks (mlds, its version, the unit) and never fetches the unit's own API", async () => {
  const sd = serviceDir(configWith('10 20 30'));
  const svc = await start(sd);
  const agents: string[] = [];
  const server = createServer((req, res) => {
    agents.push(req.headers['user-agent'] ?? '');
    res.writeHead(200, { 'content-type': 'application/zip' }).end('PK');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/c.zip`;
    const r = await get(svc, `/load_config?url=${encodeURIComponent(url)}`);
    assert.equal(r.json.code, 'MLDS_BAD_ARCHIVE', 'downloaded, then refused as no zip');
    assert.deepEqual(agents, [`mlds/${VERSION} (${hostname()})`]);

    const own = await get(svc, `/load_config?url=${encodeURIComponent(`http://localhost:${svc.port}/load_config`)}`);
    assert.equal(own.status, 400, own.text);
    assert.equal(own.json.code, 'MLDS_URL_REFUSED');
    assert.match(String(own.json.message), /rule "own-api"/);
  } finally {
    server.close();
    await svc.close();
    sd.cleanup();
  }
});

test('a second /load_config while one is under way answers 503 with Retry-After', async () => {
  const sd = serviceDir(configWith('0 0 255'));
  const svc = await start(sd, { archiveFetch: { timeoutMs: 1500 } });
  try {
    const asked = slowAsked;
    const first = get(svc, `/load_config?url=${encodeURIComponent(`${base}/slow.zip`)}`);
    await until(() => slowAsked > asked, 10_000, 'the first download under way');
    const second = await get(svc, `/load_config?url=${encodeURIComponent(`${base}/slow.zip`)}`);
    assert.equal(second.status, 503);
    assert.ok(second.headers.get('retry-after'));
    assert.equal((await first).status, 504);
  } finally {
    await svc.close();
    sd.cleanup();
  }
});

test(
  'a swap killed part-way is whole at the next start: the service runs on the old or the new configuration, ' +
    'never a mix',
  async () => {
    const child = path.join(REPO, 'test/helpers/swap-child.ts');
    for (const killAfter of [1, 4, 8, 12]) {
      const sd = serviceDir(configWith('0 0 255'));
      const staging = path.join(sd.dir, '.mlds-staging');
      cpSync(sd.dir, path.join(root, 'stage-src'), { recursive: true });
      writeFileSync(path.join(root, 'stage-src', 'config.json'), JSON.stringify(configWith('0 200 0')));
      cpSync(path.join(root, 'stage-src'), staging, { recursive: true });
      rmSync(path.join(root, 'stage-src'), { recursive: true });
      const p = spawn(process.execPath, ['--import', 'tsx', child, 'swap', sd.dir, 'pause'], {
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      let steps = 0;
      await new Promise<void>((resolve) => {
        p.stdout.on('data', (b: Buffer) => {
          for (const line of b.toString().split('\n')) {
            if (!line.startsWith('step ')) continue;
            if (++steps >= killAfter) {
              p.kill('SIGKILL');
              return;
            }
            p.stdin.write('\n');
          }
        });
        p.on('exit', () => resolve());
      });
      const svc = await start(sd);
      try {
        const bg = svc.runtime.config.displays[0].layouts
          .get('l1')!
          .areas.find((a) => a.id === 'title')!.backgroundColor!;
        assert.ok(bg.b === 255 || bg.g === 200, `after step ${killAfter}: old or new`);
        const text = readFileSync(sd.configFile, 'utf8');
        assert.ok(
          text === JSON.stringify(configWith('0 200 0')) ||
            JSON.parse(text).displays.main.layout.l1.title.backgroundColor === '0 0 255',
        );
        assert.equal((await get(svc, '/status')).json.service, 'mlds');
      } finally {
        await svc.close();
        sd.cleanup();
      }
    }
  },
);
