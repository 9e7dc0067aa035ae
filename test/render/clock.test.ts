import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { dateText } from '../../src/render/content/date.js';
import { area, inkColumns, rig, ROOT, T0 } from './helpers.js';

interface Case {
  pattern: string;
  epochMs: number;
  offset?: number;
  zone?: string;
  text: string;
}
// Made by java.time on this machine: test/render/fixtures/ClockFixture.java.
const cases = JSON.parse(readFileSync(path.join(ROOT, 'test/render/fixtures/clock.json'), 'utf8')) as Case[];

test('every dateFormat pattern prints what java.time prints (English, offsets and zones)', () => {
  assert.ok(cases.length > 1000);
  const wrong: string[] = [];
  for (const c of cases) {
    const a = area({ id: 'c', type: 'date', dateFormat: c.pattern, dateOffset: c.offset });
    const got = dateText(a, c.epochMs, c.zone);
    if (got !== c.text)
      wrong.push(
        `${c.pattern} @${c.epochMs} ${c.offset ?? c.zone}: ${JSON.stringify(got)} != ${JSON.stringify(c.text)}`,
      );
  }
  assert.deepEqual(wrong.slice(0, 10), []);
});

test('dateOffset wins over the configured zone, and fractional hours are minutes', () => {
  const a = area({ id: 'c', type: 'date', dateFormat: 'HH:mm', dateOffset: 5.5 });
  assert.equal(dateText(a, T0, 'America/New_York'), '17:30');
  assert.equal(dateText({ ...a, dateOffset: undefined }, T0, 'America/New_York'), '07:00');
});

test('the clock area changes exactly on the second boundary, and not between', () => {
  const a = area({ id: 'c', type: 'date', dateFormat: 'HH:mm:ss', dateOffset: 0, fontSize: 60 });
  const r = rig([a]);
  r.state.areas.set('c', { area: a, source: 'default', setAt: T0 });
  const first = r.compositor.render(T0 + 1000);
  assert.equal(r.compositor.nextChange(T0 + 1000), T0 + 2000);
  assert.equal(r.compositor.render(T0 + 1999).seq, first.seq, 'same second: no new frame');
  const next = r.compositor.render(T0 + 2000);
  assert.notEqual(next.seq, first.seq);
  // The seconds digits differ, the hour digits do not.
  const ink = (f: typeof first) => inkColumns(f, 0, 640).join(',');
  assert.notEqual(ink(next), ink(first));
});
