// A unit's package files replaced under the running service the way cp, scp and rsync --inplace
// replace them: the same inode, cut short while the copy runs, then filled with another build's
// text. dist/launch.cjs reads the bundle once; nothing of dist/ is read again after the start, so
// the service keeps answering through every part it compiles or loads only when first used:
// /metrics, /info, the screenshot encoder's thread, video and web areas, a departures board and
// its feed's decoding thread, MQTT, crons, a reload,
// the code cache written after the start.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { CHROMIUM } from '../../src/media/browser.js';
import { nativeHelperProblem } from '../../src/native/helper.js';
import { Broker, hasMosquitto, Watcher } from '../helpers/broker.js';
import { LISTEN_MS } from '../helpers/emulation.js';
import { REPO, baseConfig, decode, near, serviceDir, until, type ServiceDir } from '../helpers/service.js';
import { sink, type Sink } from '../helpers/sink.js';
import { skipReason } from '../helpers/skip.js';
import { BARS, makeBars } from '../media/helpers.js';

const BUNDLE = path.join(REPO, 'dist/bundle/mlds.cjs');
const skip = skipReason(
  !existsSync(BUNDLE)
    ? `${BUNDLE} is missing: run make build`
    : !hasMosquitto()
      ? 'mosquitto is not installed (make test-deps)'
      : !existsSync(CHROMIUM)
        ? `no Chromium at ${CHROMIUM} (set MLDS_CHROMIUM to another)`
        : undefined,
);

let broker: Broker;
let far: Sink;

before(async () => {
  if (skip) return;
  broker = await new Broker().start();
  far = await sink();
  // The web area's page: red all over.
  far.answer = (req, res) => {
    if (req.url === '/red')
      res
        .writeHead(200, { 'Content-Type': 'text/html' })
        .end('<!doctype html><body style="margin:0;background:#f00"></body>');
    else if (req.url === '/siri') {
      if (siriUp) res.writeHead(200, { 'Content-Type': 'application/xml' }).end(siri());
      else res.writeHead(503).end();
    } else res.end('ok');
  };
});
after(async () => {
  await broker?.cleanup();
  far?.close();
});

/** The feed answers 503 until the package is damaged, so its decoding thread starts afterwards. */
let siriUp = false;

/** A SIRI StopMonitoring delivery: line 7 leaves stop S1 in ten minutes. */
function siri(): string {
  const at = new Date(Date.now() + 600_000).toISOString();
  return (
    '<Siri xmlns="http://www.siri.org.uk/siri" version="2.0"><ServiceDelivery>' +
    `<ResponseTimestamp>${new Date().toISOString()}</ResponseTimestamp><StopMonitoringDelivery>` +
    '<MonitoredStopVisit><MonitoringRef>S1</MonitoringRef><MonitoredVehicleJourney><LineRef>L7</LineRef>' +
    '<PublishedLineName>7</PublishedLineName><DestinationName>Airport</DestinationName>' +
    `<MonitoredCall><StopPointRef>S1</StopPointRef><AimedDepartureTime>${at}</AimedDepartureTime>` +
    `<ExpectedDepartureTime>${at}</ExpectedDepartureTime></MonitoredCall>` +
    '</MonitoredVehicleJourney></MonitoredStopVisit></StopMonitoringDelivery></ServiceDelivery></Siri>'
  );
}

