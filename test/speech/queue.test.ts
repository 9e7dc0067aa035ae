// The announcement queue's rules and quiet hours, on their own (the service tests check them
// through /announce): alerts' warnings first, then priority, bounded at 10, the oldest of the
// lowest rank dropped, a queue of priority announcements refusing another; a quiet window over
// midnight in a given zone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { QUEUE_LIMIT, SpeechQueue, type Waiting } from '../../src/speech/queue.js';
import { isQuiet, minuteOfDay } from '../../src/speech/quiet.js';
import { fitted, MAX_SPOKEN, spokenText } from '../../src/speech/words.js';

const w = (text: string, priority = false): Waiting => ({ displayId: 'hall', text, priority, source: 'http', at: 0 });
const alert = (text: string): Waiting => ({ displayId: 'hall', text, priority: true, source: 'cap', at: 0 });

test('priority announcements go before ordinary ones, each kind in arrival order', () => {
  const q = new SpeechQueue();
  q.offer(w('o1'));
  q.offer(w('o2'));
  assert.deepEqual(q.offer(w('p1', true)), { queued: true, position: 1 });
  assert.deepEqual(q.offer(w('p2', true)), { queued: true, position: 2 });
  assert.deepEqual(q.offer(w('o3')), { queued: true, position: 5 });
  assert.deepEqual(
    q.list().map((x) => x.text),
    ['p1', 'p2', 'o1', 'o2', 'o3'],
  );
  assert.equal(q.take()?.text, 'p1');
});

test(
  'a full queue drops its oldest ordinary announcement for a new one, and refuses an ordinary or priority one ' +
    'when it holds only priority ones',
  () => {
    const q = new SpeechQueue();
    assert.equal(QUEUE_LIMIT, 10);
    for (let i = 1; i <= 10; i++) q.offer(w(`o${i}`));
    const r = q.offer(w('o11'));
    assert.ok(r.queued && r.dropped?.text === 'o1');
    const p = q.offer(w('p1', true));
    assert.ok(p.queued && p.position === 1 && p.dropped?.text === 'o2');
    assert.equal(q.length, 10);
    assert.deepEqual(
      q.list().map((x) => x.text),
      ['p1', 'o3', 'o4', 'o5', 'o6', 'o7', 'o8', 'o9', 'o10', 'o11'],
    );
    const full = new SpeechQueue();
    for (let i = 1; i <= 10; i++) full.offer(w(`p${i}`, true));
    assert.deepEqual(full.offer(w('late')), { queued: false, reason: 'full' });
    assert.deepEqual(full.offer(w('late', true)), { queued: false, reason: 'full' });
    assert.equal(full.length, 10);
  },
);

test(
  "an alert's warning outranks every announcement: it goes first, takes the place of the oldest priority " +
    'announcement in a full queue, and only a queue of alerts refuses one',
  () => {
    const q = new SpeechQueue();
    q.offer(w('o1'));
    q.offer(w('p1', true));
    assert.deepEqual(q.offer(alert('a1')), { queued: true, position: 1 });
    assert.deepEqual(q.offer(alert('a2')), { queued: true, position: 2 });
    assert.deepEqual(q.offer(w('p2', true)), { queued: true, position: 4 });
    assert.deepEqual(
      q.list().map((x) => x.text),
      ['a1', 'a2', 'p1', 'p2', 'o1'],
    );

    const full = new SpeechQueue();
    for (let i = 1; i <= 10; i++) full.offer(w(`p${i}`, true));
    assert.deepEqual(full.offer(w('p11', true)), { queued: false, reason: 'full' });
    const r = full.offer(alert('a1'));
    assert.ok(r.queued && r.position === 1 && r.dropped?.text === 'p1', JSON.stringify(r));
    assert.deepEqual(
      full.list().map((x) => x.text),
      ['a1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8', 'p9', 'p10'],
    );
    // Ordinary announcements go before priority ones are dropped.
    const mixed = new SpeechQueue();
    for (let i = 1; i <= 9; i++) mixed.offer(w(`p${i}`, true));
    mixed.offer(w('o1'));
    const m = mixed.offer(alert('a1'));
    assert.ok(m.queued && m.dropped?.text === 'o1');

    const alerts = new SpeechQueue();
    for (let i = 1; i <= 10; i++) alerts.offer(alert(`a${i}`));
    assert.deepEqual(alerts.offer(alert('a11')), { queued: false, reason: 'full' });
    assert.equal(alerts.list()[0].text, 'a1');
  },
);

