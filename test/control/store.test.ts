import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { StateStore } from '../../src/control/store.js';
import { until } from '../helpers/service.js';
import { mountTmpfs, sub, tmpfsUnavailable } from '../helpers/tmpfs.js';

const rec = (n: number) => ({ query: `id=d&layout=l&n=${n}`, at: n, source: 'http' });

function tempDir(): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-store-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

test(
  'a change is in the files when its setter returns; a burst ' +
    'shares one sync; flush folds everything into state.json',
  async () => {
    const { dir, cleanup } = tempDir();
    try {
      const store = new StateStore(dir);
      await store.load();
      const writes: Array<Promise<void>> = [];
      for (let i = 0; i < 20; i++) writes.push(store.setLastRequest('d', rec(i)));
      // What a process killed now leaves behind: read by another store, without waiting for anything.
      assert.equal((await new StateStore(dir).load()).lastRequest.d.query, 'id=d&layout=l&n=19');
      await Promise.all(writes);

      store.setLastFeedback('d', { confirm: 1, inumber: '7' }).catch(() => {});
      await store.flush();
      const saved = JSON.parse(readFileSync(store.file, 'utf8'));
      assert.deepEqual(saved.lastFeedback.d, { confirm: 1, inumber: '7' });
      assert.equal(saved.lastRequest.d.at, 19);
      assert.deepEqual(
        readdirSync(dir).filter((f) => f.endsWith('.tmp')),
        [],
        'no temporary file left',
      );
      assert.equal((await new StateStore(dir).load()).lastRequest.d.at, 19);
      assert.deepEqual(store.problems(), []);
    } finally {
      cleanup();
    }
  },
);

test('a snapshot interrupted by a crash: state.json plus every journal from its generation on', async () => {
  const { dir, cleanup } = tempDir();
  try {
    writeFileSync(
      path.join(dir, 'state.json'),
      JSON.stringify({ gen: 3, lastRequest: { a: rec(1), b: rec(1) }, lastFeedback: {} }),
    );
    writeFileSync(path.join(dir, 'state.journal.2'), `${JSON.stringify(['r', 'a', rec(0)])}\n`);
    writeFileSync(
      path.join(dir, 'state.journal.3'),
      `${JSON.stringify(['r', 'a', rec(1)])}\n${JSON.stringify(['r', 'a', rec(2)])}\n`,
    );
    writeFileSync(
      path.join(dir, 'state.journal.4'),
      `${JSON.stringify(['r', 'b', rec(5)])}\n` +
        `${JSON.stringify(['f', 'b', { confirm: 2, inumber: '9' }])}\n["r","a",{"qu`,
    );
    writeFileSync(path.join(dir, 'state.json.1234.1700000000000.tmp'), '{"half');
    const store = new StateStore(dir);
    const s = await store.load();
    assert.equal(s.lastRequest.a.at, 2, 'journal 2 is older than the snapshot and not applied');
    assert.equal(s.lastRequest.b.at, 5);
    assert.deepEqual(s.lastFeedback.b, { confirm: 2, inumber: '9' });
    assert.match(store.problems()[0].message, /state\.journal\.4 has 1 unreadable line/);
    const files = readdirSync(dir);
    assert.ok(
      files.some((f) => f.startsWith('state.journal.4.bad-')),
      `the journal with a cut line kept aside: ${files}`,
    );
    assert.deepEqual(
      files.filter((f) => /^state\.journal\.\d+$|\.tmp$/.test(f)),
      ['state.journal.5'],
      'folded into a new snapshot; the dead temporary file removed',
    );
  } finally {
    cleanup();
  }
});

