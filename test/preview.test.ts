// What `mlds test` shows: the example sized for real route numbers, scrolling texts from
// their beginning, and configured texts too wide for their area found before a panel shows them.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../src/config/load.js';
import type { ServiceConfig, TextArea } from '../src/config/types.js';
import { dateText } from '../src/render/content/date.js';
import { useFontDirs } from '../src/text/fonts.js';
import { parseCommand } from '../src/control/command.js';
import type { MldsError } from '../src/errors.js';
import { fitWarnings, fontDirsOf, measureLine } from '../src/preview/fit.js';
import { boardFitWarnings } from '../src/preview/board-fit.js';
import { offlineController } from '../src/preview/offline.js';
import { renderCommand, renderLayoutsToPng, type Preview } from '../src/preview/render.js';
import { REPO, baseConfig, decode, serviceDir, type Pixels } from './helpers/service.js';

const EXAMPLE = path.join(REPO, 'examples/config.json');

async function render(config: ServiceConfig, query: string): Promise<Preview> {
  const controller = offlineController(config);
  try {
    return await renderCommand(config, controller, query);
  } finally {
    controller.dispose();
  }
}

/** Ink pixels per column of a rectangle: pixels that differ from the background colour. */
function columnInk(px: Pixels, x0: number, y0: number, w: number, h: number, bg: [number, number, number]): number[] {
  const cols: number[] = [];
  for (let x = x0; x < x0 + w; x++) {
    let n = 0;
    for (let y = y0; y < y0 + h; y++) if (px.at(x, y).some((v, i) => Math.abs(v - bg[i]) > 40)) n++;
    cols.push(n);
  }
  return cols;
}

test('the example centres a four-character route number in its route area instead of scrolling it', async () => {
  const config = loadConfig(EXAMPLE);
  const led = config.displayById.get('led1')!;
  const route = led.layouts.get('departure')!.areas.find((a) => a.id === 'route')!;
  const bg: [number, number, number] = [route.backgroundColor!.r, route.backgroundColor!.g, route.backgroundColor!.b];
  for (const number of ['N22', 'N220', '1288', 'E-12', 'M128']) {
    const p = await render(config, `id=led1&layout=departure&route=${encodeURIComponent(number)}`);
    assert.deepEqual(
      p.scrolls.map((s) => s.area),
      [],
      `${number} scrolls`,
    );
    const ink = columnInk(await decode(p.png), route.x, route.y, route.width, route.height, bg);
    const left = ink.findIndex((n) => n > 0);
    const right = [...ink].reverse().findIndex((n) => n > 0);
    assert.ok(left > 0 && right > 0, `${number}: ink touches an edge (margins ${left}, ${right})`);
    // Centred on the advance box, so the ink may sit a pixel or two off the middle.
    assert.ok(Math.abs(left - right) <= 4, `${number} is not centred: ${left} px left, ${right} px right`);
  }
});

test('the example has no configured text too wide for its area, and its clock fits every day of the year', () => {
  const config = loadConfig(EXAMPLE);
  assert.deepEqual(fitWarnings(config), []);
  useFontDirs(fontDirsOf(config));
  for (const d of config.displays) {
    for (const layout of d.layouts.values()) {
      for (const a of layout.areas.filter((x) => x.type === 'date')) {
        // Every weekday and month name, with two-digit days and hours (digits are equally wide).
        let widest = { text: '', width: 0 };
        for (let day = 0; day < 366; day++) {
          const text = dateText(a, Date.UTC(2024, 0, 1 + day, 23, 58, 58), 'UTC');
          const { width } = measureLine(a, text);
          if (width > widest.width) widest = { text, width };
        }
        assert.ok(
          widest.width <= a.width,
          `${d.id}/${a.id}: "${widest.text}" is ${widest.width} px wide in ${a.width} px`,
        );
      }
    }
  }
});

test('the preview shows a scrolling text from its beginning at the left edge of the area', async () => {
  const c = baseConfig();
  c.displays.main.layout.l1.title.defaultValue = 'Lotnisko Chopina Terminal A';
  const sd = serviceDir(c);
  try {
    const config = loadConfig(sd.configFile);
    const title = config.displayById
      .get('main')!
      .layouts.get('l1')!
      .areas.find((a) => a.id === 'title')! as TextArea;
    const previews = await renderLayoutsToPng(config);
    const p = previews.find((x) => x.name === 'main--l1.png')!;
    assert.deepEqual(
      p.scrolls.map((s) => [s.area, s.areaWidth]),
      [['title', 200]],
    );
    assert.ok(p.scrolls[0].textWidth > 200);
    // The same area showing only the first word, which fits and stands at the left edge.
    const word = await render(config, 'id=main&layout=l1&title=Lotnisko');
    assert.deepEqual(word.scrolls, []);
    useFontDirs(fontDirsOf(config));
    const w = measureLine(title, 'Lotnisko').width;
    const bg: [number, number, number] = [0, 0, 255];
    const shown = columnInk(await decode(p.png), 0, 0, w, title.height, bg);
    const expected = columnInk(await decode(word.png), 0, 0, w, title.height, bg);
    assert.ok(expected.some((n) => n > 0));
    assert.deepEqual(shown, expected, 'the preview does not start with the first word at the left edge');
  } finally {
    sd.cleanup();
  }
});

