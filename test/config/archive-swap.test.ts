// Crash safety of the configuration swap: a child process runs swapConfiguration (or the
// recovery) and is killed with SIGKILL between every two steps and at random moments; after
// recoverInterruptedSwap the service directory holds exactly the old or exactly the new tree.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { after, test } from 'node:test';
import { BACKUPS, JOURNAL, recoverInterruptedSwap, STAGING } from '../../src/config/archive/swap.js';
import { snapshot } from '../helpers/zips.js';

const CHILD = path.resolve(import.meta.dirname, '../helpers/swap-child.ts');
const root = mkdtempSync(path.join(tmpdir(), 'mlds-swap-'));
after(() => rmSync(root, { recursive: true, force: true }));

type Tree = Record<string, string>;
const OLD: Tree = {
  'config.json': '{"v":"old"}',
  'fonts/a.ttf': 'font',
  'images/x.png': 'old x',
  'images/sub/y.png': 'y',
  'inc.json': '{}',
};
const NEW: Tree = {
  'config.json': '{"v":"new"}',
  'images/x.png': 'new x',
  'images/z.png': 'z',
  'extra.json': '[]',
  'brightness-schedule.json': '{"periods":[]}',
};

function write(dir: string, tree: Tree): void {
  for (const [name, text] of Object.entries(tree)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
}

/** Files only, as a test compares trees: a folder counts through its files. */
const files = (dir: string, skipDot = true) =>
  new Map([...snapshot(dir, skipDot)].filter(([k]) => !k.endsWith('/') && !k.startsWith('state/')));
const asMap = (tree: Tree) => new Map(Object.entries(tree).map(([k, v]) => [k, Buffer.from(v)]));

let n = 0;
/** The old configuration in place, with a state folder, a dot file, a previous backup, and the new tree staged. */
function prepared(oldTree = OLD, newTree = NEW): string {
  const dir = path.join(root, `s${n++}`);
  write(dir, oldTree);
  write(dir, {
    'state/last.json': '{"keep":1}',
    '.hidden': 'dot',
    [`${BACKUPS}/000001-2020-01-01T00-00-00-000Z/config.json`]: 'older',
  });
  write(path.join(dir, STAGING), newTree);
  return dir;
}

interface Run {
  steps: string[];
  killed: boolean;
  ms?: number;
}

/**
 * Runs the child; with `killAt`, SIGKILLs it when it pauses at that step index (or after `killAfterMs` when running
 * straight).
 */
async function runChild(
  mode: 'swap' | 'recover',
  dir: string,
  kill: { atStep?: number; afterMs?: number } = {},
): Promise<Run> {
  const how = kill.afterMs === undefined ? 'pause' : 'run';
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, mode, dir, how], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<{ code: number | null }>((r) => child.on('exit', (code) => r({ code })));
  const run: Run = { steps: [], killed: false };
  for await (const line of readline.createInterface({ input: child.stdout })) {
    if (line === 'ready' && kill.afterMs !== undefined)
      setTimeout(() => {
        run.killed = child.kill('SIGKILL');
      }, kill.afterMs).unref();
    if (line.startsWith('done ')) run.ms = Number(line.slice(5));
    if (!line.startsWith('step ')) continue;
    run.steps.push(line.slice(5));
    if (run.steps.length - 1 === kill.atStep) {
      run.killed = child.kill('SIGKILL');
      break;
    }
    child.stdin.write('go\n');
  }
  const { code } = await exited;
  if (!run.killed) assert.equal(code, 0, `${mode} child failed`);
  return run;
}

/** After recovery: exactly one of the trees, nothing half-done left, state and dot files untouched, one backup. */
function assertWhole(dir: string, expect: 'old' | 'new' | 'either', what: string): 'old' | 'new' {
  const now = files(dir);
  const which = deepEq(now, asMap(NEW)) ? 'new' : deepEq(now, asMap(OLD)) ? 'old' : undefined;
  assert.ok(which, `${what}: a mix of old and new: ${[...now.keys()].join(' ')}`);
  if (expect !== 'either') assert.equal(which, expect, what);
  for (const leftover of [STAGING, JOURNAL, `${JOURNAL}.tmp`])
    assert.equal(existsSync(path.join(dir, leftover)), false, `${what}: ${leftover} left`);
  assert.deepEqual(files(path.join(dir, 'state'), false), new Map([['last.json', Buffer.from('{"keep":1}')]]));
  assert.equal(existsSync(path.join(dir, '.hidden')), true);
  const backups = readdirSync(path.join(dir, BACKUPS));
  assert.equal(backups.length, 1, `${what}: backups ${backups.join(' ')}`);
  const backup = files(path.join(dir, BACKUPS, backups[0]));
  assert.ok(
    deepEq(backup, which === 'new' ? asMap(OLD) : new Map([['config.json', Buffer.from('older')]])),
    `${what}: the backup is not the previous configuration`,
  );
  return which;
}

