// An area type is defined in one place: area-fields.ts lists each type's fields, the normalized
// area of a type holds those and no other (the common fields, and the few made of them), and no
// module outside the type's own and the registries compares a type's name.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { AREA_TYPE_NAMES, COMMON_FIELDS, fieldsOf, type AreaType } from '../../src/config/area-types/area-fields.js';
import { loadConfig } from '../../src/config/load.js';
import { makeTone } from '../media/helpers.js';
import { REPO, baseConfig, serviceDir } from '../helpers/service.js';

/** What the file's fields become in the normalized area besides their own names. */
const BASE = [
  'id',
  'type',
  'x',
  'y',
  'width',
  'height',
  ...Object.keys(COMMON_FIELDS).filter((f) => f !== 'coordinates'),
];
const MADE: Partial<Record<AreaType, string[]>> = { web: ['refreshSeconds'], departures: ['departures'] };
/** A departures area's fields no other type takes: its board's, held together as `departures`. */
const takenElsewhere = (f: string) => AREA_TYPE_NAMES.some((t) => t !== 'departures' && fieldsOf(t).includes(f));
const BOARD = new Set(fieldsOf('departures').filter((f) => !takenElsewhere(f)));

test("each type's normalized area holds the fields area-fields.ts gives the type, and no other", () => {
  const c = baseConfig();
  c.feeds = { city: { type: 'siri', url: 'http://127.0.0.1:8080/sm' } };
  c.displays.main.layout.every = {
    st: { coordinates: '0 0 99 19', type: 'static', params: { a: 'Alpha' }, defaultValue: 'a' },
    tx: { coordinates: '0 20 99 39', type: 'text', defaultValue: 'Hello' },
    dy: { coordinates: '100 0 199 19', type: 'dynamic' },
    im: { coordinates: '100 20 199 39', type: 'image', params: { logo: 'logo.png' } },
    vi: { coordinates: '0 40 99 59', type: 'video', params: { clip: 'test-pattern.mp4' } },
    da: { coordinates: '100 40 199 59', type: 'date', dateOffset: '1' },
    au: { coordinates: '0 60 9 69', type: 'audio', params: { low: 'low.wav' } },
    we: { coordinates: '10 60 99 79', type: 'web', params: { page: 'http://127.0.0.1:9000/' }, xy: '0 0' },
    de: {
      coordinates: '100 60 199 99',
      type: 'departures',
      feed: 'city',
      stops: ['S1'],
      columns: [{ width: '100', field: 'destination' }],
    },
  };
  const sd = serviceDir(c);
  try {
    makeTone(path.join(sd.dir, 'images/low.wav'), 440, 1);
    const areas = loadConfig(sd.configFile).displays[0].layouts.get('every')!.areas;
    assert.deepEqual(areas.map((a) => a.type).sort(), [...AREA_TYPE_NAMES].sort(), 'one area of every type');
    for (const a of areas) {
      const own = fieldsOf(a.type).filter((f) => !BOARD.has(f));
      const allowed = new Set([...BASE, ...own, ...(MADE[a.type] ?? [])]);
      const stray = Object.keys(a).filter((k) => !allowed.has(k));
      assert.deepEqual(stray, [], `the ${a.type} area holds fields its type does not take`);
      // What the type takes and always has a value for is there (a field the file may leave out may be undefined).
      const always = ['params', 'fontSize', 'textFromStart', 'dateFormat', ...(MADE[a.type] ?? [])];
      for (const f of always.filter((f) => allowed.has(f))) assert.ok(f in a, `the ${a.type} area lacks ${f}`);
    }
  } finally {
    sd.cleanup();
  }
});

/** The registries: the table of types and fields, the types' behaviour, their drawers. */
const REGISTRIES = [
  'src/config/area-types/area-fields.ts',
  'src/config/area-types/registry.ts',
  'src/render/content/drawers.ts',
];
/** A type's own module (static and dynamic areas are text.ts's). */
const ownModule = (type: string) =>
  `src/config/area-types/${type === 'static' || type === 'dynamic' ? 'text' : type}.ts`;

function sources(dir: string): string[] {
  return readdirSync(path.join(REPO, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sources(rel);
    return e.name.endsWith('.ts') && !e.name.endsWith('.generated.ts') ? [rel] : [];
  });
}

test("no area type's name is compared, switched on or listed outside its own module and the registries", () => {
  const found: string[] = [];
  for (const type of AREA_TYPE_NAMES) {
    const name = `'${type}'`;
    // `x.type === 'image'`, `'image' !== type`, `case 'image':`, `['video', 'audio']` as AreaType[].
    const compared = new RegExp(
      [
        `\\btype\\s*[!=]==?\\s*${name}`,
        `${name}\\s*[!=]==?\\s*[\\w.]*\\btype\\b`,
        `case\\s+${name}\\s*:`,
        `AreaType\\[\\]\\s*=\\s*\\[[^\\]]*${name}`,
      ].join('|'),
    );
    for (const file of sources('src').filter((f) => !REGISTRIES.includes(f) && f !== ownModule(type))) {
      readFileSync(path.join(REPO, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (compared.test(line)) found.push(`${file}:${i + 1} (${type}): ${line.trim()}`);
        });
    }
  }
  assert.deepEqual(found, [], "ask the type's module (registry.ts kindOf) or its drawer (drawers.ts) instead");
});
