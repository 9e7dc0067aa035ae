// The STATUS= line `systemctl status mlds` shows, from the facts at each stage.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { statusText, type StatusFacts } from '../../src/device/status-text.js';

type Displays = NonNullable<StatusFacts['status']>['displays'];
const display = (id: string, unit: string, output?: object) => ({ id, unit, output }) as unknown as Displays[number];
const ok = (displays: Displays = [display('a', 'u1')]): StatusFacts['status'] => ({
  config: { status: 'ok', file: '/etc/mlds/config.json' },
  displays,
  problems: [],
});

test('starting, boot screens, ready, stopping', () => {
  assert.equal(
    statusText({ phase: 'starting', port: 9199, units: 2 }),
    'starting: 2 unit(s) blanked, waiting for HTTP on port 9199',
  );
  const boot: StatusFacts['boot'] = {
    units: [
      { unit: 'fbdev:/dev/fb0', showing: 'info', until: '2026-11-21T07:00:12.345Z' },
      { unit: 'ddp:1', showing: 'logo' },
      { unit: 'v', showing: 'content' },
    ],
  };
  assert.equal(
    statusText({ phase: 'running', port: 9199, units: 3, status: ok(), boot }),
    'boot screens: info screen on unit fbdev:/dev/fb0 until 07:00:12Z, start logo on unit ddp:1; HTTP on port 9199',
  );
  assert.equal(
    statusText({
      phase: 'running',
      port: 80,
      units: 1,
      status: ok([display('a', 'u1'), display('b', 'u1')]),
      boot: { units: [{ unit: 'u1', showing: 'content' }] },
    }),
    'ready: 2 display(s) on 1 unit(s), HTTP on port 80',
  );
  assert.equal(statusText({ phase: 'stopping', port: 9199, units: 1 }), 'stopping');
});

test(
  'what is wrong follows, each after a bar: configuration faults, failing outputs (once per unit), the ' +
    'watchdog, problems',
  () => {
    const status: StatusFacts['status'] = {
      config: {
        status: 'faulty',
        file: '/etc/mlds/config.json',
        faults: [
          { path: '/displays/a/x', message: 'is not a known field' },
          { path: '', message: 'two' },
        ],
      },
      displays: [
        display('a', 'fb', { lastResult: 'error', lastError: 'open: EACCES' }),
        display('b', 'fb', { lastResult: 'error', lastError: 'open: EACCES' }),
        display('c', 'ddp', { lastResult: 'ok' }),
      ],
      problems: [{ source: 'log', message: 'the log disk is full', since: '' }],
    };
    assert.equal(
      statusText({ phase: 'running', port: 9199, units: 2, status, watchdog: ['frame loop of unit fb: stopped'] }),
      [
        'ready: 3 display(s) on 2 unit(s), HTTP on port 9199',
        'configuration faults: 2 in the last load of /etc/mlds/config.json, the last good configuration runs ' +
          '(/displays/a/x: is not a known field)',
        'outputs failing: unit fb: open: EACCES',
        'watchdog withheld: frame loop of unit fb: stopped',
        'problems: log: the log disk is full',
      ].join(' | '),
    );
  },
);

test('the count of configuration faults is every fault of the load, not the lines listed', () => {
  const faults = Array.from({ length: 101 }, (_, i) => ({ path: `/x${i}`, message: 'is not a known field' }));
  const status: StatusFacts['status'] = {
    config: { status: 'faulty', file: '/c.json', faults, faultTotal: 1_000_000 },
    displays: [display('a', 'u1')],
    problems: [],
  };
  assert.match(
    statusText({ phase: 'running', port: 9199, units: 1, status }),
    /configuration faults: 1000000 in the last load of \/c\.json/,
  );
});
