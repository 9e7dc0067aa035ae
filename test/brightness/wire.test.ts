// Brightness reaching the wire, without redrawing the layout: DDP pixel values scaled in linear
// light, the Colorlight brightness packet byte (as root, on a veth pair), and a fake sysfs
// backlight folder written by fbdev. A change of 1 % is sent too, and in every case the
// compositor draws nothing new: the frame already drawn goes out again with the new level.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { RunningService } from '../../src/main.js';
import { FbdevOutput } from '../../src/output/fbdev.js';
import { brightnessByte } from '../../src/output/colorlight-protocol.js';
import { nativeHelperProblem } from '../../src/native/helper.js';
import { brightnessTable, FORMATS } from '../../src/output/pixel-format.js';
import { FakeClock } from '../helpers/clock.js';
import { baseConfig, get, serviceDir, start } from '../helpers/service.js';
import { startCard, type Card } from '../output/colorlight-card.js';
import { ddpReceiver } from '../output/ddp-receiver.js';
import { rgbOf, waitFor } from '../output/frames.js';
import { createVethNs, netnsUnavailable, type VethNs } from '../output/netns.js';
import { fakeRuntime } from '../helpers/fake-runtime.js';
import { skipReason } from '../helpers/skip.js';
import { redrawn } from '../helpers/wait.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const W = 32,
  H = 8;

function panel(output: Obj): Obj {
  const c = baseConfig();
  c.displays = {
    panel: {
      ...c.displays.main,
      displayWidth: String(W),
      displayHeight: String(H),
      sensorBrightness: true,
      output,
      layout: {
        l: {
          t: {
            coordinates: `0 0 ${W - 1} ${H - 1}`,
            type: 'text',
            fontSize: '7',
            fontColor: '255 255 255',
            backgroundColor: '200 100 50',
          },
        },
      },
    },
  };
  return c;
}

/** What the compositor has drawn: its frame number and how many renders the loop did. */
async function drawn(svc: RunningService): Promise<{ seq: number; rendered: number }> {
  const st = (await get(svc, '/status')).json as Obj;
  return { seq: svc.api.frame('panel')!.seq, rendered: st.displays[0].frames.rendered };
}

test('DDP: brightness scales the pixel values on the wire; the layout is not drawn again', async () => {
  const rx = await ddpReceiver(W * H * 3);
  const c = panel({ driver: 'ddp' });
  c.displays.panel.displayPort = String(rx.port);
  const sd = serviceDir(c);
  let svc: RunningService | undefined;
  try {
    svc = await start(sd);
    assert.equal((await get(svc, '/mlds?id=panel&layout=l&t=Hi')).status, 200);
    await waitFor('the layout on the wire', () => rx.pictures.length >= 2 && rx.pictures.at(-1)!.some((b) => b !== 0));
    await redrawn(svc, 'panel');
    const before = await drawn(svc);
    const rgb = rgbOf(svc.api.frame('panel')!);
    assert.ok(rx.pictures.at(-1)!.equals(rgb), 'at 100 % the wire carries the frame as drawn');

    for (const percent of [50, 49]) {
      const n = rx.pictures.length;
      assert.equal((await get(svc, `/brightness/${percent}?id=panel`)).status, 200);
      await waitFor(`the picture at ${percent} %`, () => rx.pictures.length > n);
      const lut = brightnessTable(percent)!;
      assert.ok(
        rx.pictures.at(-1)!.equals(Buffer.from(rgb.map((v) => lut[v]))),
        `${percent} %: every byte through the linear-light table`,
      );
      assert.equal(rx.pictures.length, n + 1, 'one picture for the change');
      assert.deepEqual(await drawn(svc), before, `${percent} %: nothing drawn again`);
    }
    assert.equal(((await get(svc, '/status')).json as Obj).displays[0].output.details.brightness, 49);
  } finally {
    await svc?.close();
    sd.cleanup();
    await rx.close().catch(() => undefined);
  }
});

const clSkip = netnsUnavailable() ?? skipReason(nativeHelperProblem());

