// What a readout says, from a display's state as the controller holds it: alerts first, then
// the level on show in layout order; a departures area row by row from its BoardSource, a
// text area without its MULTI tags and with its pages as pauses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BoardQuery, BoardSource, Departure } from '../../src/config/board-source.js';
import type { AreaConfig, DisplayConfig } from '../../src/config/types.js';
import type { AreaState, DisplayState, Layer } from '../../src/control/state.js';
import { readoutText } from '../../src/speech/readout-text.js';

const NOW = Date.UTC(2026, 11, 7, 13, 58, 10);
const text = (id: string, multi = false) =>
  ({ id, type: 'text', ...(multi ? { markup: 'multi' } : {}) }) as unknown as AreaConfig;
const deps = {
  id: 'deps',
  type: 'departures',
  departures: {
    feed: 'f',
    stops: ['s1'],
    staleAfter: 120,
    rows: 3,
    noDataText: 'No information',
    noDeparturesText: 'No departures',
  },
} as unknown as AreaConfig;
const display = {
  id: 'stop1',
  layouts: new Map([
    ['board', { name: 'board', areas: [deps, text('note', true)] }],
    ['alert', { name: 'alert', areas: [text('msg')] }],
  ]),
} as unknown as DisplayConfig;
const st = (area: AreaConfig, t?: string): AreaState => ({
  area,
  source: t === undefined ? 'none' : 'request',
  text: t,
  setAt: NOW,
});
const layer = (priority: number, source: string, layout: string, areas: AreaState[]): Layer => ({
  priority,
  source,
  layout,
  areas: new Map(areas.map((a) => [a.area.id, a])),
  since: NOW,
  query: '',
  named: new Set(),
});

const dep = (route: string, destination: string, platform: string, minutes: number, cancelled = false): Departure => ({
  key: route,
  route,
  destination,
  platform,
  time: NOW + minutes * 60_000,
  live: true,
  cancelled,
});
const boards = (departures: Departure[]): BoardSource & { asked: BoardQuery[] } => {
  const asked: BoardQuery[] = [];
  return {
    asked,
    board: (q) => {
      asked.push(q);
      return { state: 'live', departures: departures.slice(0, q.limit) };
    },
    onChange: () => () => {},
  };
};

function stateOf(layers: Layer[]): DisplayState {
  return { id: 'stop1', layout: layers[0].layout, layoutSetAt: NOW, areas: layers[0].areas, version: 1, layers };
}

test(
  'a departures area is read row by row, a cancelled one with its clock time in the zone; then the text ' +
    'areas, MULTI tags dropped and pages as pauses',
  () => {
    const base = layer(0, 'http', 'board', [
      st(deps),
      st(text('note', true), '[cf255,0,0]Lift out of order[np]use ramp B'),
    ]);
    const b = boards([
      dep('7', 'Airport', '2', 2.5),
      dep('9', 'Park', '', 22, true),
      dep('12', 'Harbour', '', 0.2),
      dep('4', 'Zoo', '1', 90),
    ]);
    const said = readoutText(display, stateOf([base]), b, NOW, 'Europe/Prague');
    assert.equal(
      said,
      'Line 7 to Airport, platform 2, in 2 minutes; cancelled: line 9 to Park at 15:20; Line 12 to Harbour, now. ' +
        'Lift out of order. use ramp B.',
    );
    assert.equal(b.asked[0].limit, 3);
    assert.deepEqual([b.asked[0].feed, b.asked[0].stops], ['f', ['s1']]);
  },
);

test(
  'alerts are read first, even below the level on show; a level that is ' + 'not an alert is read only when on show',
  () => {
    const base = layer(0, 'http', 'board', [st(deps), st(text('note', true), 'Welcome')]);
    const alert = layer(5, 'cap', 'alert', [st(text('msg'), 'Flood warning: leave the underpass')]);
    const poller = layer(7, 'poller', 'alert', [st(text('msg'), 'Service change tonight')]);
    const b = boards([dep('7', 'Airport', '2', 5)]);
    assert.equal(
      readoutText(display, stateOf([poller, alert, base]), b, NOW, 'UTC'),
      'Flood warning: leave the underpass. Service change tonight.',
    );
    assert.equal(readoutText(display, stateOf([alert, base]), b, NOW, 'UTC'), 'Flood warning: leave the underpass.');
    const spoken = layer(9, 'speech', 'alert', [st(text('msg'), 'Mind the gap')]);
    assert.equal(
      readoutText(display, stateOf([spoken, base]), b, NOW, 'UTC'),
      'Line 7 to Airport, platform 2, in 5 minutes. Welcome.',
      "the spoken text shown is not the sign's",
    );
    const feedAlert = layer(3, 'feed', 'board', [st(deps), st(text('note', true), 'Line 9 diverted')]);
    assert.equal(
      readoutText(display, stateOf([feedAlert, base]), b, NOW, 'UTC'),
      'Line 7 to Airport, platform 2, in 5 minutes. Line 9 diverted.',
    );
  },
);

test("a board without data or departures says the area's own words; a sign with nothing to read says nothing", () => {
  const base = layer(0, 'http', 'board', [st(deps), st(text('note'))]);
  const none: BoardSource = { board: () => ({ state: 'no-data', departures: [] }), onChange: () => () => {} };
  assert.equal(readoutText(display, stateOf([base]), none, NOW, 'UTC'), 'No information.');
  assert.equal(readoutText(display, stateOf([base]), boards([]), NOW, 'UTC'), 'No departures.');
  assert.equal(
    readoutText(
      display,
      { id: 'stop1', layoutSetAt: 0, areas: new Map(), version: 0, layers: [] },
      undefined,
      NOW,
      'UTC',
    ),
    '',
  );
});
