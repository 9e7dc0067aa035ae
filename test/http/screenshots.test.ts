// The screenshot coordinator with an encoder the test controls: which requests share an
// encode, how many run at once, and when the queue refuses.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MldsError } from '../../src/errors.js';
import type { Frame } from '../../src/output/types.js';
import { Screenshots, type ShotRequest } from '../../src/http/screenshots.js';
import type { ImageFormat } from '../../src/render/encode.js';

/** An encoder whose encodes finish when the test says; it records every call and the most in flight at once. */
function heldEncoder() {
  const calls: Array<{ frame: Frame; format: ImageFormat; finish(): void }> = [];
  let inFlight = 0;
  let peak = 0;
  const encode = (frame: Frame, _w: number, _h: number, format: ImageFormat) =>
    new Promise<Buffer>((resolve) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      calls.push({
        frame,
        format,
        finish: () => {
          inFlight--;
          resolve(Buffer.from(`${format}:${frame.seq}`));
        },
      });
    });
  return { encode, calls, peak: () => peak };
}

const frame = (seq: number): Frame => ({ width: 4, height: 2, data: new Uint8Array(32), seq });
const tick = () => new Promise((r) => setImmediate(r));

/** A display whose current frame the test sets. */
function display(id: string) {
  let current: Frame | undefined = frame(1);
  return {
    set: (f: Frame | undefined) => {
      current = f;
    },
    req: (format: ImageFormat = 'png'): ShotRequest => ({
      displayId: id,
      width: 4,
      height: 2,
      format,
      latest: () => current,
    }),
  };
}

describe('screenshot coordinator', () => {
  test('fifty requests for one frame make one encode; the next frame makes one more', async () => {
    const enc = heldEncoder();
    const shots = new Screenshots({ encode: enc.encode });
    const d = display('a');
    const first = Array.from({ length: 50 }, () => shots.get(d.req()));
    await tick();
    assert.equal(enc.calls.length, 1);
    enc.calls[0].finish();
    assert.deepEqual(new Set((await Promise.all(first)).map(String)), new Set(['png:1']));
    // Finished: later requests for the same frame get the same image without encoding.
    assert.equal(String(await shots.get(d.req())), 'png:1');
    assert.equal(enc.calls.length, 1);
    // Another format is another image; a new frame is another encode.
    const jpeg = shots.get(d.req('jpeg'));
    await tick();
    enc.calls[1].finish();
    assert.equal(String(await jpeg), 'jpeg:1');
    d.set(frame(2));
    const next = [shots.get(d.req()), shots.get(d.req())];
    await tick();
    assert.equal(enc.calls.length, 3);
    enc.calls[2].finish();
    assert.deepEqual((await Promise.all(next)).map(String), ['png:2', 'png:2']);
    assert.equal(shots.stats().encodes, 3);
  });

  test('requests arriving during an encode of an older frame wait for one encode of the newest frame', async () => {
    const enc = heldEncoder();
    const shots = new Screenshots({ encode: enc.encode });
    const d = display('a');
    const old = shots.get(d.req());
    await tick();
    d.set(frame(2));
    const waiting = [shots.get(d.req())];
    d.set(frame(3));
    waiting.push(shots.get(d.req()));
    await tick();
    assert.equal(enc.calls.length, 1, 'a second encode started while the first was running');
    enc.calls[0].finish();
    assert.equal(String(await old), 'png:1');
    await tick();
    assert.equal(enc.calls.length, 2);
    assert.equal(enc.calls[1].frame.seq, 3, 'the waiting encode takes the newest frame');
    enc.calls[1].finish();
    assert.deepEqual((await Promise.all(waiting)).map(String), ['png:3', 'png:3']);
  });

  for (const bound of [1, 2]) {
    test(`never more than ${bound} encode(s) at once; a full queue answers 503 and loses nothing queued`, async () => {
      const enc = heldEncoder();
      const shots = new Screenshots({ encode: enc.encode, maxConcurrent: bound, maxQueued: 3 });
      const displays = Array.from({ length: 8 }, (_, i) => display(`d${i}`));
      const accepted: Array<Promise<Buffer>> = [];
      let refused = 0;
      for (const d of displays) {
        for (const format of ['png', 'jpeg'] as const) {
          try {
            accepted.push(shots.get(d.req(format)));
          } catch (err) {
            assert.ok(err instanceof MldsError && err.code === 'MLDS_UNAVAILABLE' && err.status === 503, String(err));
            refused++;
          }
        }
      }
      assert.equal(accepted.length, bound + 3);
      assert.equal(refused, 16 - bound - 3);
      // Finish encodes one by one as they start; the bound holds throughout.
      for (let done = 0; done < accepted.length; done++) {
        await tick();
        assert.ok(enc.calls.length <= done + bound, `${enc.calls.length} encodes started with ${done} finished`);
        enc.calls[done].finish();
      }
      assert.equal((await Promise.all(accepted)).length, bound + 3);
      assert.equal(enc.peak(), bound);
      assert.equal(shots.stats().peakRunning, bound);
      assert.equal(shots.stats().refused, refused);
      // With the queue drained, a refused display is served.
      const again = shots.get(displays[7].req('jpeg'));
      await tick();
      enc.calls.at(-1)!.finish();
      assert.equal(String(await again), 'jpeg:1');
    });
  }

  test('a failed encode fails its waiters only; the next request tries again', async () => {
    let fail = true;
    let calls = 0;
    const shots = new Screenshots({
      encode: async (f) => {
        calls++;
        if (fail) throw new Error('cairo said no');
        return Buffer.from(`ok:${f.seq}`);
      },
    });
    const d = display('a');
    const both = [shots.get(d.req()), shots.get(d.req())];
    for (const p of both) await assert.rejects(p, /cairo said no/);
    fail = false;
    assert.equal(String(await shots.get(d.req())), 'ok:1');
    assert.equal(calls, 2);
  });

  test('a display without a frame is 503, not an encode', () => {
    let calls = 0;
    const shots = new Screenshots({
      encode: async () => {
        calls++;
        return Buffer.alloc(0);
      },
    });
    const d = display('a');
    d.set(undefined);
    assert.throws(
      () => shots.get(d.req()),
      (e: unknown) => e instanceof MldsError && e.status === 503,
    );
    assert.equal(calls, 0);
  });
});
