// Two units on one machine (two services on loopback, virtual outputs) started at different
// instants and given the same paged text at different instants turn their pages within one
// frame of each other, measured from the frames they make; a new command keeps the grid.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Frame } from '../../src/frame.js';
import type { RunningService } from '../../src/main.js';
import { get, nextFrame, serviceDir, start, until, type ServiceDir } from '../helpers/service.js';

const FPS = 50;
// [pt4o1]: 0.4 s on, 0.1 s off; page 2 keeps those times; [pt7]: 0.7 s, no off time. Cycle 1.7 s.
const TEXT = '[pt4o1]I[np]II[np][pt7]III';
const CYCLE = 1700;
const TURN_OFFSETS = [0, 400, 500, 900, 1000];

function config(): unknown {
  return {
    effectDurationMs: '0',
    rateLimit: '100000',
    fps: String(FPS),
    displays: {
      s: {
        displayWidth: '96',
        displayHeight: '16',
        output: { driver: 'virtual' },
        layout: {
          l: {
            m: {
              coordinates: '0 0 95 15',
              type: 'text',
              font: '7x13.bdf',
              fontSize: '13',
              markup: 'multi',
              fontColor: '255 255 255',
            },
          },
        },
      },
    },
  };
}

/** Lit pixels of a frame: which page shows (0 for an off time, else a multiple of the letter's). */
function lit(f: Frame): number {
  let n = 0;
  for (let i = 0; i < f.data.length; i += 4) if (f.data[i] > 128) n++;
  return n;
}

interface Turn {
  at: number;
  lit: number;
}

async function unit(): Promise<{ svc: RunningService; sd: ServiceDir; turns: Turn[]; stop(): void }> {
  const sd = serviceDir(config());
  const svc = await start(sd);
  const turns: Turn[] = [];
  let last = -1;
  const stop = svc.api.onFrame('s', (f) => {
    const n = lit(f);
    if (n !== last) {
      turns.push({ at: Date.now(), lit: n });
      last = n;
    }
  });
  return { svc, sd, turns, stop };
}

async function show(svc: RunningService, text: string): Promise<void> {
  const seq = svc.api.frame('s')?.seq ?? -1;
  const r = await get(svc, `/mlds?id=s&layout=l&m=${encodeURIComponent(text)}`);
  assert.equal(r.status, 200, r.text);
  await nextFrame(svc, 's', seq);
}

/**
 * Turns a frame apart at most, but for one within two: a turn's time is when the listener hears
 * of the frame, and a loaded machine's event loop can stall between the two units' frame timers
 * (a unit off the grid turns hundreds of milliseconds apart).
 */
function inStep(gaps: number[], frame: number): boolean {
  return Math.max(...gaps) <= 2 * frame && gaps.filter((g) => g > frame).length <= 1;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test(
  'two units turn MULTI pages within a frame of each other over ten turns; a command keeps the grid',
  { timeout: 60_000 },
  async () => {
    const a = await unit();
    // Started at a different instant, and given the same text 0.73 s later than the first.
    await sleep(410); // the passing of time is what is tested: the units must not start together
    const b = await unit();
    try {
      await show(a.svc, TEXT);
      await sleep(730);
      await show(b.svc, TEXT);
      const from = Date.now();
      const after = (u: { turns: Turn[] }) => u.turns.filter((t) => t.at > from);
      await until(() => after(a).length >= 11 && after(b).length >= 11, 20_000, 'ten page turns on each unit');
      const frame = 1000 / FPS;
      const ta = after(a).slice(0, 10),
        tb = after(b);
      const gaps: number[] = [];
      for (const t of ta) {
        // The same page on the other unit: the turn of equal lit count nearest in time.
        const match = tb
          .filter((x) => x.lit === t.lit)
          .sort((x, y) => Math.abs(x.at - t.at) - Math.abs(y.at - t.at))[0];
        assert.ok(match, `unit b never showed ${t.lit} lit pixels`);
        gaps.push(Math.abs(match.at - t.at));
      }
      console.log(`page turns of the two units apart (ms): ${gaps.join(' ')}; max ${Math.max(...gaps)}`);
      assert.ok(inStep(gaps, frame), `turns more than a frame (${frame} ms) apart: ${gaps.join(' ')}`);
      // On the wall clock's grid: turns just after their slots, counted from the epoch. The time is
      // when the listener hears of the frame, which a stall of a loaded machine's event loop makes
      // late for both units alike: the median says where the turns are.
      const lateness = ta
        .map((t) => Math.min(...TURN_OFFSETS.map((o) => (t.at - o + CYCLE) % CYCLE)))
        .sort((x, y) => x - y);
      assert.ok(lateness[5] <= frame, `turns after their slots on the epoch's grid (ms): ${lateness.join(' ')}`);
      // A new text with the same page times for one unit, mid-cycle: it turns when the other does.
      await sleep(CYCLE / 3);
      await show(a.svc, '[pt4o1]W[np]WW[np][pt7]WWW');
      const since = Date.now();
      await until(() => a.turns.filter((t) => t.at > since).length >= 5, 10_000, 'five turns of the new text');
      const newGaps = a.turns
        .filter((x) => x.at > since)
        .slice(0, 5)
        .map((t) => Math.min(...b.turns.map((x) => Math.abs(x.at - t.at))));
      console.log(`after a new command to one unit, its turns and the other's apart (ms): ${newGaps.join(' ')}`);
      assert.ok(inStep(newGaps, frame), `the new text turns off the grid: ${newGaps.join(' ')}`);
    } finally {
      a.stop();
      b.stop();
      await a.svc.close();
      await b.svc.close();
      a.sd.cleanup();
      b.sd.cleanup();
    }
  },
);
