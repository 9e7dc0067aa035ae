// The readout's inputs without hardware: gpiomon's arguments as Debian's gpiomon (libgpiod 1.6)
// takes them, its event lines read back, debouncing on the kernel's timestamps, the GPIO seam
// driven by a mock through ReadoutInputs (presses, a lost chip reported and reopened), and a
// serial pattern found across reads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  debouncer,
  gpiomonArgs,
  gpiomonLines,
  parseGpiomonLine,
  type GpioEdge,
  type GpioLines,
} from '../../src/speech/gpio-lines.js';
import { ReadoutInputs, REOPEN_MS } from '../../src/speech/readout-inputs.js';
import { patternMatcher } from '../../src/speech/serial-trigger.js';
import type { ServiceConfig } from '../../src/config/types.js';
import { skipReason } from '../helpers/skip.js';
import { until } from '../helpers/service.js';

const noGpiomon = spawnSync('gpiomon', ['--version']).error
  ? skipReason('needs gpiomon (Debian package gpiod; the Makefile installs it)')
  : undefined;

test(
  "Debian's gpiomon takes the arguments of a watch: it fails on the missing chip, not on an option",
  { skip: noGpiomon },
  () => {
    for (const edge of ['rising', 'falling'] as const) {
      const r = spawnSync('gpiomon', gpiomonArgs('gpiochip-mlds-none', 3, edge), { encoding: 'utf8', timeout: 10_000 });
      assert.notEqual(r.status, 0);
      assert.doesNotMatch(r.stderr, /unrecognized|invalid option|usage/i, r.stderr);
      assert.match(r.stderr, /No such file or directory/, r.stderr);
    }
    // The check above means something: an option gpiomon lacks is named as such.
    const bad = spawnSync('gpiomon', ['--debounce-period=5ms', 'gpiochip-mlds-none', '3'], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    assert.match(bad.stderr, /unrecognized option/, bad.stderr);
  },
);

test("gpiomon's event lines in the format asked for are read back; anything else is not an edge", () => {
  assert.deepEqual(parseGpiomonLine('1 17 1234 5678'), { rising: true, offset: 17, ns: 1_234_000_005_678n });
  assert.deepEqual(parseGpiomonLine('0 3 9 123456789\n'), { rising: false, offset: 3, ns: 9_123_456_789n });
  for (const bad of [
    '',
    'event:  RISING EDGE offset: 17 timestamp: [1234.5678]',
    '2 17 1 1',
    '1 17 1',
    '1 x 1 1',
    '1 17 1 1234567890',
  ]) {
    assert.equal(parseGpiomonLine(bad), undefined, bad);
  }
  assert.ok(gpiomonArgs('gpiochip0', 17, 'falling').includes('--format=%e %o %s %n'));
});

test('edges closer than debounceMs to the last press are a bouncing contact', () => {
  const pass = debouncer(50);
  const at = (ms: number): GpioEdge => ({ rising: false, offset: 1, ns: BigInt(ms) * 1_000_000n });
  assert.deepEqual(
    [0, 3, 20, 49, 50, 51, 200].map((ms) => pass(at(ms))),
    [true, false, false, false, true, false, true],
  );
  const all = debouncer(0);
  assert.deepEqual(
    [0, 0, 1].map((ms) => all(at(ms))),
    [true, true, true],
  );
});

/** A mock of the GPIO seam: the test fires edges and ends watches. */
function mockLines() {
  const watches: Array<{
    chip: string;
    line: number;
    edge: string;
    fire: (e: GpioEdge) => void;
    end: (why: string) => void;
    closed: boolean;
  }> = [];
  const lines: GpioLines = {
    watch(chip, line, edge, onEdge, onEnd) {
      const w = { chip, line, edge, fire: onEdge, end: onEnd, closed: false };
      watches.push(w);
      return {
        close: async () => {
          w.closed = true;
        },
      };
    },
  };
  return { lines, watches };
}

const configWith = (inputs: unknown[]): ServiceConfig =>
  ({ displays: [{ id: 'hall', readout: { inputs } }] }) as unknown as ServiceConfig;

test(
  'ReadoutInputs: a debounced edge of the configured line presses for its display; a lost chip is a problem ' +
    'and is watched again',
  async () => {
    const presses: string[] = [];
    const { lines, watches } = mockLines();
    const inputs = new ReadoutInputs((id) => presses.push(id), lines);
    const gpio = { type: 'gpio', chip: 'gpiochip0', line: 17, edge: 'rising', debounceMs: 50 };
    await inputs.sync(configWith([gpio]));
    await until(() => watches.length === 1, 5000, 'the watch');
    assert.deepEqual([watches[0].chip, watches[0].line, watches[0].edge], ['gpiochip0', 17, 'rising']);
    for (const ms of [0, 10, 100]) watches[0].fire({ rising: true, offset: 17, ns: BigInt(ms) * 1_000_000n });
    assert.deepEqual(presses, ['hall', 'hall']);
    watches[0].end('gpiomon: cannot find GPIO chip');
    assert.match(inputs.problems()[0]?.message ?? '', /gpiochip0 line 17: gpiomon: cannot find GPIO chip/);
    await until(() => watches.length === 2, REOPEN_MS + 5000, 'watched again');
    assert.deepEqual(inputs.problems(), []);
    // A reload without the input ends its watch; a stop ends the rest.
    await inputs.sync(configWith([]));
    assert.equal(watches[1].closed, true);
    await inputs.sync(configWith([gpio]));
    await inputs.stop();
    assert.equal(watches[2].closed, true);
  },
);

test('a serial pattern is found across reads and among other bytes, and memory keeps only its length less one', () => {
  const m = patternMatcher(Buffer.from([0x02, 0x52, 0x03]));
  assert.equal(m(Buffer.from([0x01, 0x02])), 0);
  assert.equal(m(Buffer.from([0x52])), 0);
  assert.equal(m(Buffer.from([0x03, 0x02, 0x52, 0x03, 0x02, 0x51, 0x03])), 2);
  assert.equal(m(Buffer.alloc(100_000, 0x02)), 0);
  assert.equal(m(Buffer.from([0x52, 0x03])), 1);
  const one = patternMatcher(Buffer.from('R'));
  assert.equal(one(Buffer.from('RxRR')), 3);
});

test(
  "the gpiomon seam reads a child's event lines as they come, split anywhere, and reports its end once with " +
    'its last words',
  async () => {
    // A stand-in gpiomon first on PATH: it notes its arguments, writes three events in pieces and ends.
    const dir = mkdtempSync(path.join(tmpdir(), 'mlds-gpiomon-'));
    const PATH = process.env.PATH;
    try {
      writeFileSync(
        path.join(dir, 'gpiomon'),
        `#!/bin/sh\necho "$@" > "${dir}/args"\nprintf '1 17 5 0\\n1 1'\nsleep 0.1\nprintf '7 5 2000\\nnoise\\n0 17 ` +
          `6 7\\n'\necho 'cannot find GPIO chip' >&2\nexit 1\n`,
      );
      chmodSync(path.join(dir, 'gpiomon'), 0o755);
      process.env.PATH = `${dir}:${PATH}`;
      const edges: GpioEdge[] = [];
      const ends: string[] = [];
      gpiomonLines.watch(
        'gpiochip0',
        17,
        'rising',
        (e) => edges.push(e),
        (why) => ends.push(why),
      );
      await until(() => ends.length > 0, 10_000, 'the end');
      assert.deepEqual(edges, [
        { rising: true, offset: 17, ns: 5_000_000_000n },
        { rising: true, offset: 17, ns: 5_000_002_000n },
        { rising: false, offset: 17, ns: 6_000_000_007n },
      ]);
      assert.deepEqual(ends, ['gpiomon: cannot find GPIO chip']);
      assert.equal(
        readFileSync(path.join(dir, 'args'), 'utf8').trim(),
        gpiomonArgs('gpiochip0', 17, 'rising').join(' '),
      );
    } finally {
      process.env.PATH = PATH;
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