test('quiet hours over midnight in the configured zone, start inclusive, end exclusive', () => {
  const quiet = { from: 22 * 60, to: 6 * 60, text: '22:00-06:00' };
  const at = (iso: string) => Date.parse(iso);
  assert.equal(isQuiet(at('2026-11-28T21:59:00Z'), quiet, 'UTC'), false);
  assert.equal(isQuiet(at('2026-11-28T22:00:00Z'), quiet, 'UTC'), true);
  assert.equal(isQuiet(at('2026-11-29T03:00:00Z'), quiet, 'UTC'), true);
  assert.equal(isQuiet(at('2026-11-29T06:00:00Z'), quiet, 'UTC'), false);
  assert.equal(isQuiet(at('2026-11-29T12:00:00Z'), quiet, 'UTC'), false);
  // 21:30 UTC is 22:30 in Warsaw (CET, UTC+1 in November).
  assert.equal(minuteOfDay(at('2026-11-28T21:30:00Z'), 'Europe/Warsaw'), 22 * 60 + 30);
  assert.equal(isQuiet(at('2026-11-28T21:30:00Z'), quiet, 'Europe/Warsaw'), true);
  const day = { from: 9 * 60, to: 17 * 60, text: '09:00-17:00' };
  assert.equal(isQuiet(at('2026-11-28T12:00:00Z'), day, 'UTC'), true);
  assert.equal(isQuiet(at('2026-11-28T18:00:00Z'), day, 'UTC'), false);
  assert.equal(isQuiet(at('2026-11-28T12:00:00Z'), undefined, 'UTC'), false);
});

test(
  'a value is read as shown: MULTI tags are not read out, ' + 'lines and tabs are short pauses, pages longer ones',
  () => {
    assert.equal(
      spokenText('[cf255,0,0]Line 5[cf] to Airport[nl]platform 2[np]in 2 minutes', true),
      'Line 5 to Airport, platform 2. in 2 minutes',
    );
    assert.equal(spokenText('5\tAirport\t2 min'), '5, Airport, 2 min');
    assert.equal(spokenText('Delayed.\nSorry'), 'Delayed. Sorry');
    assert.equal(spokenText('[jl3][pt30o0][fo1]'), '[jl3][pt30o0][fo1]');
    assert.equal(spokenText('[jl3][pt30o0]', true), '');
    assert.equal(spokenText('a [[b]] c', true), 'a [b] c');
  },
);

test(
  "a machine source's long text is cut at its last whole " + 'sentence within 500 characters, else its last whole word',
  () => {
    const sentence = 'Move to higher ground now and stay away from the river banks. ';
    const long = sentence.repeat(12).trim();
    const cut = fitted(long);
    assert.ok(cut.length <= MAX_SPOKEN && cut.length > MAX_SPOKEN - sentence.length, String(cut.length));
    assert.ok(cut.endsWith('river banks.'), cut.slice(-30));
    const words = 'word '.repeat(150).trim();
    const w = fitted(words);
    assert.ok(w.length <= MAX_SPOKEN && w.endsWith('word') && !w.endsWith(' '), w.slice(-10));
    assert.equal(fitted('short'), 'short');
  },
);

test("a readout goes behind alerts' warnings only, before priority and ordinary announcements", () => {
  const q = new SpeechQueue();
  q.offer(w('o1'));
  q.offer(w('p1', true));
  q.offer(alert('a1'));
  assert.deepEqual(q.offer({ displayId: 'hall', text: 'r1', priority: true, source: 'readout', at: 0 }), {
    queued: true,
    position: 2,
  });
  q.offer(alert('a2'));
  assert.deepEqual(
    q.list().map((x) => x.text),
    ['a1', 'a2', 'r1', 'p1', 'o1'],
  );
});
