// What the boot test and the image test read off a guest's panel: QEMU's screendump decoded, the
// panel's top-left corner of it, and the service's own screenshot in the same RGB layout.
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { decode } from '../../helpers/service.js';

export interface Rgb {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

/** A PNG's RGBA. */
export const rgba = (png: Buffer): Promise<Rgb> => decode(png);

/** The panel's top-left w x h of a screendump (RGB), and whether everything outside it is black. */
export function panel(dump: Rgb, w: number, h: number): { pixels: Buffer; blackOutside: boolean } {
  const out = Buffer.alloc(w * h * 3);
  let blackOutside = true;
  for (let y = 0; y < dump.height; y++) {
    for (let x = 0; x < dump.width; x++) {
      const i = (y * dump.width + x) * 4;
      if (x < w && y < h)
        dump.data.subarray(i, i + 3).forEach((v, k) => {
          out[(y * w + x) * 3 + k] = v;
        });
      else if (dump.data[i] | dump.data[i + 1] | dump.data[i + 2]) blackOutside = false;
    }
  }
  return { pixels: out, blackOutside };
}

export function rgbOf(shot: Rgb): Buffer {
  const out = Buffer.alloc(shot.width * shot.height * 3);
  for (let p = 0; p < shot.width * shot.height; p++) for (let k = 0; k < 3; k++) out[p * 3 + k] = shot.data[p * 4 + k];
  return out;
}

/** The RGB of pixel (x, y) of a w-wide panel. */
export const pixelAt = (px: Buffer, w: number, x: number, y: number) => [
  ...px.subarray((y * w + x) * 3, (y * w + x) * 3 + 3),
];

/** Polls fn every 250 ms until it gives something other than undefined or false. */
export async function until<T>(what: string, ms: number, fn: () => Promise<T | undefined | false>): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The panel the VM tests drive: a 320 x 96 LCD on /dev/fb0 with one two-area layout. */
export const PANEL = { width: 320, height: 96 };

/** The service's configuration for PANEL; `loadLastRequest`: whether its start screen shows the last request. */
export function panelConfig(infoScreenTtl: number, displayName: string, loadLastRequest = true): unknown {
  return {
    port: '9199',
    displays: {
      main: {
        displayName,
        displayIp: '127.0.0.1',
        displayWidth: String(PANEL.width),
        displayHeight: String(PANEL.height),
        infoScreenTtl: String(infoScreenTtl),
        sensorBrightness: 'false',
        output: { driver: 'fbdev', device: '/dev/fb0' },
        startScreen: { loadLastRequest },
        layout: {
          l: {
            line: {
              coordinates: '0 0 95 95',
              type: 'text',
              fontSize: '60',
              fontColor: '0 0 0',
              backgroundColor: '255 170 0',
              align: 'center',
            },
            dest: {
              coordinates: '100 0 319 95',
              type: 'text',
              fontSize: '40',
              fontColor: '40 200 255',
              backgroundColor: '0 0 64',
            },
          },
        },
      },
    },
  };
}

/** What the panel shows: black, the layout (the line area's orange at 2,2) or something else (the info screen). */
export const kindOf = (px: Buffer) =>
  px.every((v) => v === 0) ? 'black' : pixelAt(px, PANEL.width, 2, 2).join() === '255,170,0' ? 'content' : 'other';

/** The service's state as the tests read it over the forwarded port and from systemd in the guest. */
export function probes(m: { port: number; sh(cmd: string): Promise<{ out: string }> }) {
  const base = `http://127.0.0.1:${m.port}`;
  const unit = async (prop: string) => Number((await m.sh(`systemctl show -p ${prop} --value mlds`)).out.trim());
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const json = async (path: string): Promise<Record<string, any> | undefined> => {
    try {
      const r = await fetch(base + path, { signal: AbortSignal.timeout(20_000) });
      return r.status === 200 ? ((await r.json()) as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  };
  return {
    json,
    /** The service's own screenshot, as RGB. */
    shot: async () =>
      rgbOf(await rgba(Buffer.from(await (await fetch(`${base}/screenshot?id=main&format=png`)).arrayBuffer()))),
    showing: async () => (await json('/status'))?.components?.boot?.units?.[0]?.showing as string | undefined,
    mainPid: () => unit('MainPID'),
    restarts: () => unit('NRestarts'),
  };
}

/** Screendumps of a guest's panel into `work`; keep() copies the last one into `keepDir` under a name. */
export function dumper(m: { screendump(file: string): Promise<void> }, work: string, keepDir: string) {
  let dumps = 0;
  let last = '';
  rmSync(keepDir, { recursive: true, force: true });
  mkdirSync(keepDir, { recursive: true });
  const dump = async (): Promise<{ pixels: Buffer; blackOutside: boolean }> => {
    last = join(work, `dump-${++dumps}.png`);
    await m.screendump(last);
    return panel(await rgba(readFileSync(last)), PANEL.width, PANEL.height);
  };
  const keep = (name: string) => copyFileSync(last, join(keepDir, `${name}.png`));
  return {
    dump,
    keep,
    /** Screendumps without pause, recording each change of what the panel shows (kept as `prefix-N-kind`). */
    watch(prefix: string) {
      const seen: string[] = [];
      let watching = true;
      const done = (async () => {
        while (watching) {
          const kind = kindOf((await dump()).pixels);
          if (seen.at(-1) !== kind) {
            seen.push(kind);
            keep(`${prefix}-${seen.length}-${kind}`);
          }
        }
      })();
      return {
        seen,
        stop: async () => {
          watching = false;
          await done;
        },
      };
    },
    /** Screendumps until the panel shows `kind` (a frame reaches /dev/fb0 a moment after the service draws it). */
    panelShows: (kind: string, ms: number) =>
      until(`the panel showing ${kind}`, ms, async () => {
        const d = await dump();
        return kindOf(d.pixels) === kind ? d : undefined;
      }),
  };
}
