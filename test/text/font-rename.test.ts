// The renamed copy of a font (src/text/font-rename.ts), read back by fontTools: the family,
// style, full and PostScript names are ours and no other family name is left; every other
// table is byte for byte the original's; table checksums and head.checkSumAdjustment hold.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { renameFontFamily } from '../../src/text/font-rename.js';
import { skipReason } from '../helpers/skip.js';

const PYTHON = '/usr/bin/python3';
const DEJAVU = '/usr/share/fonts/truetype/dejavu';
const fontTools = spawnSync(PYTHON, ['-c', 'import fontTools'], { stdio: 'ignore' }).status === 0;

const READ = `
import json, sys
from fontTools.ttLib import TTFont
f = TTFont(sys.argv[1], checkChecksums=2)
names = sorted({(r.nameID, r.toUnicode()) for r in f['name'].names})
print(json.dumps({'names': names, 'weight': f['OS/2'].usWeightClass}))
`;

function tables(buf: Buffer): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (let i = 0; i < buf.readUInt16BE(4); i++) {
    const r = 12 + i * 16;
    out.set(
      buf.toString('latin1', r, r + 4),
      buf.subarray(buf.readUInt32BE(r + 8), buf.readUInt32BE(r + 8) + buf.readUInt32BE(r + 12)),
    );
  }
  return out;
}

test(
  'a renamed DejaVuSans-Bold: our names only, the style word kept, everything else untouched, checksums right',
  { skip: skipReason(fontTools ? undefined : "needs Debian's python3-fonttools") },
  () => {
    const original = readFileSync(path.join(DEJAVU, 'DejaVuSans-Bold.ttf'));
    const renamed = renameFontFamily(original, 'mlds7Sign')!;
    assert.ok(renamed);
    // The offset table is kept; every u32 of the file sums to the magic number (OpenType "head").
    assert.deepEqual(renamed.subarray(0, 12), original.subarray(0, 12));
    let sum = 0;
    for (let i = 0; i < renamed.length; i += 4) sum = (sum + renamed.readUInt32BE(i)) >>> 0;
    assert.equal(sum, 0xb1b0afba);
    const before = tables(original),
      after = tables(renamed);
    assert.deepEqual([...after.keys()], [...before.keys()]);
    for (const [tag, bytes] of before) {
      if (tag === 'name') continue;
      if (tag === 'head') {
        // Only checkSumAdjustment (bytes 8..11) may differ.
        assert.deepEqual(
          Buffer.concat([after.get(tag)!.subarray(0, 8), after.get(tag)!.subarray(12)]),
          Buffer.concat([bytes.subarray(0, 8), bytes.subarray(12)]),
        );
      } else assert.ok(after.get(tag)!.equals(bytes), tag);
    }
    const dir = mkdtempSync(path.join(tmpdir(), 'mlds-rename-'));
    try {
      const file = path.join(dir, 'x.ttf');
      writeFileSync(file, renamed);
      const r = spawnSync(PYTHON, ['-c', READ, file], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      const read = JSON.parse(r.stdout) as { names: Array<[number, string]>; weight: number };
      assert.deepEqual(read.names, [
        [1, 'mlds7Sign'],
        [2, 'Bold'],
        [4, 'mlds7Sign Bold'],
        [6, 'mlds7Sign-Bold'],
      ]);
      assert.equal(read.weight, 700, "the weight stays the file's own");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test('what is not a single sfnt font is left alone: a collection, a short file, text', () => {
  assert.equal(renameFontFamily(Buffer.from('ttcf\u0000\u0001\u0000\u0000'), 'x'), undefined);
  assert.equal(renameFontFamily(Buffer.alloc(5), 'x'), undefined);
  assert.equal(renameFontFamily(Buffer.from('STARTFONT 2.1\nFONT -misc-fixed\n'), 'x'), undefined);
  // A table directory that points past the end of the file.
  const bad = Buffer.alloc(28);
  bad.writeUInt32BE(0x00010000, 0);
  bad.writeUInt16BE(1, 4);
  bad.write('name', 12, 'latin1');
  bad.writeUInt32BE(28, 20);
  bad.writeUInt32BE(1000, 24);
  assert.equal(renameFontFamily(bad, 'x'), undefined);
});