function deepEq(a: Map<string, Buffer>, b: Map<string, Buffer>): boolean {
  return a.size === b.size && [...a].every(([k, v]) => b.get(k)?.equals(v));
}

test(
  'a swap killed between any two of its steps recovers to the old tree before the journal, the new one after',
  { timeout: 240_000 },
  async () => {
    const full = prepared();
    const { steps } = await runChild('swap', full);
    assertWhole(full, 'new', 'uninterrupted swap');
    assert.equal(await recoverInterruptedSwap(full), 'none');
    const commit = steps.indexOf('committed');
    assert.ok(commit > 0 && steps.length > commit + Object.keys(OLD).length + Object.keys(NEW).length, steps.join(' '));

    for (let k = 0; k < steps.length; k++) {
      const dir = prepared();
      const run = await runChild('swap', dir, { atStep: k });
      assert.ok(run.killed);
      const action = await recoverInterruptedSwap(dir);
      assertWhole(dir, k < commit ? 'old' : 'new', `killed after step ${k} (${steps[k]}), recovery ${action}`);
    }
  },
);

test('a recovery killed between any two of its steps recovers on the next start', { timeout: 240_000 }, async () => {
  const killPoint = (await runChild('swap', prepared())).steps.indexOf('moved-old:fonts');
  const sample = prepared();
  await runChild('swap', sample, { atStep: killPoint });
  const { steps } = await runChild('recover', sample);
  assertWhole(sample, 'new', 'uninterrupted recovery');
  for (let k = 0; k < steps.length; k++) {
    const dir = prepared();
    await runChild('swap', dir, { atStep: killPoint });
    assert.ok((await runChild('recover', dir, { atStep: k })).killed);
    await recoverInterruptedSwap(dir);
    assertWhole(dir, 'new', `recovery killed after step ${k} (${steps[k]})`);
  }
});

test(
  'a swap of a larger tree killed at random moments leaves the old or the new tree, never a mix',
  { timeout: 240_000 },
  async () => {
    const big = (label: string, count: number): Tree =>
      Object.fromEntries([
        ['config.json', `{"v":"${label}"}`],
        ...Array.from({ length: count }, (_, i) => [`images/${label}${i}.png`, `${label} ${i}`]),
        ...Array.from({ length: 20 }, (_, i) => [`top-${label}-${i}.json`, `{"i":${i}}`]),
      ]);
    const OLD_BIG = big('old', 150);
    const NEW_BIG = big('new', 150);
    const timing = prepared(OLD_BIG, NEW_BIG);
    const full = await runChild('swap', timing, { afterMs: 60_000 });
    assert.ok(full.ms !== undefined && !full.killed);
    for (let i = 0; i < 8; i++) {
      const dir = prepared(OLD_BIG, NEW_BIG);
      await runChild('swap', dir, { afterMs: Math.random() * full.ms });
      await recoverInterruptedSwap(dir);
      const now = files(dir);
      const which = deepEq(now, asMap(NEW_BIG)) ? 'new' : deepEq(now, asMap(OLD_BIG)) ? 'old' : undefined;
      assert.ok(which, `random kill ${i}: a mix of old and new`);
      assert.deepEqual(
        readdirSync(dir)
          .filter((e) => e.startsWith('.'))
          .sort(),
        ['.hidden', BACKUPS],
      );
    }
  },
);

test('recovery at start: nothing to do, or an uncommitted staging folder discarded', async () => {
  const dir = prepared();
  assert.equal(await recoverInterruptedSwap(dir), 'discarded-staging');
  assertWhole(dir, 'old', 'staging without journal');
  assert.equal(await recoverInterruptedSwap(dir), 'none');
});
