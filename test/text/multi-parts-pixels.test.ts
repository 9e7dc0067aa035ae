import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Pixels } from '../helpers/service.js';
import { sign, type Sign } from './sign-service.js';

// The stop display of the issue: 192x32, a 7x13 pixel font, two departures a page.
let s: Sign;
before(async () => {
  s = await sign(
    {
      d: {
        coordinates: '0 0 191 31',
        type: 'text',
        font: '7x13.bdf',
        fontSize: '13',
        markup: 'multi',
        fontColor: '255 170 0',
      },
    },
    192,
    32,
  );
});
after(() => s.close());

const show = (multi: string) => s.show(`d=${encodeURIComponent(multi)}`);
const litCols = (p: Pixels, y0: number, y1: number) => {
  const out: number[] = [];
  for (let x = 0; x < p.width; x++)
    for (let y = y0; y < y1; y++)
      if (p.at(x, y)[0] > 0) {
        out.push(x);
        break;
      }
  return out;
};
/** The pixels of columns [x0, x1), rows [y0, y1), as one string to compare. */
const region = (p: Pixels, x0: number, x1: number, y0 = 0, y1 = p.height) => {
  const out: string[] = [];
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) out.push(p.at(x, y).join(','));
  return out.join(' ');
};

test(
  '[jl2]12 Hauptbahnhof[jl4]7 min: the destination at the ' +
    'left edge, the minutes at the right edge of the same line',
  async () => {
    assert.equal((await show('[jl2]12 Hauptbahnhof[jl4]7 min')).status, 200);
    const both = await s.shot();
    const cols = litCols(both, 0, 32);
    assert.ok(cols[0] <= 1, `leftmost ink at x=${cols[0]}`);
    assert.ok(cols.at(-1)! >= 189, `rightmost ink at x=${cols.at(-1)}`);
    // Nothing between the two parts: "12 Hauptbahnhof" is 105 px, "7 min" starts at 192 - 35.
    assert.deepEqual(
      cols.filter((x) => x >= 105 && x < 157),
      [],
    );
    // Each part exactly as the same text alone, justified the same way: the same pixels, the same rows.
    assert.equal((await show('[jl2]12 Hauptbahnhof')).status, 200);
    assert.equal(region(both, 0, 105), region(await s.shot(), 0, 105), 'left part');
    assert.equal((await show('[jl4]7 min')).status, 200);
    assert.equal(region(both, 157, 192), region(await s.shot(), 157, 192), 'right part');
  },
);

test(
  'left, centre and right parts on one line, and a second ' + 'line right-justified as the [jl4] before it holds',
  async () => {
    assert.equal((await show('[jl2]S1[jl3]Gleis 2[jl4]5[nl]Flughafen')).status, 200);
    const p = await s.shot();
    const top = litCols(p, 0, 16),
      bottom = litCols(p, 16, 32);
    assert.ok(top[0] <= 1 && top.at(-1)! >= 186, `top line ${top[0]}..${top.at(-1)}`);
    // "Gleis 2" (49 px) centred in 192: x 71.5..120.5, drawn at whole pixels.
    const mid = top.filter((x) => x > 20 && x < 180);
    assert.ok(mid[0] >= 71 && mid.at(-1)! <= 121, `centre part ${mid[0]}..${mid.at(-1)}`);
    // "Flughafen" (63 px) right-justified: ends at the right edge, starts no further left than 192 - 63.
    assert.ok(bottom[0] >= 129 && bottom.at(-1)! >= 188, `second line ${bottom[0]}..${bottom.at(-1)}`);
  },
);

test('parts out of order are 400 MLDS_BAD_VALUE naming the area and the tag, and the sign keeps its text', async () => {
  assert.equal((await show('[jl2]12 Hauptbahnhof[jl4]7 min')).status, 200);
  const before = await s.shot();
  for (const [multi, tag, at] of [
    ['[jl4]7 min[jl2]12 Hauptbahnhof', '[jl2]', 11],
    ['[jl3]Gleis 2[jl2]S1', '[jl2]', 13],
    ['a[jl5]b', '[jl5]', 2],
  ] as const) {
    const r = await show(multi);
    assert.equal(r.status, 400, multi);
    const body = r.json as { code?: string; message?: string };
    assert.equal(body.code, 'MLDS_BAD_VALUE');
    assert.ok(body.message?.startsWith(`"d": MULTI tag "${tag}" at character ${at}:`), body.message);
  }
  assert.equal(region(await s.shot(), 0, 192), region(before, 0, 192));
});
