// The real service driving real outputs: a DDP unit on loopback and, as root, a Colorlight unit
// on a veth pair, next to an fbdev unit whose device does not exist. What arrives on the wire
// must equal the service's own lossless screenshot; the broken unit is a warning on /status
// while the others keep running.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { baseConfig, decode, get, serviceDir, start } from '../helpers/service.js';
import type { RunningService } from '../../src/main.js';
import { nativeHelperProblem } from '../../src/native/helper.js';
import { ddpReceiver } from './ddp-receiver.js';
import { createVethNs, netnsUnavailable, type VethNs } from './netns.js';
import { pictures, startCard, type Card } from './colorlight-card.js';
import { waitFor } from './frames.js';
import { skipReason } from '../helpers/skip.js';
import { redrawn } from '../helpers/wait.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const W = 96,
  H = 24;

function layout(color: string): Obj {
  return {
    l: {
      t: {
        coordinates: `0 0 ${W - 1} ${H - 1}`,
        type: 'text',
        fontSize: '16',
        fontColor: '255 255 255',
        backgroundColor: color,
      },
    },
  };
}

/** The R,G,B bytes of the service's PNG screenshot of `id`. */
async function screenshotRgb(svc: RunningService, id: string): Promise<Buffer> {
  const px = await decode((await get(svc, `/screenshot?id=${id}&format=png`)).bytes);
  const b = Buffer.alloc(px.width * px.height * 3);
  for (let y = 0; y < px.height; y++) for (let x = 0; x < px.width; x++) b.set(px.at(x, y), (y * px.width + x) * 3);
  return b;
}

async function outputOf(svc: RunningService, id: string): Promise<Obj> {
  const st = (await get(svc, '/status')).json as Obj;
  return st.displays.find((d: Obj) => d.id === id).output;
}

test('service: DDP frames equal the screenshot, a missing fbdev is a warning, a lost DDP receiver shows', async () => {
  const rx = await ddpReceiver(W * H * 3);
  const c = baseConfig();
  const base = c.displays.main;
  c.displays = {
    wled: {
      ...base,
      displayWidth: String(W),
      displayHeight: String(H),
      displayPort: String(rx.port),
      output: { driver: 'ddp' },
      layout: layout('0 90 40'),
    },
    lcd: {
      ...base,
      displayWidth: String(W),
      displayHeight: String(H),
      output: { driver: 'fbdev', device: '/dev/fb-mlds-missing' },
      layout: layout('90 0 0'),
    },
  };
  const sd = serviceDir(c);
  let svc: RunningService | undefined;
  try {
    svc = await start(sd);
    await waitFor('the black start picture', () => rx.pictures.length >= 1);
    assert.ok(
      rx.pictures[0].every((b) => b === 0),
      'blank on restart: the first picture is black',
    );

    assert.equal((await get(svc, '/mlds?id=wled&layout=l&t=Gate%204')).status, 200);
    await waitFor('the picture of the command', () => rx.pictures.length >= 2);
    await waitFor('the frame to settle', () => false, 300).catch(() => undefined);
    const shot = await screenshotRgb(svc, 'wled');
    assert.ok(
      shot.some((b) => b !== 0),
      'the screenshot shows the layout',
    );
    assert.ok(rx.pictures.at(-1)!.equals(shot), 'the last DDP picture equals the lossless screenshot');

    const lcd = await outputOf(svc, 'lcd');
    assert.equal(lcd.driver, 'fbdev');
    assert.equal(lcd.open, false);
    assert.match(lcd.lastError, /ENOENT/);
    assert.ok(lcd.warnings.some((w: string) => /output not open/.test(w)));
    assert.equal(lcd.framesSent, 0);
    const wled = await outputOf(svc, 'wled');
    assert.equal(wled.lastResult, 'ok');
    assert.equal(wled.consecutiveFailures, 0);
    assert.ok(wled.framesSent >= 2);

    await rx.close();
    // A frame after another until a send finds the receiver gone.
    for (let i = 0; i < 20 && (await outputOf(svc, 'wled')).lastResult !== 'error'; i++) {
      await get(svc, `/mlds?id=wled&layout=l&t=${i}`);
      await redrawn(svc, 'wled');
    }
    const lost = await outputOf(svc, 'wled');
    assert.equal(lost.lastResult, 'error');
    assert.match(lost.lastError, /ECONNREFUSED/);
  } finally {
    await svc?.close();
    sd.cleanup();
    await rx.close().catch(() => undefined);
  }
});

const clSkip = netnsUnavailable() ?? skipReason(nativeHelperProblem());

test(
  'service: a Colorlight unit on a veth pair shows the screenshot, receivers on /status',
  { skip: clSkip },
  async () => {
    const v: VethNs = createVethNs('cs');
    let card: Card | undefined, svc: RunningService | undefined;
    const c = baseConfig();
    c.displays = {
      panel: {
        ...c.displays.main,
        displayWidth: String(W),
        displayHeight: String(H),
        output: { driver: 'colorlight', interface: v.host },
        layout: layout('0 0 120'),
      },
    };
    const sd = serviceDir(c);
    try {
      card = await startCard(v, ['1', '13', '4', String(W), String(H)]);
      svc = await start(sd);
      assert.equal((await get(svc, '/mlds?id=panel&layout=l&t=Hello')).status, 200);
      const got = () => pictures(card!.packets).filter((p) => p.kinds.at(-1) === 'sync');
      await waitFor('two pictures on the wire', () => got().length >= 2);
      await waitFor('the frame to settle', () => false, 300).catch(() => undefined);
      const shot = await screenshotRgb(svc, 'panel');
      const last = got().at(-1)!;
      const wire = Buffer.concat([...Array(H).keys()].flatMap((r) => last.rgb.get(r)!));
      assert.ok(wire.equals(shot), 'the reassembled rows equal the lossless screenshot');
      const out = await outputOf(svc, 'panel');
      assert.equal(out.driver, 'colorlight');
      assert.deepEqual(out.details.receivers, [{ card: 0, firmware: '13.4', cabinet: `${W}x${H}`, uptimeMs: 0x1234 }]);
      assert.deepEqual(out.warnings, []);
    } finally {
      await svc?.close();
      card?.stop();
      v.destroy();
      sd.cleanup();
    }
  },
);
