// A stand-in Colorlight card in the test's network namespace, and the checks of what it
// captured against the byte layout documented in src/output/colorlight-protocol.ts.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { VethNs } from './netns.js';

const CARD = fileURLToPath(new URL('./fixtures/colorlight-card.ts', import.meta.url));

export interface Card {
  proc: ChildProcess;
  packets: Buffer[];
  stop(): void;
}

export async function startCard(v: VethNs, args: string[]): Promise<Card> {
  const proc = spawn('ip', ['netns', 'exec', v.ns, process.execPath, '--import', 'tsx', CARD, v.peer, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const packets: Buffer[] = [];
  const lines = createInterface({ input: proc.stdout! });
  await new Promise<void>((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`card exited with ${code}`)));
    lines.on('line', (l) => {
      if (l === 'ready') resolve();
      else if (l.startsWith('P ')) packets.push(Buffer.from(l.slice(2), 'base64'));
    });
  });
  return {
    proc,
    packets,
    stop: () => {
      proc.stdin!.end();
      proc.kill();
    },
  };
}

const hex = (b: Buffer, from: number, to: number) => b.subarray(from, to).toString('hex');
const MACS = '112233445566' + '222233445566';

/** Checks one packet against the documented layout; returns its kind. */
export function checkPacket(p: Buffer, level: number): 'brightness' | 'sync' | 'row' | 'discover' {
  assert.equal(hex(p, 0, 12), MACS, 'dst 11:22:33:44:55:66, src 22:22:33:44:55:66');
  switch (p[12]) {
    case 0x0a:
      assert.equal(p.length, 77, 'brightness packet is 77 bytes');
      assert.deepEqual([...p.subarray(13, 17)], [level, level, level, 0xff]);
      assert.ok(
        p.subarray(17).every((b) => b === 0),
        'brightness tail is zero',
      );
      return 'brightness';
    case 0x01: {
      assert.equal(p.length, 112, 'sync packet is 112 bytes');
      const want = new Uint8Array(112 - 13);
      want[0] = 0x07;
      want[22] = level;
      want[23] = 0x05;
      want[25] = want[26] = want[27] = level;
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

/**
 * Splits a capture into pictures (brightness.. rows.. sync) and checks each packet. `level[i]`
 * is picture i's expected brightness byte; without it the first brightness packet's value must
 * hold for the whole picture (the service's own schedule picks it).
 */
export function pictures(packets: Buffer[], level?: number[]): Array<{ kinds: string[]; rgb: Map<number, Buffer[]> }> {
  const out: Array<{ kinds: string[]; rgb: Map<number, Buffer[]>; level: number }> = [];
  let cur: (typeof out)[number] | undefined;
  for (const p of packets) {
    if (p[12] === 0x07) continue;
    if (p[12] === 0x0a && (!cur || cur.kinds.at(-1) === 'sync')) {
      out.push((cur = { kinds: [], rgb: new Map(), level: level ? level[out.length] : p[13] }));
    }
    const kind = checkPacket(p, cur!.level);
    cur!.kinds.push(kind);
    if (kind === 'row') {
      const row = p.readUInt16BE(13),
        offset = p.readUInt16BE(15);
      const parts = cur!.rgb.get(row) ?? [];
      assert.equal(
        offset,
        parts.reduce((n, b) => n + b.length / 3, 0),
        'row parts arrive in order with running offsets',
      );
      parts.push(Buffer.from(p.subarray(21)));
      cur!.rgb.set(row, parts);
    }
  }
  return out;
}
