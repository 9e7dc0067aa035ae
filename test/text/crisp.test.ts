import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { colours, sign, type Sign } from './sign-service.js';

let s: Sign;
before(async () => {
  s = await sign({
    soft: { coordinates: '0 0 95 23', type: 'text', fontSize: '16', fontColor: '255 170 0' },
    crisp: { coordinates: '96 0 191 23', type: 'text', fontSize: '16', fontColor: '255 170 0', antialias: 'none' },
    clock: {
      coordinates: '0 24 95 47',
      type: 'date',
      fontSize: '16',
      fontColor: '255 170 0',
      antialias: 'none',
      dateFormat: 'HH:mm:ss',
    },
    led: {
      coordinates: '96 24 191 47',
      type: 'date',
      font: '6x10.bdf',
      fontSize: '20',
      fontColor: '255 170 0',
      dateFormat: 'HH:mm',
    },
  });
});
after(async () => {
  await s?.close();
});

test('antialias "none" draws TrueType with exactly two colours; the default has part-bright edges', async () => {
  assert.equal((await s.show('soft=Gwiazda 17&crisp=Gwiazda 17')).status, 200);
  const p = await s.shot();
  assert.ok(
    colours(p, 0, 0, 96, 24).size > 2,
    'the anti-aliased area has part-bright pixels (the comparison means something)',
  );
  const crisp = colours(p, 96, 0, 96, 24);
  assert.deepEqual([...crisp].sort(), ['0,0,0', '255,170,0']);
});

test('a date area with antialias "none" or a BDF font holds exactly two colours', async () => {
  const p = await s.shot();
  for (const x of [0, 96]) {
    const c = colours(p, x, 24, 96, 24);
    assert.deepEqual([...c].sort(), ['0,0,0', '255,170,0'], `date area at x=${x}`);
  }
});
