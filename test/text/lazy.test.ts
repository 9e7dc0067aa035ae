import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import { area, FONT_DIR, rig, T0 } from '../render/helpers.js';

// In a process of its own (node --test runs each file apart): nothing else has loaded them.
const loaded = (pkg: string) =>
  Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes(`/node_modules/${pkg}/`));

test('bidi-js and linebreak load only when a text needs them', () => {
  const a = area({ id: 'a', width: 192, height: 48, font: path.join(FONT_DIR, '7x13.bdf'), fontSize: 13 });
  const r = rig([a], { width: 192, height: 48 });
  r.set(a, { text: 'Dworzec Centralny\nCentral Station', setAt: T0 });
  r.compositor.render(T0);
  assert.equal(loaded('bidi-js'), false, 'left-to-right text needs no bidi tables');
  assert.equal(loaded('linebreak'), false, 'text that is not wrapped needs no line breaking');
  r.set(a, { text: 'שלום', setAt: T0 + 1 });
  r.compositor.render(T0 + 1);
  assert.equal(loaded('bidi-js'), true);
  const w = area({ id: 'w', width: 192, height: 48, fontSize: 13, wrap: true });
  const r2 = rig([w], { width: 192, height: 48 });
  r2.set(w, { text: 'Lotnisko Chopina Terminal A przez Centrum i Dworzec Zachodni', setAt: T0 });
  r2.compositor.render(T0);
  assert.equal(loaded('linebreak'), true);
});
