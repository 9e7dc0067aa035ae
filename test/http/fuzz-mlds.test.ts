// Property tests of /mlds with fast-check, commands generated from the configuration's own
// layouts. A valid command is answered 200 {"result":"command received"}, stored exactly as
// sent, and switches the screen to its layout; a command with one fault (each kind the
// control path knows) is answered 400 with that fault's code and leaves the lossless
// screenshot byte-identical and no new frame drawn.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { RunningService } from '../../src/main.js';
import { baseConfig, decode, get, serviceDir, start, until } from '../helpers/service.js';
import { redrawn } from '../helpers/wait.js';

type Config = ReturnType<typeof baseConfig>;
interface AreaDef {
  type: string;
  params?: Record<string, string>;
  coordinates: string;
}
interface Pair {
  name: string;
  value: string;
}

const SEED = Number(process.env.MLDS_FUZZ_SEED ?? 20261121);
const RESERVED = new Set(['id', 'layout', 'inumber', 'key']);
const enc = (pairs: Pair[]) =>
  pairs.map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(p.value)}`).join('&');

function layoutsOf(config: Config): Map<string, Map<string, AreaDef>> {
  const layouts = config.displays.main.layout as Record<string, Record<string, AreaDef>>;
  return new Map(Object.entries(layouts).map(([name, areas]) => [name, new Map(Object.entries(areas))]));
}

/**
 * Any text a TPCM may send: every Unicode plane, short enough never to be refused; no tab (it separates cells only in
 * an area with columns).
 */
const anyText = fc.string({ unit: 'binary', maxLength: 40 }).map((s) => s.replaceAll('\t', ' '));

/**
 * A valid command for one layout: some of its areas, each with a value its type accepts, maybe overrides and inumber.
 */
function validCommand(layouts: Map<string, Map<string, AreaDef>>): fc.Arbitrary<{ layout: string; pairs: Pair[] }> {
  return fc.constantFrom(...layouts.keys()).chain((layout) => {
    const areas = [...layouts.get(layout)!.entries()];
    const areaPairs = areas.map(([id, a]) => {
      const value = a.params ? fc.constantFrom('', ...Object.keys(a.params)) : anyText;
      const height = (() => {
        const [, y, , Y] = a.coordinates.split(' ').map(Number);
        return Y - y + 1;
      })();
      const overrides =
        a.type === 'text' || a.type === 'static'
          ? fc.record({
              color: fc.option(fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map((c) => c.join('_'))),
              size: fc.option(fc.integer({ min: 1, max: Math.min(30, height - 1) }).map(String)),
            })
          : fc.constant({ color: null, size: null });
      return fc
        .option(fc.tuple(value, overrides))
        .map((v): Pair[] =>
          v === null
            ? []
            : [
                { name: id, value: v[0] },
                ...(v[1].color !== null ? [{ name: `fontColor[${id}]`, value: v[1].color }] : []),
                ...(v[1].size !== null ? [{ name: `fontSize[${id}]`, value: v[1].size }] : []),
              ],
        );
    });
    return fc
      .tuple(fc.tuple(...areaPairs), fc.option(fc.stringMatching(/^[A-Za-z0-9-]{1,20}$/)))
      .map(([parts, inumber]) => ({
        layout,
        pairs: [
          { name: 'id', value: 'main' },
          { name: 'layout', value: layout },
          ...parts.flat(),
          ...(inumber !== null ? [{ name: 'inumber', value: inumber }] : []),
        ],
      }));
  });
}

/**
 * One fault added to a valid command, with the code the service must answer. Raw pieces are written as they go on the
 * wire.
 */
function faultyCommand(
  layouts: Map<string, Map<string, AreaDef>>,
): fc.Arbitrary<{ query: string; code: string; why: string }> {
  const word = fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/);
  return fc.tuple(validCommand(layouts), fc.nat(1000), word).map(([cmd, n, w]) => {
    const areas = layouts.get(cmd.layout)!;
    const rest = cmd.pairs.filter((p) => p.name !== 'id' && p.name !== 'layout');
    const head = (id: string, layout: string) => [
      { name: 'id', value: id },
      { name: 'layout', value: layout },
    ];
    // Every layout of the test configuration has a text area.
    const text = [...areas].find(([, a]) => a.type === 'text')![0];
    const keyed = [...areas].find(([, a]) => a.params)?.[0];
    const noFont = [...areas].find(([, a]) => a.type === 'image')?.[0];
    const unknownArea = areas.has(w) || RESERVED.has(w) ? `${w}x` : w;
    const kinds: Array<() => { query: string; code: string; why: string }> = [
      () => ({ query: enc([...head(`main${w}`, cmd.layout), ...rest]), code: 'MLDS_UNKNOWN_ID', why: 'unknown id' }),
      () => ({
        query: enc([...head('main', `${cmd.layout}${w}`), ...rest]),
        code: 'MLDS_UNKNOWN_LAYOUT',
        why: 'unknown layout',
      }),
      () => ({ query: enc([{ name: 'layout', value: cmd.layout }, ...rest]), code: 'MLDS_MISSING_ID', why: 'no id' }),
      () => ({ query: enc([...head('main', ''), ...rest]), code: 'MLDS_MISSING_LAYOUT', why: 'empty layout' }),
      () => ({
        query: enc([...head('main', cmd.layout), { name: 'id', value: 'main' }, ...rest]),
        code: 'MLDS_REPEATED_ID',
        why: 'id twice',
      }),
      () => ({
        query: enc([...head('main', cmd.layout), { name: 'layout', value: cmd.layout }, ...rest]),
        code: 'MLDS_REPEATED_LAYOUT',
        why: 'layout twice',
      }),
      () => ({
        query: enc([...cmd.pairs, { name: unknownArea, value: 'x' }]),
        code: 'MLDS_UNKNOWN_AREA',
        why: `unknown area ${unknownArea}`,
      }),
      () => ({ query: `${enc(cmd.pairs)}&${text}=a&${text}=b`, code: 'MLDS_REPEATED_AREA', why: 'area twice' }),
      () =>
        keyed
          ? {
              query: enc([...head('main', cmd.layout), { name: keyed, value: `no-such-${w}` }]),
              code: 'MLDS_UNKNOWN_PARAM_KEY',
              why: 'param key',
            }
          : {
              query: enc([...head('main', cmd.layout), { name: `fontSize[${unknownArea}]`, value: '5' }]),
              code: 'MLDS_BAD_OVERRIDE',
              why: 'override of no area',
            },
      () => ({
        query: enc([...head('main', cmd.layout), { name: `fontColor[${text}]`, value: `${256 + n}_0_0` }]),
        code: 'MLDS_BAD_OVERRIDE',
        why: 'colour over 255',
      }),
      () => ({
        query: enc([...head('main', cmd.layout), { name: `fontColor[${unknownArea}]`, value: '1_2_3' }]),
        code: 'MLDS_BAD_OVERRIDE',
        why: 'colour of no area',
      }),
      () =>
        noFont
          ? {
              query: enc([...head('main', cmd.layout), { name: `fontSize[${noFont}]`, value: '10' }]),
              code: 'MLDS_BAD_OVERRIDE',
              why: 'override of an image',
            }
          : {
              query: enc([
                ...head('main', cmd.layout),
                { name: `fontSize[${text}]`, value: String([0, 101, 99999][n % 3]) },
              ]),
              code: 'MLDS_BAD_OVERRIDE',
              why: 'size 0 or larger than the area',
            },
      () => ({
        query: `${enc(cmd.pairs)}&${text}=%${['ZZ', 'G1', '4', ''][n % 4]}`,
        code: 'MLDS_BAD_ENCODING',
        why: 'bad percent-encoding',
      }),
      () => ({
        query: `${enc(head('main', cmd.layout))}&${text}=${['%C3%28', '%C0%AF', '%ED%A0%80', '%FF', '%E2%82'][n % 5]}`,
        code: 'MLDS_BAD_ENCODING',
        why: 'invalid UTF-8',
      }),
      () => ({
        query: enc([...head('main', cmd.layout), { name: text, value: 'w'.repeat(4097 + (n % 50)) }]),
        code: 'MLDS_BAD_VALUE',
        why: 'text too long',
      }),
      () => ({
        query: enc([...head('main', cmd.layout), { name: 'inumber', value: '9'.repeat(256 + (n % 100)) }]),
        code: 'MLDS_BAD_PARAMETER',
        why: 'inumber too long',
      }),
      () => ({
        query: enc([...head('main', cmd.layout), { name: text, value: `${w}\t${n}` }]),
        code: 'MLDS_BAD_VALUE',
        why: 'a tab in an area without columns',
      }),
    ];
    return kinds[n % kinds.length]();
  });
}

const png = async (svc: RunningService) => (await get(svc, '/screenshot?format=png&id=main')).bytes;

/** Share of the top pixel row in the given colour: l1's title area is blue there, l2's is black. */
async function topRowShare(svc: RunningService, rgb: [number, number, number]): Promise<number> {
  const px = await decode(await png(svc));
  let n = 0;
  for (let x = 0; x < px.width; x++) if (px.at(x, 0).every((v, i) => Math.abs(v - rgb[i]) <= 2)) n++;
  return n / px.width;
}

test(
  '/mlds properties over commands generated from the ' + 'layouts: valid ones are shown, faulty ones change nothing',
  async () => {
    const config = baseConfig();
    const sd = serviceDir(config);
    const svc = await start(sd);
    const layouts = layoutsOf(config);
    try {
      await fc.assert(
        fc.asyncProperty(validCommand(layouts), async ({ layout, pairs }) => {
          const query = enc(pairs);
          const r = await get(svc, `/mlds?${query}`);
          assert.equal(r.status, 200, `${query}: ${r.text}`);
          assert.deepEqual(r.json, { result: 'command received' });
          assert.equal(svc.controller().state('main').lastCommand?.query, query, 'stored exactly as sent');
          // A command equal to what is shown draws nothing new; either way its layout is on screen.
          const colour: [number, number, number] = layout === 'l1' ? [0, 0, 255] : [0, 0, 0];
          await until(async () => (await topRowShare(svc, colour)) > 0.9, 3000, `${layout} on screen after ${query}`);
        }),
        { numRuns: 120, seed: SEED },
      );

      // A still screen (short texts do not scroll) for the faults to leave alone.
      const still = await get(svc, '/mlds?id=main&layout=l1&title=Still&sign=a&pic=logo');
      assert.equal(still.status, 200);
      await until(async () => (await topRowShare(svc, [0, 0, 255])) > 0.9, 3000, 'the still screen');
      await redrawn(svc, 'main');
      const before = await png(svc);
      const seqBefore = svc.api.frame('main')!.seq;
      const codes = new Set<string>();
      await fc.assert(
        fc.asyncProperty(faultyCommand(layouts), async ({ query, code, why }) => {
          const r = await get(svc, `/mlds?${query}`);
          assert.equal(r.status, 400, `${why}: ${query.slice(0, 200)} -> ${r.text.slice(0, 300)}`);
          assert.equal(r.json.result, 'error');
          assert.equal(r.json.code, code, `${why}: ${query.slice(0, 200)}`);
          assert.equal(typeof r.json.message, 'string');
          codes.add(code);
          // the passing of time is what is tested: two frame periods, in which a change would have been drawn.
          await new Promise((res) => setTimeout(res, 40));
          assert.equal(svc.api.frame('main')!.seq, seqBefore, `${why}: a frame was drawn`);
          assert.ok((await png(svc)).equals(before), `${why}: the screenshot changed`);
        }),
        { numRuns: 200, seed: SEED },
      );
      assert.ok(codes.size >= 10, `faults of ${codes.size} kinds were tried: ${[...codes].join(', ')}`);
      assert.match(
        svc.controller().state('main').lastCommand!.query,
        /title=Still/,
        'the still command is still the last one',
      );
    } finally {
      await svc.close();
      sd.cleanup();
    }
  },
);