/** A copy of the package whose dist/ the test may damage: dist/ copied, the rest linked. */
function packageCopy(): { root: string; dist: string; cleanup(): void } {
  const root = mkdtempSync(path.join(tmpdir(), 'mlds-package-'));
  cpSync(path.join(REPO, 'dist'), path.join(root, 'dist'), { recursive: true });
  for (const f of ['package.json', 'node_modules', 'native', 'fonts', 'images'])
    symlinkSync(path.join(REPO, f), path.join(root, f));
  return { root, dist: path.join(root, 'dist'), cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

/** Every file of dist/ cut short where it stands, the bundle at 400000 bytes: a copy under way. */
function truncateAll(dist: string): void {
  for (const f of filesUnder(dist))
    truncateSync(f, f.endsWith('mlds.cjs') ? 400_000 : Math.floor(statSync(f).size / 2));
}

/** Every file of dist/ rewritten in place with 37 bytes more near its start: another build, copied over it. */
function rewriteAll(dist: string): void {
  const extra = Buffer.from('/* another build, copied in place'.padEnd(35) + '*/');
  assert.equal(extra.length, 37);
  for (const f of filesUnder(dist)) {
    const text = readFileSync(f),
      ino = statSync(f).ino;
    // The bundle's comment goes inside its module wrapper, where a build would put code.
    const at = f.endsWith('mlds.cjs') ? text.indexOf('{') + 1 : 0;
    writeFileSync(f, Buffer.concat([text.subarray(0, at), extra, text.subarray(at)]));
    assert.equal(statSync(f).ino, ino, `${f} was replaced, not rewritten in place`);
  }
}

interface Running {
  child: ChildProcess;
  url: string;
  output(): string;
}

async function launch(root: string, sd: ServiceDir, cacheDir: string): Promise<Running> {
  const child = spawn(
    process.execPath,
    [path.join(root, 'dist/launch.cjs'), 'start', '--config', sd.configFile, '--port', '0', '--state-dir', sd.stateDir],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      // The code cache is written while the test runs, after the files have changed.
      env: { ...process.env, MLDS_CODE_CACHE_DIR: cacheDir, MLDS_CODE_CACHE_AFTER_MS: '3000' },
    },
  );
  let out = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  await until(() => /listening on port \d+/.test(out) || child.exitCode !== null, LISTEN_MS, 'the service to listen');
  assert.equal(child.exitCode, null, out);
  // The start's memory release is over (what it keeps and drops is part of what is tested).
  if (!nativeHelperProblem())
    await until(() => out.includes('memory of the start released'), 10_000, 'the memory release after the start');
  return { child, url: `http://127.0.0.1:${/listening on port (\d+)/.exec(out)![1]}`, output: () => out };
}

async function stop(s: Running): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return;
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGTERM');
  await exited;
}

