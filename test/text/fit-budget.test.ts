import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { plainDoc } from '../../src/text/doc.js';
import { measuredUnits } from '../../src/text/faces.js';
import { FIT_BUDGET, layoutBlock, type BlockOptions } from '../../src/text/layout.js';
import { get } from '../helpers/service.js';
import { underEmulation } from '../helpers/emulation.js';
import { sign, type Sign } from './sign-service.js';

/** Words of random letters from six scripts, none repeated as a whole: `n` UTF-16 units, the same for the same seed. */
function mixedScript(n: number, seed: number): string {
  const scripts = [
    'abcdefghijklmnoprstuwyząęłóśżź',
    'абвгдежзиклмнопрстуфхцчшы',
    'αβγδεζηθικλμνξοπρστυφχψω',
    'ابتثجحخدذرزسشصضطظعغفقكلمنهوي',
    'אבגדהוזחטיכלמנסעפצקרשת',
    '中央駅東京大阪新宿',
  ];
  let s = seed;
  const rnd = () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x80000000;
  let out = '';
  while (out.length < n) {
    const letters = scripts[Math.floor(rnd() * scripts.length)];
    for (let i = 2 + Math.floor(rnd() * 9); i > 0; i--) out += letters[Math.floor(rnd() * letters.length)];
    out += ' ';
  }
  return out.slice(0, n);
}

const opts = (p: Partial<BlockOptions>): BlockOptions => ({
  width: 192,
  height: 48,
  fonts: [],
  fontSize: 40,
  wrap: false,
  valign: 'middle',
  align: 'left',
  overflow: 'scroll',
  pageMs: 3000,
  crisp: false,
  color: { r: 255, g: 170, b: 0 },
  rtl: false,
  graphicSize: () => undefined,
  ...p,
});

/**
 * The largest size from 40 down at which `text` fits unwrapped, else wrapped: what fit "shrink" should find, by trying
 * every size.
 */
function everySize(text: string, wrap: boolean): number | undefined {
  for (const w of wrap ? [false, true] : [false]) {
    for (let s = 40; s >= 1; s--) {
      const fit = layoutBlock(plainDoc(text), opts({ fontSize: s, wrap: w, overflow: 'pages' })).fit;
      if (fit === 'as-is' || fit === 'wrapped') return s;
    }
  }
  return undefined;
}

test('fit shrink finds the size that trying every size finds, laying out a few of them', () => {
  for (const [text, wrap] of [
    ['Lotnisko Chopina', false],
    ['Dworzec Centralny - Central Station', false],
    ['Dworzec Centralny - Central Station - Warszawa Zachodnia', true],
    [mixedScript(60, 3), false],
    [mixedScript(90, 4), true],
    ['Kasa\nnieczynna', false],
    ['W'.repeat(300), true],
  ] as const) {
    const before = measuredUnits();
    const got = layoutBlock(plainDoc(text), opts({ minFontSize: 1, wrap, overflow: 'pages' }));
    const spent = measuredUnits() - before;
    const want = everySize(text, wrap);
    assert.equal(
      got.size,
      want,
      `${JSON.stringify(text.slice(0, 30))}: ${got.fit} at ${got.size}, every size: ${want}`,
    );
    assert.ok(spent < FIT_BUDGET, `${JSON.stringify(text.slice(0, 30))}: ${spent} measuring units`);
  }
});

test('a value that cannot be fitted within the budget scrolls at the configured size, the same way every time', () => {
  const text = mixedScript(1300, 7);
  for (const overflow of ['scroll', 'pages'] as const) {
    const results = [1, 2].map(() => {
      const before = measuredUnits();
      const l = layoutBlock(plainDoc(text), opts({ minFontSize: 1, wrap: true, overflow }));
      return {
        fit: l.fit,
        mode: l.mode,
        size: l.size,
        rows: l.pages.map((p) => p.lines.length),
        spent: measuredUnits() - before,
      };
    });
    assert.deepEqual(results[0], results[1], 'deterministic');
    assert.deepEqual({ ...results[0], spent: 0 }, { fit: 'scrolled', mode: 'scroll', size: 40, rows: [1], spent: 0 });
    // The budget, the layouts at the configured size (one row of 1300 characters, a few of its wrapped rows), and one
    // measurement over.
    assert.ok(results[0].spent < FIT_BUDGET + 15_000, `${results[0].spent} measuring units`);
  }
});

let s: Sign;
before(async () => {
  s = await sign({
    t: {
      coordinates: '0 0 191 47',
      type: 'text',
      fontSize: '40',
      fit: 'shrink',
      minFontSize: '1',
      wrap: 'true',
      fontColor: '255 170 0',
    },
  });
});
after(async () => {
  await s?.close();
});

test(
  '10 long mixed-script values a second into a fit shrink area: /status still answers at once, and says scrolled',
  { skip: underEmulation('a latency bound') },
  async () => {
    // The first value loads what any first value loads (bidi and line-break tables, which
    // characters each font has): a cost of the start, not of the load.
    assert.equal((await s.show(`t=${encodeURIComponent(mixedScript(1300, 99))}`)).status, 200);
    const status: number[] = [];
    const fits = new Set<string>();
    let stop = false;
    const poll = (async () => {
      while (!stop) {
        const t = performance.now();
        const r = await get(s.svc, '/status');
        status.push(performance.now() - t);
        const a = (
          r.json.displays as Array<{ areas: Array<{ id: string; fit?: string; fontSizeUsed?: number }> }>
        )[0].areas.find((x) => x.id === 't');
        if (a?.fit) fits.add(`${a.fit} at ${a.fontSizeUsed}`);
        // the passing of time is what is tested: /status asked every 20 ms while the values arrive.
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    // 40 values over 4 s, each a different 1,300-character text.
    const t0 = performance.now();
    const sent: Array<Promise<unknown>> = [];
    for (let n = 0; n < 40; n++) {
      const wait = t0 + n * 100 - performance.now();
      // the passing of time is what is tested: ten values a second.
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      sent.push(
        get(s.svc, `/mlds?id=s&layout=l&t=${encodeURIComponent(mixedScript(1300, 100 + n))}`).then((r) =>
          assert.equal(r.status, 200),
        ),
      );
    }
    await Promise.all(sent);
    stop = true;
    await poll;
    status.sort((a, b) => a - b);
    const median = status[status.length >> 1];
    assert.ok(status.length >= 5, `${status.length} /status answers`);
    assert.ok(
      median < 50,
      `/status median ${median.toFixed(1)} ms (max ${status[status.length - 1].toFixed(0)} ms) over ` +
        `${status.length} answers`,
    );
    assert.deepEqual([...fits], ['scrolled at 40']);
  },
);
