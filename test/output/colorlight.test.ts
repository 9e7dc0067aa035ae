// Colorlight over real raw Ethernet: the output sends on one end of a veth pair, a stand-in
// receiver card in a network namespace captures on the other; every packet is checked byte by
// byte against the layout in src/output/colorlight-protocol.ts and the picture reassembled.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ColorlightOutput } from '../../src/output/colorlight.js';
import { OutputRunner } from '../../src/output/runner.js';
import { linkState, linkWarnings } from '../../src/output/link.js';
import { nativeHelperProblem } from '../../src/output/native.js';
import type { Frame } from '../../src/output/types.js';
import { createVethNs, ip, netnsUnavailable, type VethNs } from './netns.js';

const skip = netnsUnavailable() ?? nativeHelperProblem();
const quiet = { warn: () => undefined, info: () => undefined };
const CARD = fileURLToPath(new URL('./fixtures/colorlight-card.ts', import.meta.url));

interface Card { proc: ChildProcess; packets: Buffer[]; stop(): void }

async function startCard(v: VethNs, args: string[]): Promise<Card> {
  const proc = spawn('ip', ['netns', 'exec', v.ns, process.execPath, '--import', 'tsx', CARD, v.peer, ...args],
    { stdio: ['pipe', 'pipe', 'inherit'] });
  const packets: Buffer[] = [];
  const lines = createInterface({ input: proc.stdout! });
  await new Promise<void>((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`card exited with ${code}`)));
    lines.on('line', (l) => {
      if (l === 'ready') resolve();
      else if (l.startsWith('P ')) packets.push(Buffer.from(l.slice(2), 'base64'));
    });
  });
  return { proc, packets, stop: () => { proc.stdin!.end(); proc.kill(); } };
}

