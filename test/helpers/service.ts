// Shared by the service-level tests: a throw-away service directory, a service on a free
// loopback port, HTTP helpers, and decoded screenshot pixels.
import { loadImage, createCanvas } from 'canvas';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { cpSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startService, type RunningService, type StartOptions } from '../../src/main.js';
import { redrawn, until } from './wait.js';

export { until };

export const REPO = path.resolve(import.meta.dirname, '../..');

// A service a test starts (in this process or a child) announces nothing on this machine's
// networks unless its configuration has an `mdns` section: the mDNS tests write one for `lo`
// or a namespace of their own.
process.env.MLDS_MDNS ??= 'off';

export interface ServiceDir {
  dir: string;
  configFile: string;
  stateDir: string;
  cleanup(): void;
}

/** A temporary service directory holding `config` and a copy of the example images. */
export function serviceDir(config: unknown): ServiceDir {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-test-'));
  cpSync(path.join(REPO, 'examples/images'), path.join(dir, 'images'), { recursive: true });
  mkdirSync(path.join(dir, 'fonts'));
  const configFile = path.join(dir, 'config.json');
  writeFileSync(configFile, JSON.stringify(config, null, 1));
  return {
    dir,
    configFile,
    stateDir: path.join(dir, 'state'),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The arguments of `node` that run `mlds start` with the configuration of `sd` on a free port, then `args`. */
export function cliStart(sd: ServiceDir, ...args: string[]): string[] {
  return ['--import', 'tsx', path.join(REPO, 'src/cli.ts'), 'start', '--config', sd.configFile, '--port', '0', ...args];
}

/** `mlds test` on the configuration of `sd`, its output in `sd`'s folder `out`, run to its end (at most 2 min). */
export function mldsTest(sd: ServiceDir): SpawnSyncReturns<string> {
  const args = ['--import', 'tsx', path.join(REPO, 'src/cli.ts'), 'test', '--config', sd.configFile];
  return spawnSync(process.execPath, [...args, '--out', path.join(sd.dir, 'out')], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 120_000,
  });
}

export async function start(sd: ServiceDir, extra: Partial<StartOptions> = {}): Promise<RunningService> {
  return startService({
    configFile: sd.configFile,
    port: 0,
    host: '127.0.0.1',
    stateDir: sd.stateDir,
    logToStdout: false,
    ...extra,
  });
}

export interface Reply {
  status: number;
  headers: Headers;
  json: Record<string, unknown>;
  text: string;
  bytes: Buffer;
}

export async function get(svc: { url: string }, pathAndQuery: string, init: RequestInit = {}): Promise<Reply> {
  const res = await fetch(svc.url + pathAndQuery, init);
  const bytes = Buffer.from(await res.arrayBuffer());
  const text = bytes.toString('utf8');
  let json: Record<string, unknown> = {};
  if ((res.headers.get('content-type') ?? '').includes('json')) json = JSON.parse(text) as Record<string, unknown>;
  return { status: res.status, headers: res.headers, json, text, bytes };
}

/**
 * Waits until the display's unit has drawn a frame newer than `afterSeq`, and then until a
 * frame holding every change committed so far has reached its output: changes that arrive
 * together are drawn at most once per period, so the first new frame may hold an earlier
 * command with this one due in the next period.
 */
export async function nextFrame(svc: RunningService, id: string, afterSeq: number): Promise<void> {
  await until(() => (svc.api.frame(id)?.seq ?? -1) > afterSeq, 10_000, `a frame of ${id} after ${afterSeq}`);
  await redrawn(svc, id);
}

export interface Pixels {
  width: number;
  height: number;
  /** RGBA, row by row (opaque frames decode to their exact bytes: no premultiplication changes them). */
  data: Uint8ClampedArray;
  at(x: number, y: number): [number, number, number];
}

/** Decodes a JPEG or PNG as a browser would, for checking colours at coordinates. */
export async function decode(bytes: Buffer): Promise<Pixels> {
  const img = await loadImage(bytes);
  const c = createCanvas(img.width, img.height);
  const ctx = c.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const d = ctx.getImageData(0, 0, img.width, img.height).data;
  return {
    width: img.width,
    height: img.height,
    data: d,
    at: (x, y) => {
      const i = (y * img.width + x) * 4;
      return [d[i], d[i + 1], d[i + 2]];
    },
  };
}

/** The service's log file in `logDir` as text. */
export const logText = (logDir: string): string => readFileSync(path.join(logDir, 'mlds.log'), 'utf8');

/** The service's log file in `logDir`, one parsed JSON object a line. */
export const logLines = (logDir: string): Array<Record<string, unknown>> =>
  logText(logDir)
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** Colour equality within a JPEG's tolerance. */
export function near(actual: [number, number, number], expected: [number, number, number], tol = 12): boolean {
  return actual.every((v, i) => Math.abs(v - expected[i]) <= tol);
}

/** A minimal valid single-display configuration to mutate in tests. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function baseConfig(): Record<string, any> {
  return {
    port: '9199',
    effectDurationMs: '0',
    rateLimit: '100000',
    displays: {
      main: {
        displayName: 'Test display',
        displayIp: '127.0.0.1',
        displayPort: '9001',
        controllerType: 'T430',
        displayWidth: '200',
        displayHeight: '100',
        output: { driver: 'virtual' },
        layout: {
          l1: {
            title: {
              coordinates: '0 0 199 49',
              type: 'text',
              fontSize: '30',
              fontColor: '255 255 255',
              backgroundColor: '0 0 255',
              align: 'left',
            },
            sign: {
              coordinates: '0 50 99 99',
              type: 'static',
              fontSize: '20',
              params: { a: 'Alpha', b: 'Beta', def: 'Def' },
              defaultValue: 'def',
            },
            pic: { coordinates: '100 50 199 99', type: 'image', params: { logo: 'logo.png', bus: 'bus.png' } },
          },
          l2: {
            other: { coordinates: '0 0 199 99', type: 'text', fontSize: '40' },
          },
        },
      },
    },
  };
}

/**
 * The example configuration without its boot screens (info screen, logo), crons and poller
 * (its feed server runs only under `make run`), for tests and benches that measure the
 * content from the first second.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function exampleConfig(): Record<string, any> {
  const cfg = JSON.parse(readFileSync(path.join(REPO, 'examples/config.json'), 'utf8'));
  delete cfg.crons;
  delete cfg.pollers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  for (const d of Object.values(cfg.displays) as Array<Record<string, any>>) {
    d.infoScreenTtl = '0';
    if (d.startScreen) delete d.startScreen.image;
  }
  return cfg;
}
