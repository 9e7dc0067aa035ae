// A one-display service for the sign-text tests: configure areas, send a value, decode the PNG screenshot.
import type { RunningService, StartOptions } from '../../src/main.js';
import type { FakeClock } from '../helpers/clock.js';
import { decode, get, nextFrame, serviceDir, start, until, type Pixels, type ServiceDir } from '../helpers/service.js';

export interface Sign {
  svc: RunningService;
  sd: ServiceDir;
  show(query: string): Promise<{ status: number; json: Record<string, unknown> }>;
  shot(): Promise<Pixels>;
  close(): Promise<void>;
}

export async function sign(
  areas: Record<string, unknown>,
  width = 192,
  height = 48,
  display: Record<string, string> = {},
  opts: Partial<StartOptions> = {},
): Promise<Sign> {
  const sd = serviceDir({
    effectDurationMs: '0',
    rateLimit: '100000',
    displays: {
      s: {
        displayWidth: String(width),
        displayHeight: String(height),
        output: { driver: 'virtual' },
        layout: { l: areas },
        ...display,
      },
    },
  });
  const svc = await start(sd, opts);
  return {
    svc,
    sd,
    async show(query) {
      const seq = svc.api.frame('s')?.seq ?? -1;
      const r = await get(svc, `/mlds?id=s&layout=l&${query}`);
      if (r.status === 200) await nextFrame(svc, 's', seq);
      return r;
    },
    async shot() {
      const r = await get(svc, '/screenshot?id=s&format=png');
      if (r.status !== 200) throw new Error(`screenshot: ${r.status} ${r.text}`);
      return decode(r.bytes);
    },
    async close() {
      await svc.close();
      sd.cleanup();
    },
  };
}

/** Distinct colours in a rectangle of a screenshot. */
export function colours(p: Pixels, x0: number, y0: number, w: number, h: number): Set<string> {
  const out = new Set<string>();
  for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) out.add(p.at(x, y).join(','));
  return out;
}

/** How many pixels of the screenshot have any red in them (the page-time tests' text is amber on black). */
export async function litCount(s: Sign): Promise<number> {
  const p = await s.shot();
  let n = 0;
  for (let y = 0; y < p.height; y++) for (let x = 0; x < p.width; x++) if (p.at(x, y)[0] > 0) n++;
  return n;
}

/** A step of `clock` by `ms`: waits up to `waitMs` for the frame it brings, then counts the lit pixels. */
export function clockStep(s: Sign, clock: FakeClock, waitMs: number): (ms: number) => Promise<number> {
  const frame = () => s.svc.api.frame('s')?.seq ?? -1;
  return async (ms) => {
    const seq = frame();
    clock.advance(ms);
    await until(() => frame() > seq, waitMs, `a frame after ${ms} ms`);
    return litCount(s);
  };
}