async function until(what: string, cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

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

const hex = (b: Buffer, from: number, to: number) => b.subarray(from, to).toString('hex');
const MACS = '112233445566' + '222233445566';

/** Checks one packet against the documented layout; returns its kind. */
function checkPacket(p: Buffer, level: number): 'brightness' | 'sync' | 'row' | 'discover' {
  assert.equal(hex(p, 0, 12), MACS, 'dst 11:22:33:44:55:66, src 22:22:33:44:55:66');
  switch (p[12]) {
    case 0x0a:
      assert.equal(p.length, 77, 'brightness packet is 77 bytes');
      assert.deepEqual([...p.subarray(13, 17)], [level, level, level, 0xff]);
      assert.ok(p.subarray(17).every((b) => b === 0), 'brightness tail is zero');
      return 'brightness';
    case 0x01: {
      assert.equal(p.length, 112, 'sync packet is 112 bytes');
      const want = new Uint8Array(112 - 13);
      want[0] = 0x07; want[22] = level; want[23] = 0x05; want[25] = want[26] = want[27] = level;
      assert.deepEqual([...p.subarray(13)], [...want]);
      return 'sync';
    }
    case 0x55: {
      const pixels = p.readUInt16BE(17);
      assert.ok(pixels >= 1 && pixels <= 497, 'at most 497 pixels per row packet');
      assert.equal(p.length, 21 + pixels * 3);
      assert.deepEqual([p[19], p[20]], [0x08, 0x88]);
      return 'row';
    }
    case 0x07:
      assert.equal(p.length, 284);
      return 'discover';
    default:
      throw new Error(`unexpected packet type 0x${p[12].toString(16)}`);
  }
}

/** Splits a capture into pictures (brightness.. rows.. sync) and checks each packet. */
function pictures(packets: Buffer[], level: number[]): Array<{ kinds: string[]; rgb: Map<number, Buffer[]> }> {
  const out: Array<{ kinds: string[]; rgb: Map<number, Buffer[]> }> = [];
  let cur: { kinds: string[]; rgb: Map<number, Buffer[]> } | undefined;
  for (const p of packets) {
    if (p[12] === 0x07) continue;
    if (p[12] === 0x0a && (!cur || cur.kinds.at(-1) === 'sync')) out.push(cur = { kinds: [], rgb: new Map() });
    const kind = checkPacket(p, level[out.length - 1]);
    cur!.kinds.push(kind);
    if (kind === 'row') {
      const row = p.readUInt16BE(13), offset = p.readUInt16BE(15);
      const parts = cur!.rgb.get(row) ?? [];
      assert.equal(offset, parts.reduce((n, b) => n + b.length / 3, 0), 'row parts arrive in order with running offsets');
      parts.push(Buffer.from(p.subarray(21)));
      cur!.rgb.set(row, parts);
    }
  }
  return out;
}

function rgbOf(f: Frame): Buffer {
  const b = Buffer.alloc(f.width * f.height * 3);
  for (let i = 0; i < f.width * f.height; i++) b.set(f.data.subarray(i * 4, i * 4 + 3), i * 3);
  return b;
}

test('colorlight: discovery, firmware 13 repeats, 497-pixel rows, brightness, reassembled picture', { skip }, async () => {
  const v = createVethNs('cl');
  let card: Card | undefined;
  const runner = new OutputRunner(new ColorlightOutput(v.host, { discoveryTimeoutMs: 300 }), quiet);
  try {
    card = await startCard(v, ['1', '13', '2', '256', '128']);
    const w = 600, h = 6, frame = pattern(w, h);
    await runner.start(w, h);
    await runner.setBrightness(60);
    assert.equal(await runner.submit(frame), true);
    const perPicture = 2 + h * 2 + 2;
    await until('two pictures', () => card!.packets.filter((p) => p[12] !== 0x07).length >= 2 * perPicture);

    const disc = card.packets.filter((p) => p[12] === 0x07);
    assert.deepEqual(disc.map((p) => p[16]), [0, 1], 'card 0 answered, card 1 was asked and stayed silent');
    for (const p of disc) assert.ok(p.subarray(13).every((b, i) => b === 0 || i === 3), 'discovery carries only the index');

    const pics = pictures(card.packets, [255, 153]);
    assert.equal(pics.length, 2);
    for (const pic of pics) {
      assert.deepEqual(pic.kinds, ['brightness', 'brightness', ...Array(h * 2).fill('row'), 'sync', 'sync']);
    }
    const black = Buffer.concat([...Array(h).keys()].flatMap((r) => pics[0].rgb.get(r)!));
    assert.ok(black.length === w * h * 3 && black.every((b) => b === 0), 'the first picture is black');
    const got = Buffer.concat([...Array(h).keys()].flatMap((r) => pics[1].rgb.get(r)!));
    assert.ok(got.equals(rgbOf(frame)), 'reassembled rows equal the frame, RGB order');
    assert.deepEqual(pics[1].rgb.get(0)!.map((b) => b.length / 3), [497, 103]);

    const health = runner.health();
    assert.equal(health.framesSent, 2);
    assert.deepEqual(health.details.receivers, [{ card: 0, firmware: '13.2', cabinet: '256x128', uptimeMs: 0x1234 }]);
    assert.equal(health.details.repeatSyncAndBrightness, true);
    assert.deepEqual(health.warnings, [], 'a veth reads 10000 Mbit/s: no speed warning');
  } finally {
    await runner.stop();
    card?.stop();
    v.destroy();
  }
});

test('colorlight: older firmware gets one sync and one brightness; link down is a warning', { skip }, async () => {
  const v = createVethNs('cm');
  let card: Card | undefined;
  const out = new ColorlightOutput(v.host, { firmwareVersion: 7 });
  try {
    card = await startCard(v, ['0', '0', '0', '0', '0']);
    await out.open();
    const frame = pattern(32, 16);
    await out.send(frame);
    await until('one picture', () => card!.packets.length >= 1 + 16 + 1);
    const [pic] = pictures(card.packets, [255]);
    assert.deepEqual(pic.kinds, ['brightness', ...Array(16).fill('row'), 'sync']);
    assert.ok(Buffer.concat([...Array(16).keys()].flatMap((r) => pic.rgb.get(r)!)).equals(rgbOf(frame)));

    ip('netns', 'exec', v.ns, 'ip', 'link', 'set', v.peer, 'down');
    await until('carrier loss', () => linkState(v.host).state !== 'up', 2000);
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
