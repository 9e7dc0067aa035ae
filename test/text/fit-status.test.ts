import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { loadConfig } from '../../src/config/load.js';
import { offlineController } from '../../src/preview/offline.js';
import { describeFit, renderCommand, renderLayoutsToPng } from '../../src/preview/render.js';
import { decode, get, REPO } from '../helpers/service.js';
import { sign, type Sign } from './sign-service.js';

let s: Sign;
before(async () => {
  s = await sign({
    route: {
      coordinates: '0 0 39 39',
      type: 'text',
      font: 'DejaVuSans-Bold.ttf',
      fontSize: '30',
      fit: 'shrink',
      align: 'center',
      fontColor: '255 170 0',
    },
    dest: {
      coordinates: '40 0 191 47',
      type: 'text',
      font: '7x13.bdf',
      fontColor: '255 170 0',
      wrap: 'true',
      overflow: 'pages',
    },
  });
});
after(async () => {
  await s?.close();
});

interface AreaReport {
  id: string;
  fit?: string;
  fontSizeUsed?: number;
}
async function areas(): Promise<AreaReport[]> {
  const st = await get(s.svc, '/status');
  return (st.json.displays as Array<{ areas: AreaReport[] }>)[0].areas;
}

test(
  '"17" at fontSize 30 in a 40x40 box with fit shrink ' + 'shows both digits, still; /status says how it fitted',
  async () => {
    assert.equal((await s.show('route=17&dest=Dworzec%0AG%C5%82%C3%B3wny')).status, 200);
    const a = await s.shot();
    // the passing of time is what is tested: the picture is the same 300 ms later.
    await new Promise((r) => setTimeout(r, 300));
    const b = await s.shot();
    const ink = (p: typeof a) => {
      const xs: number[] = [];
      for (let x = 0; x < 40; x++)
        for (let y = 0; y < 40; y++)
          if (p.at(x, y)[0] > 128) {
            xs.push(x);
            break;
          }
      return xs;
    };
    const cols = ink(a);
    assert.ok(
      cols[0] > 0 && cols[cols.length - 1] < 39,
      `both digits inside the box: ink ${cols[0]}..${cols[cols.length - 1]}`,
    );
    // Two digits: a gap of dark columns between their ink.
    assert.ok(
      cols.some((x, i) => i > 0 && x - cols[i - 1] > 1),
      'two separate digits',
    );
    assert.deepEqual(ink(b), cols, 'still');
    const rep = await areas();
    const route = rep.find((x) => x.id === 'route')!;
    assert.equal(route.fit, 'shrunk');
    assert.ok(route.fontSizeUsed! < 30);
    assert.deepEqual(
      rep.find((x) => x.id === 'dest'),
      { ...rep.find((x) => x.id === 'dest'), fit: 'as-is', fontSizeUsed: 13 },
    );
  },
);

test('a long destination wraps and pages; /status says paged', async () => {
  assert.equal(
    (
      await s.show(
        'dest=Lotnisko%20Chopina%20Terminal%20A%20Port%20Lotniczy%20Warszawa%20Okecie%20przesiadka%20do%20linii%20175',
      )
    ).status,
    200,
  );
  assert.equal((await areas()).find((x) => x.id === 'dest')!.fit, 'paged');
});

test('mlds test reports how each text area of the example fits', async () => {
  const previews = await renderLayoutsToPng(loadConfig(path.join(REPO, 'examples/config.json')));
  const lines = previews.flatMap((p) => p.fits.map(describeFit));
  assert.ok(lines.includes('led1/departure/destination: fit as-is at 39 px'), lines.join('\n'));
});

test('the example LED display: a destination in a pixel font wraps to two lines, in two colours only', async () => {
  const config = loadConfig(path.join(REPO, 'examples/config.json'));
  const controller = offlineController(config);
  try {
    const p = await renderCommand(
      config,
      controller,
      'id=led1&layout=departure&route=175&destination=Dworzec%20Gda%C5%84ski%20Metro',
    );
    assert.deepEqual(
      p.fits.find((f) => f.area === 'destination'),
      { display: 'led1', layout: 'departure', area: 'destination', fit: 'wrapped', size: 39 },
    );
    const px = await decode(p.png);
    // The destination area (208..639 x 0..99): amber on black, nothing in between; ink on two bands of rows.
    const seen = new Set<string>();
    const rows: number[] = [];
    for (let y = 0; y < 100; y++) {
      let ink = false;
      for (let x = 208; x < 640; x++) {
        const c = px.at(x, y);
        seen.add(c.join());
        if (c[0] > 0) ink = true;
      }
      if (ink) rows.push(y);
    }
    assert.deepEqual([...seen].sort(), ['0,0,0', '255,170,0']);
    const bands = rows.filter((y, i) => i === 0 || y - rows[i - 1] > 1).length;
    assert.equal(bands, 2, `rows with ink: ${rows.join(',')}`);
  } finally {
    controller.dispose();
  }
});
