import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { area, FONT_DIR, inkColumns, rig, T0 } from './helpers.js';

// Font registration is process-wide and permanent, so the case without the fallback font
// must render before anything registers the repository's fonts/: it runs first, alone here.
const DEVANAGARI = 'नमस्ते';

function render(fontDirs: string[], font?: string) {
  const a = area({ id: 'a', align: 'left', fontSize: 60, font });
  const r = rig([a], { fontDirs });
  r.set(a, { text: DEVANAGARI, setAt: T0 });
  return r.compositor.render(T0);
}

test('a glyph the area font lacks comes from another font in fonts/ before it becomes a box', () => {
  const only = mkdtempSync(path.join(tmpdir(), 'mlds-fonts-'));
  copyFileSync(path.join(FONT_DIR, 'DejaVuSans.ttf'), path.join(only, 'DejaVuSans.ttf'));
  // DejaVu Sans has no Devanagari, and no font of the chain has it either: gaps, never hex boxes.
  const gaps = render([only]);
  const withFallback = render([FONT_DIR]);
  const lohitItself = render([FONT_DIR], path.join(FONT_DIR, 'Lohit-Devanagari.ttf'));
  assert.deepEqual(withFallback.data, lohitItself.data, 'drawn with the Lohit glyphs from fonts/');
  assert.equal(inkColumns(gaps, 0, 640).length, 0, 'no font has them: nothing is drawn');
  assert.ok(inkColumns(withFallback, 0, 640).length > 50);
});