test(
  'fit warnings: a MULTI page that does not fit is named, ' + 'and a static key selecting it is refused by a command',
  () => {
    const c = baseConfig();
    Object.assign(c.displays.main.layout.l1.sign, {
      markup: 'multi',
      params: { a: 'Alpha', c: 'Gamma[np]Delta Epsilon Zeta' },
      defaultValue: 'a',
    });
    const sd = serviceDir(c);
    try {
      const config = loadConfig(sd.configFile);
      const [w, ...rest] = fitWarnings(config);
      assert.deepEqual(rest, []);
      assert.match(
        w,
        /^\/displays\/main\/layout\/l1\/sign: params "c" text "Gamma\[np\]Delta Epsilon Zeta": page 2 of the MULTI text does not fit the area \(100x50 px\) at fontSize 20: a line is \d+ px wide; a command selecting it is refused$/,
      );
      assert.throws(
        () => parseCommand('id=main&layout=l1&sign=c', config),
        (e: MldsError) =>
          e.code === 'MLDS_BAD_VALUE' && e.message.startsWith('"sign": page 2 of the MULTI text does not fit'),
      );
      assert.doesNotThrow(() => parseCommand('id=main&layout=l1&sign=a', config));
    } finally {
      sd.cleanup();
    }
  },
);

test(
  'fit warnings: static params texts and text defaultValues ' +
    'wider than their area, measured as the panel draws them',
  () => {
    const c = baseConfig();
    c.displays.main.layout.l1.title.defaultValue = 'A default far too long for two hundred pixels';
    c.displays.main.layout.l1.sign.params.c = 'Gamma Delta Epsilon Zeta';
    c.displays.main.layout.l1.sign.defaultValue = 'b';
    c.displays.main.layout.l2.other.defaultValue = 'Fits';
    const sd = serviceDir(c);
    try {
      const config = loadConfig(sd.configFile);
      useFontDirs(fontDirsOf(config));
      const areas = config.displayById.get('main')!.layouts.get('l1')!.areas;
      const width = (id: string, text: string) => measureLine(areas.find((a) => a.id === id)! as TextArea, text).width;
      assert.deepEqual(fitWarnings(config), [
        `/displays/main/layout/l1/title: defaultValue "A default far too long for two hundred pixels" is ` +
          `${width('title', 'A default far too long for two hundred pixels')} px wide and will scroll in 200 px`,
        `/displays/main/layout/l1/sign: params "c" text "Gamma Delta Epsilon Zeta" is ` +
          `${width('sign', 'Gamma Delta Epsilon Zeta')} px wide and will scroll in 100 px`,
      ]);
    } finally {
      sd.cleanup();
    }
  },
);

test(
  'board fit warnings: rows the area cannot hold, and board texts wider than their column, measured as the ' +
    'board draws them',
  () => {
    const c = baseConfig();
    c.feeds = { city: { type: 'siri', url: 'http://127.0.0.1:8080/sm' } };
    const cols = (w: number[], fields: string[]) =>
      w.map((width, i) => ({
        width: String(width),
        field: fields[i],
        ...(i === w.length - 1 ? { align: 'right' } : {}),
      }));
    c.displays.main.layout.l3 = {
      // 16 px text (70 % of 24 px) in 24 px holds one row, not three; "5 min~ cancelled" is wider than 48 px.
      tall: {
        type: 'departures',
        coordinates: '0 0 191 23',
        feed: 'city',
        stops: ['S1'],
        rows: '3',
        columns: cols([24, 120, 48], ['route', 'destination', 'countdown']),
      },
      // 5 x 7 px: three rows of 7 px and two gaps of 1 px take 23 px; "cancelled~" is 50 px, the time 25 px and its
      // mark
      // 5.
      fits: {
        type: 'departures',
        coordinates: '0 0 191 23',
        feed: 'city',
        stops: ['S1'],
        rows: '3',
        font: '5x7.bdf',
        lineSpacing: '1',
        columns: cols([20, 90, 30, 50], ['route', 'destination', 'time', 'countdown']),
      },
      narrow: {
        type: 'departures',
        coordinates: '0 0 191 23',
        feed: 'city',
        stops: ['S1'],
        font: '5x7.bdf',
        nowText: 'departing',
        columns: cols([20, 90, 29, 49], ['route', 'destination', 'time', 'countdown']),
      },
    };
    const sd = serviceDir(c);
    try {
      const w = boardFitWarnings(loadConfig(sd.configFile));
      const at = '/displays/main/layout/l3';
      assert.equal(w.length, 6, w.join('\n'));
      assert.match(
        w[0],
        new RegExp(
          `^${at}/tall/rows: 3 rows of (1[5-9]) px need \\d+ px; the area is 24 px high, so 1 row\\(s\\) show at ` +
            `a time$`,
        ),
      );
      assert.match(
        w[1],
        new RegExp(
          `^${at}/tall/columns/2: the widest countdown \\(up to 99 minutes\\) "\\d\\d min~" needs \\d+ px, the ` +
            `column is 48 px: it is cut$`,
        ),
      );
      assert.match(
        w[2],
        new RegExp(
          `^${at}/tall/columns/2: a cancelled row "\\d\\d min cancelled" needs \\d+ px, the column is 48 px: it is cut$`,
        ),
      );
      assert.deepEqual(w.slice(3), [
        `${at}/narrow/columns/2: the widest time "00:00~" needs 30 px, the column is 29 px: it is cut`,
        `${at}/narrow/columns/3: nowText "departing~" needs 50 px, the column is 49 px: it is cut`,
        `${at}/narrow/columns/3: cancelledText "cancelled" needs 50 px, the column is 49 px: it is cut`,
      ]);
    } finally {
      sd.cleanup();
    }
  },
);
