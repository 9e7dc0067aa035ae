import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AreaRenderer } from '../../src/render/area.js';
import { Compositor } from '../../src/render/compositor.js';
import { PICTURE_CAP } from '../../src/render/kept-pictures.js';
import { area, FONT_DIR, rig, T0 } from './helpers.js';

let inFresh = false;

/** Counts AreaRenderer.draw calls per area id while `fn` runs (not those of the full redraws it compares with). */
function countDraws<T>(fn: (draws: Map<string, number>) => T): T {
  const draws = new Map<string, number>();
  const orig = AreaRenderer.prototype.draw;
  AreaRenderer.prototype.draw = function (this: AreaRenderer, ...args: Parameters<typeof orig>) {
    if (!inFresh) draws.set(this.area.id, (draws.get(this.area.id) ?? 0) + 1);
    return orig.apply(this, args);
  };
  try {
    return fn(draws);
  } finally {
    AreaRenderer.prototype.draw = orig;
  }
}

function board() {
  const paged = { fontSize: 30, wrap: true, overflow: 'pages' as const, pageSeconds: 0.2, markup: 'multi' as const };
  const left = area({
    id: 'left',
    x: 0,
    y: 0,
    width: 320,
    height: 80,
    ...paged,
    backgroundColor: { r: 0, g: 0, b: 80, a: 1 },
  });
  const right = area({
    id: 'right',
    x: 320,
    y: 0,
    width: 320,
    height: 80,
    ...paged,
    antialias: 'none',
    fontColor: { r: 255, g: 170, b: 0 },
  });
  const under = area({ id: 'under', x: 0, y: 80, width: 640, height: 80, ...paged });
  const badge = area({
    id: 'badge',
    type: 'static',
    x: 560,
    y: 90,
    width: 70,
    height: 60,
    fontSize: 20,
    backgroundColor: { r: 200, g: 0, b: 0, a: 0.5 },
  });
  const r = rig([left, right, under, badge]);
  r.set(left, { text: 'Kasa nieczynna[np]Ticket office closed', setAt: T0 });
  r.set(right, { text: 'Peron 1[np]Platform 1[np]Gleis 1', setAt: T0 });
  r.set(under, { text: 'Linia 175 objazd[np]Route 175 diverted', setAt: T0 });
  r.set(badge, { text: 'NEW', setAt: T0 });
  return { ...r, left, right, under };
}

/** The frame at `t` drawn from scratch by a new compositor. */
function fresh(r: Pick<ReturnType<typeof rig>, 'unit' | 'display' | 'state'>, t: number): Uint8Array {
  inFresh = true;
  try {
    return new Compositor(r.unit, [r.display], () => r.state, { fontDirs: [FONT_DIR], effectDurationMs: 500 }).render(t)
      .data;
  } finally {
    inFresh = false;
  }
}

test(
  'pages shown again are copied from kept pictures, equal to a full redraw, and an area another one overlaps ' +
    'is always drawn',
  () => {
    const r = board();
    countDraws((draws) => {
      // The first round of every page is drawn.
      for (let t = T0; t < T0 + 1200; t += 20) r.compositor.render(t);
      const first = new Map(draws);
      draws.clear();
      let compared = 0;
      for (let t = T0 + 1200; t < T0 + 3600; t += 20) {
        const f = r.compositor.render(t);
        if ((t - T0) % 100 === 0) {
          assert.ok(
            Buffer.from(f.data).equals(Buffer.from(fresh(r, t))),
            `frame at +${t - T0} ms differs from a full redraw`,
          );
          compared++;
        }
      }
      assert.equal(compared, 24);
      assert.ok(
        (first.get('left') ?? 0) >= 2 && (first.get('right') ?? 0) >= 3,
        `first round drew every page: ${JSON.stringify([...first])}`,
      );
      assert.equal(draws.get('left') ?? 0, 0, 'left pages are copied, not drawn');
      assert.equal(draws.get('right') ?? 0, 0, 'right pages are copied, not drawn');
      // 'under' shares its pixels with the translucent badge: drawn on every page turn (12 in 2.4 s).
      assert.ok((draws.get('under') ?? 0) >= 12, `under drawn ${draws.get('under')} times`);
    });
    // Two pages of 320x80 on the left, three on the right, nothing for the overlapped area.
    assert.equal(r.compositor.keptPictureBytes, (2 + 3) * 320 * 80 * 4);
  },
);

test('a new value lets go of the kept pages and its own pages are drawn, then kept', () => {
  const r = board();
  for (let t = T0; t < T0 + 1200; t += 20) r.compositor.render(t);
  const before = r.compositor.keptPictureBytes;
  r.set(r.left, { text: 'Dworzec[np]Station[np]Bahnhof[np]Gare', setAt: T0 + 1200 });
  r.compositor.render(T0 + 1200);
  assert.equal(
    r.compositor.keptPictureBytes,
    before - 2 * 320 * 80 * 4 + 320 * 80 * 4,
    'only the new first page is kept',
  );
  for (let t = T0 + 1220; t < T0 + 3000; t += 20) {
    const f = r.compositor.render(t);
    if ((t - T0) % 100 === 0)
      assert.ok(
        Buffer.from(f.data).equals(Buffer.from(fresh(r, t))),
        `frame at +${t - T0} ms differs from a full redraw`,
      );
  }
  assert.equal(r.compositor.keptPictureBytes, (4 + 3) * 320 * 80 * 4);
});

test('kept pictures stay within PICTURE_CAP; the pages beyond it are drawn each time', () => {
  const big = area({
    id: 'big',
    x: 0,
    y: 0,
    width: 1920,
    height: 1080,
    fontSize: 200,
    overflow: 'pages',
    pageSeconds: 0.1,
    markup: 'multi',
  });
  const r = rig([big], { width: 1920, height: 1080 });
  r.set(big, { text: ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'].join('[np]'), setAt: T0 });
  countDraws((draws) => {
    for (let t = T0; t < T0 + 800; t += 20) r.compositor.render(t);
    let drawnTurns = 0;
    for (let t = T0 + 800; t < T0 + 1600; t += 100) {
      const before = draws.get('big');
      const f = r.compositor.render(t);
      if (draws.get('big') !== before) drawnTurns++;
      assert.ok(Buffer.from(f.data).equals(Buffer.from(fresh(r, t))), `page at +${t - T0} ms`);
    }
    const page = 1920 * 1080 * 4;
    const kept = Math.floor(PICTURE_CAP / page);
    assert.equal(r.compositor.keptPictureBytes, kept * page);
    assert.equal(drawnTurns, 8 - kept, 'the pages not kept are drawn');
  });
});