/** A GET that says how the service ended when it cannot answer. */
async function ask(
  s: Running,
  pathAndQuery: string,
  init: RequestInit = {},
): Promise<{ status: number; type: string; bytes: Buffer; text: string }> {
  try {
    const res = await fetch(s.url + pathAndQuery, init);
    const bytes = Buffer.from(await res.arrayBuffer());
    return { status: res.status, type: res.headers.get('content-type') ?? '', bytes, text: bytes.toString('utf8') };
  } catch (err) {
    await until(() => s.child.exitCode !== null || s.child.signalCode !== null, 2000, 'the service to end').catch(
      () => undefined,
    );
    throw new Error(
      `GET ${pathAndQuery}: ${(err as Error).message}; the service ended with code ${s.child.exitCode}, signal ` +
        `${s.child.signalCode}:\n${s.output().slice(-2000)}`,
      { cause: err },
    );
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function config(): Record<string, any> {
  const c = baseConfig();
  c.displays.main.layout.v = {
    vid: { coordinates: '0 0 159 89', type: 'video', params: { bars: 'bars.mp4' }, backgroundColor: '40 40 40' },
  };
  c.displays.main.layout.w = {
    page: { coordinates: '0 0 199 99', type: 'web', params: { red: far.url('/red') }, backgroundColor: '30 30 30' },
  };
  c.displays.main.layout.b = {
    deps: {
      coordinates: '0 0 199 19',
      type: 'departures',
      feed: 'f',
      stops: ['S1'],
      rows: '1',
      columns: [
        { field: 'route', width: '30' },
        { field: 'destination', width: '120' },
      ],
    },
  };
  c.feeds = { f: { type: 'siri', url: far.url('/siri'), interval: '5' } };
  c.mqtt = { url: broker.url, unit: 'u1' };
  c.crons = [{ type: 'sendInfo', value: far.url('/info'), cron: '* * * * * *' }];
  return c;
}

/** Every part the service compiles or loads when first used, each checked by what it answers. */
async function useEverything(s: Running, w: Watcher): Promise<void> {
  const ok = async (p: string) => {
    const r = await ask(s, p);
    assert.equal(r.status, 200, `${p}: ${r.text}`);
    return r;
  };
  const shot = async () => decode((await ok('/screenshot?id=main')).bytes);

  assert.match((await ok('/metrics')).text, /^mlds_frames_rendered_total\{unit="[^"]+",[^}]*\} \d+/m);
  assert.match((await ok('/info')).text, /Test display/);
  assert.equal((await ok('/status')).type.startsWith('application/json'), true);

  // A text, a picture, and the JPEG encoder's thread drawing the screenshot.
  await ok('/mlds?id=main&layout=l1&title=Hi&pic=bus');
  await until(
    async () => near((await shot()).at(190, 40), [0, 0, 255]),
    10_000,
    "the title's blue background on a screenshot",
  );

  // A video area: ffmpeg's frames, the first second's red and blue bars.
  await ok('/mlds?id=main&layout=v&vid=bars');
  await until(
    async () => {
      const p = await shot();
      return BARS.some((b) => near(p.at(40, 45), b.left, 48) && near(p.at(120, 45), b.right, 48));
    },
    20_000,
    "the video's bars",
  );

  // A web area: Chromium through playwright-core, which loads with the first web area.
  await ok('/mlds?id=main&layout=w&page=red');
  await until(async () => near((await shot()).at(100, 50), [255, 0, 0]), 60_000, "the web page's red");

  // A departures board, its SIRI feed decoded in the feeds' thread, which starts now.
  siriUp = true;
  await ok('/mlds?id=main&layout=b');
  await until(
    async () => {
      const st = JSON.parse((await ok('/status')).text) as {
        displays: Array<{ id: string; areas: Array<{ id: string; text?: string }> }>;
      };
      return st.displays.find((d) => d.id === 'main')?.areas.find((a) => a.id === 'deps')?.text === '7\tAirport';
    },
    30_000,
    'the departure on the board',
  );

  // MQTT: a command and its confirmation.
  await w.publish('mlds/u1/cmd', 'id=main&layout=l2&other=Mqtt&inumber=m1');
  await until(
    () =>
      w
        .on('mlds/u1/confirm')
        .some((m) => (JSON.parse(m.payload) as { inumber: string; confirm: number }).inumber === 'm1'),
    10_000,
    'the MQTT confirmation',
  );
  const confirmation = JSON.parse(w.on('mlds/u1/confirm').find((m) => m.payload.includes('"m1"'))!.payload) as {
    confirm: number;
  };
  assert.equal(confirmation.confirm, 1);

  // The cron's POST of /info, every second.
  const posted = far.got.length;
  await until(
    () => far.got.slice(posted).some((r) => r.url === '/info' && r.method === 'POST'),
    10_000,
    "a cron's POST of /info",
  );

  const faulty = await ask(s, '/mlds?id=main&layout=nope');
  assert.equal(faulty.status, 400);
  assert.equal((JSON.parse(faulty.text) as { code: string }).code, 'MLDS_UNKNOWN_LAYOUT');
  await ok('/history?id=main');
  await ok('/reload_config');
  assert.ok((await ask(s, '/getethernetconfig')).status < 500, '/getethernetconfig');
  // The code cache, written from the script compiled at the start.
  await until(
    async () => {
      const cache = (JSON.parse((await ok('/status')).text) as { codeCache: { written?: string; error?: string } })
        .codeCache;
      assert.equal(cache.error, undefined);
      return cache.written !== undefined;
    },
    20_000,
    'the code cache to be written',
  );
  assert.equal(s.child.exitCode, null);
  assert.equal(s.child.signalCode, null);
}

async function damagedWhileRunning(damage: (dist: string) => void): Promise<void> {
  const pkg = packageCopy();
  const sd = serviceDir(config());
  makeBars(path.join(sd.dir, 'images/bars.mp4'));
  const cacheDir = mkdtempSync(path.join(tmpdir(), 'mlds-code-cache-'));
  const w = await Watcher.open(broker.url, ['mlds/u1/#']);
  siriUp = false;
  const s = await launch(pkg.root, sd, cacheDir);
  try {
    await until(
      () => w.on('mlds/u1/availability').some((m) => m.payload === 'online'),
      10_000,
      'the unit online on MQTT',
    );
    damage(pkg.dist);
    await useEverything(s, w);
  } finally {
    await stop(s);
    await w.close();
    sd.cleanup();
    pkg.cleanup();
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

test(
  'dist/ cut short under the running service (the bundle at 400000 bytes): every part still answers',
  { skip, timeout: LISTEN_MS + 180_000 },
  async () => {
    await damagedWhileRunning(truncateAll);
  },
);

test(
  'dist/ rewritten in place under the running service, 37 bytes longer: every part still answers',
  { skip, timeout: LISTEN_MS + 180_000 },
  async () => {
    await damagedWhileRunning(rewriteAll);
  },
);