for (const [what, content, why] of [
  ['empty', '', /is empty/],
  ['truncated', '{"lastRequest":{"d":{"query":"id=d&layout=l","at":1', /is not valid JSON/],
  ['garbage', '\u0000\u0001garbage', /is not valid JSON/],
  ['an array', '[1,2]', /does not hold a JSON object/],
  ['a directory', undefined, /cannot be read \(ENOTREG: not a regular file but a directory\)/],
] as const) {
  test(`a state file that is ${what} is kept aside, the service starts empty and says so`, async () => {
    const { dir, cleanup } = tempDir();
    try {
      const file = path.join(dir, 'state.json');
      if (content === undefined) mkdirSync(file);
      else writeFileSync(file, content);
      const store = new StateStore(dir);
      const s = await store.load();
      assert.deepEqual({ ...s.lastRequest }, {});
      const [p, more] = store.problems();
      assert.equal(more, undefined);
      assert.equal(p.source, 'state');
      assert.match(p.message, why);
      assert.match(p.message, /kept as state\.json\.bad-\S+; the service started without it/);
      const aside = readdirSync(dir).find((f) => f.startsWith('state.json.bad-'))!;
      if (content !== undefined)
        assert.equal(readFileSync(path.join(dir, aside), 'utf8'), content, 'kept for inspection as it was');
      // A good file took its place and keeps working.
      await store.setLastRequest('d', rec(1));
      assert.equal((await new StateStore(dir).load()).lastRequest.d.at, 1);
    } finally {
      cleanup();
    }
  });
}

test('every field is checked: entries of the wrong form are dropped and named, the rest is loaded', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const wrong = { lastRequest: 'x', lastFeedback: 5 };
    writeFileSync(path.join(dir, 'state.json'), JSON.stringify(wrong));
    let store = new StateStore(dir);
    let s = await store.load();
    assert.deepEqual([{ ...s.lastRequest }, { ...s.lastFeedback }], [{}, {}]);
    assert.match(
      store.problems()[0].message,
      /has 2 entries of the wrong form \(\/lastRequest, \/lastFeedback\), dropped; it was kept as state\.json\.bad-/,
    );
    // The setters work on what was loaded (before the fix: a TypeError, every /mlds a 500).
    await store.setLastRequest('d', rec(1));
    await store.setLastFeedback('d', { confirm: 0, inumber: '1' });

    for (const f of readdirSync(dir)) rmSync(path.join(dir, f), { recursive: true });
    writeFileSync(
      path.join(dir, 'state.json'),
      JSON.stringify({
        lastRequest: {
          good: rec(1),
          noQuery: { at: 1 },
          badAt: { query: 'id=x', at: 'now' },
          badInumber: { ...rec(1), inumber: 5 },
          str: 'x',
          proto: rec(2),
        },
        lastFeedback: {
          good: { confirm: 2, inumber: '4' },
          three: { confirm: 3, inumber: '4' },
          numeric: { confirm: 1, inumber: 4 },
        },
      }).replace('"proto"', '"__proto__"'),
    );
    store = new StateStore(dir);
    s = await store.load();
    assert.deepEqual(Object.keys(s.lastRequest).sort(), ['__proto__', 'good'].sort());
    assert.equal(Object.getPrototypeOf(s.lastRequest), null, 'an id named __proto__ is only a key');
    assert.deepEqual(Object.keys(s.lastFeedback), ['good']);
    assert.match(
      store.problems()[0].message,
      /has 6 entries of the wrong form \(\/lastRequest\/noQuery, \/lastRequest\/badAt, \/lastRequest\/badInumber, \/lastRequest\/str, \/lastFeedback\/three and 1 more\)/,
    );
  } finally {
    cleanup();
  }
});

test(
  'a read-only state folder: loads, shows the problem, keeps changes in memory, throws nothing',
  { skip: tmpfsUnavailable() },
  async () => {
    const fs = mountTmpfs('1m');
    try {
      const dir = sub(fs, 'state');
      writeFileSync(path.join(dir, 'state.json'), JSON.stringify({ lastRequest: { d: rec(1) }, lastFeedback: {} }));
      fs.readOnly(true);
      const store = new StateStore(dir, { retryMs: 50 });
      assert.equal((await store.load()).lastRequest.d.at, 1);
      assert.match(store.problems()[0].message, /state folder .* cannot be written \(EROFS: read-only file system\)/);
      await store.setLastRequest('d', rec(2));
      assert.equal(store.get().lastRequest.d.at, 2);
      fs.readOnly(false);
      await until(() => store.problems().length === 0, 3000, 'the folder to be written again');
      assert.equal(JSON.parse(readFileSync(path.join(dir, 'state.json'), 'utf8')).lastRequest.d.at, 2);
    } finally {
      fs.cleanup();
    }
  },
);

