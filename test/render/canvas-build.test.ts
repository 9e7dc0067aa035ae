// node-canvas as `make deps` builds it (the Makefile's CANVAS_ENV): the picture formats the service draws, without
// librsvg, which nothing uses (pictures are PNG, JPEG or GIF) and which, with the libraries it
// pulls in, held 3.5 MB of every controller's idle memory.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import canvas from 'canvas';

test('node-canvas has JPEG and GIF, and neither it nor this process loads librsvg', () => {
  assert.ok(canvas.jpegVersion, 'JPEG support');
  assert.ok(canvas.gifVersion, 'GIF support');
  assert.equal(canvas.rsvgVersion, undefined, 'built without librsvg: run `make deps`, which rebuilds it');
  const maps = readFileSync('/proc/self/maps', 'utf8');
  assert.ok(maps.includes('canvas.node'), 'node-canvas is loaded');
  assert.ok(!/librsvg|libxml2/.test(maps), 'librsvg and its XML parser are not mapped');
});
