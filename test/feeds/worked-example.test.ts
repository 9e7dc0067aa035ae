// docs/feeds.md's worked example, copied as the doc gives it: `mlds test` passes it without a
// warning and draws the three rows the doc says, each in its column, nothing cut.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../src/config/load.js';
import { offlineController } from '../../src/preview/offline.js';
import { renderCommand } from '../../src/preview/render.js';
import { REPO, decode } from '../helpers/service.js';
import { gtfsZip } from './fixtures.js';
import { schedule, T0 } from './gtfs-sample.js';

/** The first JSON block after the heading, and the text blocks after it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function example(): { config: Record<string, any>; blocks: string[] } {
  const doc = readFileSync(path.join(REPO, 'docs/feeds.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## A worked example'));
  const fenced = [...section.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)];
  const json = fenced.find((m) => m[1] === 'json')![2];
  return { config: JSON.parse(json), blocks: fenced.filter((m) => m[1] === '').map((m) => m[2]) };
}

test(
  'the worked example of docs/feeds.md passes `mlds test` with no warning and draws its three scheduled rows, ' +
    'nothing cut',
  async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mlds-example-'));
    try {
      const { config, blocks } = example();
      writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config));
      mkdirSync(path.join(dir, 'gtfs'));
      await gtfsZip(path.join(dir, 'gtfs/city.zip'), schedule());
      // `mlds test` about 11:00 in Berlin, the sample's Saturday: the schedule's 11:05, 11:10, 11:15. Its
      // clock starts 30 s early, so the countdowns read 5, 10 and 15 min however long the child takes to draw.
      const r = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          '--import',
          path.join(REPO, 'test/helpers/clock-at.ts'),
          path.join(REPO, 'src/cli.ts'),
          'test',
          '--config',
          path.join(dir, 'config.json'),
          '--out',
          path.join(dir, 'out'),
        ],
        { cwd: REPO, encoding: 'utf8', timeout: 120_000, env: { ...process.env, MLDS_CLOCK_AT: String(T0 - 30_000) } },
      );
      assert.equal(r.status, 0, r.stderr);
      assert.doesNotMatch(r.stderr, /warning/, 'mlds test warns of nothing');
      const shown = await decode(readFileSync(path.join(dir, 'out/central--board.png')));

      // What the doc says `mlds test` draws, as a plain table in the same font and columns.
      const rows = blocks[1]
        .trim()
        .split('\n')
        .map((l) => l.trim().split(/\s{2,}/));
      assert.deepEqual(
        rows.map((c) => c.length),
        [4, 4, 4],
        'the doc gives three rows of four cells',
      );
      assert.deepEqual(
        rows.map((c) => c.slice(2).join(' ')),
        ['11:05~ 5 min~', '11:10~ 10 min~', '11:15~ 15 min~'],
      );
      const deps = config.displays.central.layout.board.deps;
      const ref = {
        type: 'dynamic',
        coordinates: deps.coordinates,
        font: deps.font,
        lineSpacing: deps.lineSpacing,
        valign: 'top',
        overflow: 'pages',
        columns: deps.columns.map((c: Record<string, unknown>) => ({
          width: String(c.width),
          align: c.align ?? 'left',
        })),
      };
      config.displays.central.layout.ref = { table: ref };
      writeFileSync(path.join(dir, 'ref.json'), JSON.stringify(config));
      const refConfig = loadConfig(path.join(dir, 'ref.json'));
      const controller = offlineController(refConfig);
      const value = encodeURIComponent(rows.map((c) => c.join('\t')).join('\n'));
      const want = await decode(
        (
          await renderCommand(refConfig, controller, `id=central&layout=ref&table=${value}`).finally(() =>
            controller.dispose(),
          )
        ).png,
      );

      let ink = 0;
      const inkRows = new Set<number>();
      for (let y = 0; y < 24; y++) {
        for (let x = 0; x < 192; x++) {
          assert.deepEqual(shown.at(x, y), want.at(x, y), `pixel ${x},${y} of the board differs from the doc's rows`);
          if (shown.at(x, y)[0] > 128) {
            ink++;
            inkRows.add(Math.floor(y / 8));
          }
        }
      }
      assert.deepEqual([...inkRows].sort(), [0, 1, 2], 'three rows drawn');
      // The countdown column's right edge holds ink in every row: "min~" right-aligned, not cut.
      for (const row of [0, 1, 2]) {
        let right = false;
        for (let y = row * 8; y < row * 8 + 7; y++)
          for (let x = 186; x < 192; x++) if (shown.at(x, y)[0] > 128) right = true;
        assert.ok(right, `row ${row + 1} reaches the right edge`);
      }
      assert.ok(ink > 300, `rows drawn (${ink} lit pixels)`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
