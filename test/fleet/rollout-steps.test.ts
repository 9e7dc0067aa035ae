// The steps of `mlds fleet rollout`: counts and shares of the group (rounded up), each step
// taking only units the ones before did not; faulty steps refused with the item named.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSteps, plan, type Step } from '../../src/fleet/rollout-steps.js';

const units = (n: number) => Array.from({ length: n }, (_, i) => `u${String(i).padStart(2, '0')}`);
const steps = (s: string) => parseSteps(s) as Step[];

test('1,10%,100% of 30 units: 1, then 2 more, then the 27 left', () => {
  const p = plan(steps('1,10%,100%'), units(30));
  assert.deepEqual(
    p.map((s) => s.length),
    [1, 2, 27],
  );
  assert.deepEqual(p.flat(), units(30));
});

test('shares round up, steps that reach no further are dropped, counts stop at the group', () => {
  assert.deepEqual(plan(steps('1,10%,50%,100%'), units(4)), [['u00'], ['u01'], ['u02', 'u03']]);
  assert.deepEqual(plan(steps('2,5,100%'), units(3)), [['u00', 'u01'], ['u02']]);
  assert.deepEqual(plan(steps('25%'), units(8)), [['u00', 'u01']]);
});

test('faulty steps are refused naming the item', () => {
  assert.match(parseSteps('1,0%,100%') as string, /"0%" is not a share/);
  assert.match(parseSteps('1,150%') as string, /"150%" is not a share/);
  assert.match(parseSteps('1,x') as string, /"x" is neither a number of units/);
  assert.match(parseSteps('0') as string, /"0" is neither/);
  assert.match(parseSteps('') as string, /"" is neither/);
  assert.match(parseSteps(Array(101).fill('1').join(',')) as string, /at most 100/);
});
