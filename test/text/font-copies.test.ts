// The renamed font copies (src/text/font-copies.ts) in the unit's cache folder: a start makes one
// per font, a later start registers those same files without writing any, and each still draws
// the face of the file it was made from. A font that changed, or a copy cut short, is made
// again, and a family keeps one copy. Font registration is process-wide, so each start is a
// process of its own.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  utimesSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { REPO } from '../helpers/service.js';

const SCRIPT = `
import { createCanvas } from 'canvas';
import { cssFont, useFontDirs } from './src/text/fonts.ts';
const [dir] = process.argv.slice(-1);
useFontDirs([dir]);
// The ink of one word in each face: a bold face drawn as the regular one (or the reverse) shows.
const ink = (file) => {
  const ctx = createCanvas(300, 60).getContext('2d');
  ctx.font = cssFont(40, file);
  ctx.fillStyle = '#fff';
  ctx.fillText('Wagon', 4, 44);
  return ctx.getImageData(0, 0, 300, 60).data.reduce((n, v, i) => (i % 4 === 0 ? n + v : n), 0);
};
console.log(JSON.stringify({ regular: ink(dir + '/DejaVuSans.ttf'), bold: ink(dir + '/DejaVuSans-Bold.ttf'), pid: process.pid }));
`;

const root = mkdtempSync(path.join(tmpdir(), 'mlds-font-copies-'));
const fonts = path.join(root, 'fonts');
const cache = path.join(root, 'cache');
mkdirSync(fonts);
for (const f of ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'])
  copyFileSync(path.join(REPO, 'fonts', f), path.join(fonts, f));
after(() => rmSync(root, { recursive: true, force: true }));

function startOnce(): { regular: number; bold: number; pid: number } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT, fonts], {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, CACHE_DIRECTORY: cache },
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!);
}

/**
 * The kept copies of the two fonts in fonts/ (the symbol fonts of the system come beside them), by name, with inode and
 * mtime.
 */
function copies(): Map<string, string> {
  return new Map(
    readdirSync(path.join(cache, 'fonts'))
      .filter((f) => /^mlds\d+DejaVuSans(Bold)?-/.test(f))
      .map((f) => {
        const st = statSync(path.join(cache, 'fonts', f));
        return [f, `${st.ino}:${st.mtimeMs}:${st.size}`];
      }),
  );
}

test("a start keeps its renamed fonts in the unit's cache folder and the next start uses them without writing", () => {
  const first = startOnce();
  assert.ok(first.bold > first.regular * 1.2, `the bold file draws bold (${first.bold} against ${first.regular})`);
  const kept = copies();
  assert.equal(kept.size, 2, [...kept.keys()].join(' '));
  assert.ok(!existsSync(path.join(tmpdir(), `mlds-fonts-${first.pid}`)), 'no temporary copies beside the kept ones');

  const second = startOnce();
  assert.deepEqual(copies(), kept, 'the same files, not written again');
  assert.deepEqual([second.regular, second.bold], [first.regular, first.bold], 'each copy still draws its own face');
});

test('a font that changed and a copy cut short are made again; a family keeps one copy', () => {
  startOnce();
  const before = copies();
  const bold = [...before.keys()].find((f) => f.includes('Bold'))!;
  const regular = [...before.keys()].find((f) => !f.includes('Bold'))!;
  // A copy cut short (a power cut while it was written) and a font file replaced by another version.
  truncateSync(path.join(cache, 'fonts', regular), 100);
  utimesSync(path.join(fonts, 'DejaVuSans-Bold.ttf'), new Date(), new Date(Date.now() - 86_400_000));
  const r = startOnce();
  assert.ok(r.bold > r.regular * 1.2, `the bold file still draws bold (${r.bold} against ${r.regular})`);
  const after = copies();
  assert.equal(after.size, 2, [...after.keys()].join(' '));
  assert.ok(
    after.has(regular) && statSync(path.join(cache, 'fonts', regular)).size > 100,
    'the cut copy is whole again',
  );
  assert.ok(!after.has(bold), 'the copy of the old bold file is gone');
  assert.ok(
    [...after.keys()].some((f) => f.includes('Bold') && f !== bold),
    'a copy of the new one is there',
  );
});