test(
  'a full state disk: the problem is shown, no temporary file is left, the state is saved when space returns',
  { skip: tmpfsUnavailable() },
  async () => {
    const fs = mountTmpfs('1m');
    try {
      const dir = sub(fs, 'state');
      const store = new StateStore(dir, { retryMs: 50 });
      await store.load();
      await store.setLastRequest('d', rec(1));
      fs.fill();
      const big = { ...rec(2), query: `id=d&layout=l&t=${'x'.repeat(5000)}` };
      for (let i = 0; i < 5; i++) await store.setLastRequest('d', big);
      assert.match(store.problems()[0]?.message ?? '', /cannot be written \(ENOSPC/);
      await store.flush();
      assert.deepEqual(
        readdirSync(dir).filter((f) => f.endsWith('.tmp')),
        [],
        'no temporary file left',
      );
      assert.equal(existsSync(path.join(dir, 'state.json')), true, 'the last good snapshot stays');

      fs.free();
      await store.setLastRequest('d', rec(3));
      await until(() => store.problems().length === 0, 3000, 'the state to be saved again');
      assert.equal((await new StateStore(dir).load()).lastRequest.d.at, 3);
    } finally {
      fs.cleanup();
    }
  },
);

test(
  "a command's journal write that fails is taken back whole: the saved state, the callers' undo (newest first), " +
    'no line of it in the journal',
  { skip: tmpfsUnavailable() },
  async () => {
    const fs = mountTmpfs('1m');
    try {
      const dir = sub(fs, 'state');
      const store = new StateStore(dir, { retryMs: 60_000 });
      await store.load();
      await store.setLastRequest('d', rec(1));
      fs.fill();
      // One turn: the first line goes at once (the journal's last page may still hold it), the
      // other nine together at the turn's end, more than that page can hold: a short write.
      const big = (n: number) => ({ ...rec(n), query: `id=d&layout=l&n=${n}&t=${'x'.repeat(1000)}` });
      const undone: number[] = [];
      const lines = Array.from({ length: 10 }, (_, i) =>
        store.noteLastRequest('d', big(i + 2), () => undone.push(i + 2)),
      );
      const settled = await Promise.allSettled(lines.map((l) => l ?? Promise.resolve()));
      const kept = settled.map((s, i) => (s.status === 'fulfilled' ? i + 2 : undefined)).filter((n) => n !== undefined);
      assert.ok(kept.length <= 1, `at most the first line fitted: ${kept}`);
      assert.deepEqual(
        undone,
        Array.from({ length: 10 - kept.length }, (_, i) => 11 - i),
        'every other line taken back, the newest first',
      );
      for (const s of settled) if (s.status === 'rejected') assert.match((s.reason as Error).message, /ENOSPC/);
      const last = kept.length ? kept[0] : 1;
      assert.equal(store.get().lastRequest.d.at, last, 'the saved state is what was stored');
      assert.match(store.unwritable() ?? '', /state folder .* cannot be written \(ENOSPC/);

      const journal = readdirSync(dir)
        .filter((f) => f.startsWith('state.journal.'))
        .map((f) => readFileSync(path.join(dir, f), 'utf8'))
        .join('');
      assert.ok(journal.endsWith('\n'), 'no cut line');
      for (let n = last + 1; n < 12; n++)
        assert.equal(journal.includes(`n=${n}&`), false, `line ${n} is not in the journal`);
      const again = new StateStore(dir);
      assert.equal((await again.load()).lastRequest.d.at, last, 'a restart loads what was stored');
      assert.equal(
        again.problems().some((p) => /unreadable/.test(p.message)),
        false,
        JSON.stringify(again.problems()),
      );

      // While the folder fails, a change is taken back at once.
      let back = false;
      const refused = store.noteLastRequest('e', rec(20), () => {
        back = true;
      });
      assert.ok(back && refused);
      await assert.rejects(refused, /ENOSPC/);
      assert.equal(store.get().lastRequest.e, undefined);
    } finally {
      fs.cleanup();
    }
  },
);