test('Colorlight: the brightness packet carries the level; the rows stay as drawn', { skip: clSkip }, async () => {
  const v: VethNs = createVethNs('cb');
  let card: Card | undefined, svc: RunningService | undefined;
  const sd = serviceDir(panel({ driver: 'colorlight', interface: v.host }));
  try {
    card = await startCard(v, ['1', '13', '4', String(W), String(H)]);
    svc = await start(sd);
    assert.equal((await get(svc, '/mlds?id=panel&layout=l&t=Hi')).status, 200);
    const levels = () => card!.packets.filter((p) => p[12] === 0x0a).map((p) => p[13]);
    await waitFor('pictures at full brightness', () => levels().includes(255) && levels().length >= 2);
    await redrawn(svc, 'panel');
    const before = await drawn(svc);
    for (const percent of [40, 41]) {
      const n = card.packets.length;
      assert.equal((await get(svc, `/brightness/${percent}?id=panel`)).status, 200);
      await waitFor(`the brightness packet at ${percent} %`, () => card!.packets.slice(n).some((p) => p[12] === 0x01));
      const sent = card.packets.slice(n);
      assert.deepEqual(
        [...new Set(sent.filter((p) => p[12] === 0x0a).map((p) => p[13]))],
        [brightnessByte(percent)],
        `${percent} %: byte ${brightnessByte(percent)}`,
      );
      assert.deepEqual(
        [...new Set(sent.filter((p) => p[12] === 0x01).map((p) => p[13 + 22]))],
        [brightnessByte(percent)],
        'the sync packet carries it too',
      );
      // The picture did not change, so rows go out only with the periodic whole picture; any that do are as drawn.
      const rgb = rgbOf(svc.api.frame('panel')!);
      for (const p of sent.filter((q) => q[12] === 0x55)) {
        const at = (p.readUInt16BE(13) * W + p.readUInt16BE(15)) * 3;
        assert.ok(
          p.subarray(21).equals(rgb.subarray(at, at + p.length - 21)),
          'the cards dim themselves: pixels go out as drawn',
        );
      }
      assert.deepEqual(await drawn(svc), before, `${percent} %: nothing drawn again`);
    }
  } finally {
    await svc?.close();
    card?.stop();
    v.destroy();
    sd.cleanup();
  }
});

test(
  'fbdev: the backlight in a sysfs folder takes the level, pixels stay as drawn',
  { skip: skipReason(nativeHelperProblem()) },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mlds-bl-'));
    const fb = join(dir, 'fb'),
      backlight = join(dir, 'intel_backlight');
    writeFileSync(fb, Buffer.alloc(W * H * 4));
    mkdirSync(backlight);
    writeFileSync(join(backlight, 'max_brightness'), '255\n');
    writeFileSync(join(backlight, 'brightness'), '10\n');
    const fmt = FORMATS.XRGB8888;
    const geometry = {
      var: { ...fmt, xres: W, yres: H, xresVirtual: W, yresVirtual: H, xoffset: 0, yoffset: 0, grayscale: 0 },
      fix: { id: 'test', smemLen: W * H * 4, lineLength: W * 4, type: 0, visual: 2, ypanstep: 1 },
    };
    const sd = serviceDir(panel({ driver: 'virtual' }));
    const rt = await fakeRuntime(sd, new FakeClock(), {}, () => new FbdevOutput(fb, { geometry, backlight }));
    try {
      const level = () => readFileSync(join(backlight, 'brightness'), 'utf8').trim();
      assert.equal(level(), '255', 'nothing else rules: full brightness, written to the backlight');
      for (const [percent, want] of [
        [40, '102'],
        [41, '105'],
      ] as const) {
        await rt.component.setManual(['panel'], percent);
        assert.equal(level(), want, `${percent} % of max_brightness 255`);
      }
      const out = [...rt.units.values()][0].output as FbdevOutput;
      assert.match(out.describe().brightnessBy, /^backlight /);
      // the passing of time is what is tested: no scaled picture reaches the framebuffer within 50 ms.
      await new Promise((r) => setTimeout(r, 50));
      const mem = readFileSync(fb);
      assert.deepEqual(
        [...mem.subarray(0, 4)],
        [200, 200, 200, 0],
        'the picture is not scaled when a backlight dims it',
      );
    } finally {
      await rt.stop();
      sd.cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
