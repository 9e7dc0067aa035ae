import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { createCanvas } from 'canvas';
import { area, FONT_DIR, rig, T0 } from '../render/helpers.js';
import { parseMulti } from '../../src/text/multi.js';
import { FakeClock } from '../helpers/clock.js';
import { until } from '../helpers/service.js';
import { clockStep, litCount, sign } from './sign-service.js';

const LIMITS = { fonts: 1, graphics: 1 };

test('the MULTI subset parses into pages, lines and styled spans', () => {
  const doc = parseMulti(
    '[jp2][pt30o5][cf255,0,0]Kasa [sc2]nieczynna[/sc][np][jl4]Ticket [[office]] [fo1]closed[g1]',
    LIMITS,
  );
  assert.equal(doc.pages.length, 2);
  const [p1, p2] = doc.pages;
  assert.deepEqual({ on: p1.onMs, off: p1.offMs, v: p1.valign }, { on: 3000, off: 500, v: 'top' });
  assert.deepEqual(p1.lines[0].spans, [
    { text: 'Kasa ', font: 0, color: { r: 255, g: 0, b: 0 } },
    { text: 'nieczynna', font: 0, gap: 2, color: { r: 255, g: 0, b: 0 } },
  ]);
  assert.equal(p2.lines[0].align, 'right');
  assert.deepEqual(
    p2.lines[0].spans.map((s) => ('text' in s ? s.text : `g${s.graphic}`)),
    ['Ticket [office] ', 'closed', 'g1'],
  );
  assert.equal((p2.lines[0].spans[1] as { font: number }).font, 1);
});

test('a tag outside the subset or malformed names itself and its position', () => {
  for (const [src, tag, pos] of [
    ['AB[fl]C', '[fl]', 3],
    ['[cf300,0,0]x', '[cf300,0,0]', 1],
    ['x[jl7]', '[jl7]', 2],
    ['ab]c', ']', 3],
    ['[nl', '[nl', 1],
    ['[fo2]', '[fo2]', 1],
    ['[g5]', '[g5]', 1],
    ['[pt0o]', '[pt0o]', 1],
  ] as const) {
    assert.throws(
      () => parseMulti(src, LIMITS),
      (e: Error) => e.message.startsWith(`MULTI tag "${tag}" at character ${pos}:`),
      src,
    );
  }
});

test(
  '[cf255,0,0]A[nl][cf0,255,0]B puts red above green; a faulty tag is 400 MLDS_BAD_VALUE with confirm=2 and ' +
    'changes nothing',
  async () => {
    const got: string[] = [];
    const fb = createServer((req, res) => {
      got.push(req.url!);
      res.end('ok');
    }).listen(0, '127.0.0.1');
    await once(fb, 'listening');
    const s = await sign(
      {
        m: {
          coordinates: '0 0 191 47',
          type: 'text',
          font: '7x13.bdf',
          fontSize: '13',
          markup: 'multi',
          align: 'center',
        },
      },
      192,
      48,
      { confirmIp: '127.0.0.1', confirmPort: String((fb.address() as AddressInfo).port) },
    );
    try {
      assert.equal((await s.show(`m=${encodeURIComponent('[cf255,0,0]A[nl][cf0,255,0]B')}`)).status, 200);
      const p = await s.shot();
      const rows = (c: [number, number, number]) => {
        const ys: number[] = [];
        for (let y = 0; y < 48; y++)
          for (let x = 0; x < 192; x++)
            if (p.at(x, y).join() === c.join()) {
              ys.push(y);
              break;
            }
        return ys;
      };
      const red = rows([255, 0, 0]),
        green = rows([0, 255, 0]);
      assert.ok(red.length > 5 && green.length > 5, 'both letters drawn in their colours');
      assert.ok(
        red[red.length - 1] < green[0],
        `red rows ${red[0]}..${red.at(-1)} above green ${green[0]}..${green.at(-1)}`,
      );
      const r = await s.show(`m=${encodeURIComponent('Kasa[fl]nieczynna')}&inumber=7`);
      assert.equal(r.status, 400);
      assert.equal((r.json as { code?: string }).code, 'MLDS_BAD_VALUE');
      assert.match(JSON.stringify(r.json), /\\"m\\": MULTI tag \\"\[fl\]\\" at character 5/);
      await until(() => got.includes('/mlds?confirm=2&inumber=7'), 3000, 'confirm=2');
      const after = await s.shot();
      assert.deepEqual(
        [after.at(96, 10), after.at(96, 30)],
        [p.at(96, 10), p.at(96, 30)],
        'the sign still shows the last good value',
      );
    } finally {
      await s.close();
      fb.closeAllConnections();
      fb.close();
    }
  },
);

test('[g1] draws graphic 1 inline, standing on the baseline between its neighbours', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-g-'));
  const file = path.join(dir, 'dot.png');
  const c = createCanvas(6, 6);
  const ctx = c.getContext('2d');
  ctx.fillStyle = '#f00';
  ctx.fillRect(0, 0, 6, 6);
  writeFileSync(file, c.toBuffer('image/png'));
  const a = area({
    id: 'a',
    width: 192,
    height: 48,
    font: path.join(FONT_DIR, '7x13.bdf'),
    fontSize: 13,
    markup: 'multi',
    graphics: [file],
  });
  const r = rig([a], { width: 192, height: 48 });
  r.set(a, { text: 'A[g1]B', setAt: T0 });
  const f = r.compositor.render(T0);
  const red: Array<[number, number]> = [];
  for (let y = 0; y < 48; y++)
    for (let x = 0; x < 192; x++) {
      const i = (y * 192 + x) * 4;
      if (f.data[i] === 255 && f.data[i + 1] === 0) red.push([x, y]);
    }
  assert.equal(red.length, 36);
  // 13 px line centred in 48: top row 18 (rounded), baseline at 18 + 11 = 29; A is 7 px wide.
  assert.deepEqual(
    [red[0], red[35]],
    [
      [7, 23],
      [12, 28],
    ],
  );
  rmSync(dir, { recursive: true, force: true });
});

// sync "free": the pages count from the command, so the fake clock's steps land on them.
test('pages alternate at their [pt] page times on a fake clock, with their off time blank', async () => {
  const clock = new FakeClock(Date.now());
  const s = await sign(
    {
      m: {
        coordinates: '0 0 191 47',
        type: 'text',
        font: '7x13.bdf',
        fontSize: '13',
        markup: 'multi',
        fontColor: '255 170 0',
        sync: 'free',
      },
    },
    192,
    48,
    {},
    { clock },
  );
  try {
    assert.equal((await s.show(`m=${encodeURIComponent('[pt10o5]I[np][pt10o]WWW')}`)).status, 200);
    const one = await litCount(s);
    const step = clockStep(s, clock, 3000);
    // Page 1 for 1 s, then 0.5 s blank, then page 2 for 1 s, then page 1 again.
    assert.ok(one > 0);
    assert.equal(await step(1000), 0, 'off time: blank');
    const two = await step(500);
    assert.ok(two > one * 2, `page 2 (${two} lit) after page 1 (${one})`);
    assert.equal(await step(1000), one, 'page 1 again');
  } finally {
    await s.close();
  }
});
