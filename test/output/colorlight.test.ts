// Colorlight over real raw Ethernet: the output sends on one end of a veth pair, a stand-in
// receiver card in a network namespace captures on the other; every packet is checked byte by
// byte against the layout in src/output/colorlight-protocol.ts and the picture reassembled.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ColorlightOutput } from '../../src/output/colorlight.js';
import { OutputRunner } from '../../src/output/runner.js';
import { linkState, linkWarnings } from '../../src/output/link-speed.js';
import { nativeHelperProblem } from '../../src/native/helper.js';
import type { ColorlightDetails, Frame } from '../../src/output/types.js';
import { createVethNs, ip, netnsUnavailable } from './netns.js';
import { pictures, startCard, type Card } from './colorlight-card.js';
import { rgbOf, waitFor } from './frames.js';
import { skipReason } from '../helpers/skip.js';

const skip = netnsUnavailable() ?? skipReason(nativeHelperProblem());
const quiet = { warn: () => undefined, info: () => undefined };
function pattern(width: number, height: number): Frame {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      data.set([(x * 3 + y) & 255, (x >> 1) ^ (y * 40), (255 - x) & 255, 255], i);
    }
  }
  return { width, height, data, seq: 7 };
}

test(
  'colorlight: discovery, firmware 13 repeats, 497-pixel rows, brightness, reassembled picture',
  { skip },
  async () => {
    const v = createVethNs('cl');
    let card: Card | undefined;
    const runner = new OutputRunner(new ColorlightOutput(v.host, { discoveryTimeoutMs: 300 }), quiet);
    try {
      card = await startCard(v, ['1', '13', '2', '256', '128']);
      const w = 600,
        h = 6,
        frame = pattern(w, h);
      await runner.start(w, h);
      await runner.setBrightness(60);
      assert.equal(await runner.submit(frame), true);
      const perPicture = 2 + h * 2 + 2;
      await waitFor('two pictures', () => card!.packets.filter((p) => p[12] !== 0x07).length >= 2 * perPicture);

      const disc = card.packets.filter((p) => p[12] === 0x07);
      assert.deepEqual(
        disc.map((p) => p[16]),
        [0, 1],
        'card 0 answered, card 1 was asked and stayed silent',
      );
      for (const p of disc)
        assert.ok(
          p.subarray(13).every((b, i) => b === 0 || i === 3),
          'discovery carries only the index',
        );

      const pics = pictures(card.packets, [255, 153]);
      assert.equal(pics.length, 2);
      for (const pic of pics) {
        assert.deepEqual(pic.kinds, ['brightness', 'brightness', ...Array(h * 2).fill('row'), 'sync', 'sync']);
      }
      const black = Buffer.concat([...Array(h).keys()].flatMap((r) => pics[0].rgb.get(r)!));
      assert.ok(black.length === w * h * 3 && black.every((b) => b === 0), 'the first picture is black');
      const got = Buffer.concat([...Array(h).keys()].flatMap((r) => pics[1].rgb.get(r)!));
      assert.ok(got.equals(rgbOf(frame)), 'reassembled rows equal the frame, RGB order');
      assert.deepEqual(
        pics[1].rgb.get(0)!.map((b) => b.length / 3),
        [497, 103],
      );

      const health = runner.health();
      assert.equal(health.framesSent, 2);
      assert.deepEqual((health.details as ColorlightDetails).receivers, [
        { card: 0, firmware: '13.2', cabinet: '256x128', uptimeMs: 0x1234 },
      ]);
      assert.equal((health.details as ColorlightDetails).repeatSyncAndBrightness, true);
      assert.deepEqual(health.warnings, [], 'a veth reads 10000 Mbit/s: no speed warning');
    } finally {
      await runner.stop();
      card?.stop();
      v.destroy();
    }
  },
);

test('colorlight: older firmware gets one sync and one brightness; link down is a warning', { skip }, async () => {
  const v = createVethNs('cm');
  let card: Card | undefined;
  const out = new ColorlightOutput(v.host, { firmwareVersion: 7 });
  try {
    card = await startCard(v, ['0', '0', '0', '0', '0']);
    await out.open();
    const frame = pattern(32, 16);
    await out.send(frame);
    await waitFor('one picture', () => card!.packets.length >= 1 + 16 + 1);
    const [pic] = pictures(card.packets, [255]);
    assert.deepEqual(pic.kinds, ['brightness', ...Array(16).fill('row'), 'sync']);
    assert.ok(Buffer.concat([...Array(16).keys()].flatMap((r) => pic.rgb.get(r)!)).equals(rgbOf(frame)));

    ip('netns', 'exec', v.ns, 'ip', 'link', 'set', v.peer, 'down');
    await waitFor('carrier loss', () => linkState(v.host).state !== 'up', 2000);
    assert.match(linkWarnings(v.host, linkState(v.host)).join(), /link down/);
    assert.match(linkWarnings('eth9', { state: 'up', speedMbps: 100 }).join(), /100 Mbit\/s.*1 Gbit\/s/);
  } finally {
    await out.close();
    card?.stop();
    v.destroy();
  }
});

test('colorlight: a missing interface fails to open with ENODEV and the runner keeps going', { skip }, async () => {
  const runner = new OutputRunner(new ColorlightOutput('nosuchif0', { firmwareVersion: 13 }), quiet);
  assert.equal(await runner.submit(pattern(4, 4)), false);
  const h = runner.health();
  assert.match(h.lastError!, /ENODEV/);
  assert.ok(h.warnings.some((w) => /does not exist/.test(w)));
});
