// The file an area names is the face it draws, whatever family and style names the file
// carries: a regular and a bold face of one family, and two unrelated fonts that claim the
// same family name (and the regular face's), side by side in fonts/. Each area's pixels must
// equal the same text drawn from its own file alone: a second service whose fonts are the
// same files renamed (by fontTools, not by mlds) to families nothing else claims.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { skipReason } from '../helpers/skip.js';
import { REPO, decode, get, nextFrame, serviceDir, start, type Pixels } from '../helpers/service.js';

// Debian's python, where python3-fonttools is installed (a pyenv shim may come first on PATH).
const PYTHON = '/usr/bin/python3';
const DEJAVU = '/usr/share/fonts/truetype/dejavu';
const RENAME = path.join(REPO, 'test/render/fixtures/rename-font.py');
const fontTools = spawnSync(PYTHON, ['-c', 'import fontTools'], { stdio: 'ignore' }).status === 0;

/** File name in fonts/ -> how to make it from Debian's DejaVu: [source, claimed family, claimed style]. */
const FACES: Record<string, [string, string, string]> = {
  'DejaVuSans.ttf': ['DejaVuSans.ttf', 'DejaVu Sans', 'Book'],
  'DejaVuSans-Bold.ttf': ['DejaVuSans-Bold.ttf', 'DejaVu Sans', 'Bold'],
  // Unrelated to each other and to DejaVu Sans, yet both say they are it.
  'Sign-Serif.ttf': ['DejaVuSerif.ttf', 'DejaVu Sans', 'Book'],
  'Sign-Mono.ttf': ['DejaVuSansMono.ttf', 'DejaVu Sans', 'Book'],
};
const TEXT = 'Not in service 1234';
const W = 420,
  ROW = 40;

function rename(src: string, dst: string, family: string, style: string): void {
  const r = spawnSync(PYTHON, [RENAME, src, dst, family, style], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
}

function config(): Record<string, unknown> {
  const areas = Object.fromEntries(
    Object.keys(FACES).map((file, i) => [
      `a${i}`,
      {
        coordinates: `0 ${i * ROW} ${W - 1} ${i * ROW + ROW - 1}`,
        type: 'text',
        font: file,
        fontSize: '26',
        fontColor: '255 255 255',
        backgroundColor: '0 0 0',
        align: 'left',
      },
    ]),
  );
  return {
    effectDurationMs: '0',
    rateLimit: '100000',
    displays: {
      main: {
        displayIp: '127.0.0.1',
        displayPort: '9001',
        displayWidth: String(W),
        displayHeight: String(ROW * 4),
        infoScreenTtl: '0',
        output: { driver: 'virtual' },
        layout: { l: areas },
      },
    },
  };
}

/** The screenshot after showing TEXT in every area, from a service whose fonts/ `fill` fills. */
async function draw(fill: (fontsDir: string) => void): Promise<Pixels> {
  const sd = serviceDir(config());
  fill(path.join(sd.dir, 'fonts'));
  const svc = await start(sd);
  try {
    const seq = svc.api.frame('main')?.seq ?? -1;
    const q = Object.keys(FACES)
      .map((_, i) => `a${i}=${encodeURIComponent(TEXT)}`)
      .join('&');
    assert.equal((await get(svc, `/mlds?id=main&layout=l&${q}`)).status, 200);
    await nextFrame(svc, 'main', seq);
    return await decode((await get(svc, '/screenshot?id=main&format=png')).bytes);
  } finally {
    await svc.close();
    sd.cleanup();
  }
}

function rowOf(p: Pixels, i: number): string {
  const out: number[] = [];
  for (let y = i * ROW; y < (i + 1) * ROW; y++) for (let x = 0; x < W; x++) out.push(...p.at(x, y));
  return Buffer.from(out).toString('base64');
}

test(
  'each area draws the face of the file it names, even when files claim the same family',
  { skip: skipReason(fontTools ? undefined : "needs Debian's python3-fonttools to make the fonts") },
  async () => {
    const shared = await draw((dir) => {
      for (const [file, [src, family, style]] of Object.entries(FACES)) {
        if (src === file && family === 'DejaVu Sans') copyFileSync(path.join(DEJAVU, src), path.join(dir, file));
        else rename(path.join(DEJAVU, src), path.join(dir, file), family, style);
      }
    });
    const alone = await draw((dir) => {
      Object.entries(FACES).forEach(([file, [src]], i) =>
        rename(path.join(DEJAVU, src), path.join(dir, file), `Only Face ${i}`, 'Regular'),
      );
    });
    const names = Object.keys(FACES);
    const rows = names.map((_, i) => rowOf(shared, i));
    names.forEach((file, i) =>
      assert.ok(rows[i] === rowOf(alone, i), `${file}: the area's pixels differ from its own file's`),
    );
    // Four different faces, so the comparison above could tell them apart.
    assert.equal(new Set(rows).size, names.length);
    assert.ok(readdirSync(DEJAVU).includes('DejaVuSansMono.ttf'));
  },
);
