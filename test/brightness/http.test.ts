// GET /brightness/<value> over real HTTP: every rule of the endpoint (a value 1..100, MAIN ids only,
// sensorBrightness required), errors that name the field and change nothing, the answer with
// the brightness applied per unit, and a reload that turns sensorBrightness off ending the
// manual value.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { baseConfig, get, serviceDir, start } from '../helpers/service.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function config(): Obj {
  const c = baseConfig();
  const base = c.displays.main;
  c.displays = {
    led1: { ...base, displayPort: '9001', sensorBrightness: true },
    // Same output as led1: a second display of that unit (not its MAIN).
    led1b: { ...base, displayPort: '9001', sensorBrightness: true },
    lcd: { ...base, displayPort: '9002', sensorBrightness: false },
    led2: { ...base, displayPort: '9003', sensorBrightness: 'true' },
  };
  return c;
}

test('/brightness: the rules, over HTTP', async () => {
  const c = config();
  const sd = serviceDir(c);
  const svc = await start(sd);
  try {
    const outputs = async () => {
      const st = (await get(svc, '/status')).json as Obj;
      return Object.fromEntries(
        st.displays.filter((d: Obj) => d.unitMain).map((d: Obj) => [d.id, d.output.details.brightness]),
      );
    };
    const before = await outputs();
    assert.deepEqual(before, { led1: 100, lcd: 100, led2: 100 }, 'no location, no schedule: full brightness');

    let r = await get(svc, '/brightness/40?id=led1');
    assert.equal(r.status, 200);
    assert.equal(r.json.result, 'brightness set');
    assert.deepEqual(r.json.set, ['led1']);
    const byId = (rr: typeof r) =>
      Object.fromEntries((rr.json.units as Obj[]).map((u) => [u.id, [u.brightness, u.mode]]));
    assert.deepEqual(byId(r), { led1: [40, 'manual'], lcd: [100, 'fixed'], led2: [100, 'fixed'] });
    assert.match((r.json.units as Obj[])[0].source, /^manual: 40 % set over HTTP at /);
    assert.deepEqual(await outputs(), { led1: 40, lcd: 100, led2: 100 }, "the output of led1's unit took it");

    const bad = async (pathAndQuery: string, code: string, field?: string) => {
      const res = await get(svc, pathAndQuery);
      assert.equal(res.status, 400, `${pathAndQuery}: ${res.text}`);
      assert.equal(res.json.result, 'error');
      assert.equal(res.json.code, code, pathAndQuery);
      assert.equal(res.json.field, field, `${pathAndQuery} names ${field}`);
      assert.ok(String(res.json.message).length > 10);
      return res.json as Obj;
    };
    for (const v of ['0', '101', '1000', 'abc', '5.5', '-1', '%2B5', '%205', '1e2', '0x10'])
      await bad(`/brightness/${v}?id=led1`, 'MLDS_BAD_BRIGHTNESS', 'value');
    assert.match(
      (await bad('/brightness/0?id=led1', 'MLDS_BAD_BRIGHTNESS', 'value')).message,
      /integer 1\.\.100, not "0"/,
    );
    await bad('/brightness', 'MLDS_BAD_BRIGHTNESS', 'value');
    await bad('/brightness/', 'MLDS_BAD_BRIGHTNESS', 'value');
    assert.match(
      (await bad('/brightness/50?id=lcd', 'MLDS_BRIGHTNESS_DISABLED', 'id')).message,
      /sensorBrightness false/,
    );
    assert.match((await bad('/brightness/50?id=led1b', 'MLDS_NOT_UNIT_MAIN', 'id')).message, /MAIN id "led1"/);
    await bad('/brightness/50?id=nope', 'MLDS_UNKNOWN_ID', 'id');
    await bad('/brightness/50?id=', 'MLDS_MISSING_ID', 'id');
    await bad('/brightness/50?id=led1&id=led2', 'MLDS_REPEATED_ID', 'id');
    assert.deepEqual(await outputs(), { led1: 40, lcd: 100, led2: 100 }, 'a refused request changes nothing');

    assert.equal((await get(svc, '/brightness/50?id=led1', { headers: { accept: 'text/html' } })).status, 406);
    assert.equal((await get(svc, '/brightness/50?id=led1', { method: 'POST' })).status, 405);
    assert.equal((await get(svc, '/brightness/50/60')).status, 404);

    r = await get(svc, '/brightness/1');
    assert.equal(r.status, 200);
    assert.deepEqual(r.json.set, ['led1', 'led2'], 'without id: every unit whose MAIN has sensorBrightness true');
    assert.deepEqual(byId(r), { led1: [1, 'manual'], lcd: [100, 'fixed'], led2: [1, 'manual'] });
    r = await get(svc, '/brightness/100?id=led2');
    assert.deepEqual(byId(r), { led1: [1, 'manual'], lcd: [100, 'fixed'], led2: [100, 'manual'] });
    assert.deepEqual(await outputs(), { led1: 1, lcd: 100, led2: 100 });

    // A reload that keeps sensorBrightness keeps the manual value; turning it off ends it.
    c.displays.led2.displayName = 'renamed';
    writeFileSync(sd.configFile, JSON.stringify(c));
    assert.equal((await get(svc, '/reload_config')).status, 200);
    assert.deepEqual(await outputs(), { led1: 1, lcd: 100, led2: 100 });
    c.displays.led1.sensorBrightness = 'false';
    c.displays.led2.sensorBrightness = false;
    writeFileSync(sd.configFile, JSON.stringify(c));
    assert.equal((await get(svc, '/reload_config')).status, 200);
    const st = ((await get(svc, '/status')).json as Obj).components.brightness;
    assert.deepEqual(
      st.units.map((u: Obj) => [u.id, u.brightness, u.mode]),
      [
        ['led1', 100, 'fixed'],
        ['lcd', 100, 'fixed'],
        ['led2', 100, 'fixed'],
      ],
    );
    assert.deepEqual(await outputs(), { led1: 100, lcd: 100, led2: 100 });
    assert.match(
      (await bad('/brightness/30', 'MLDS_BRIGHTNESS_DISABLED', 'sensorBrightness')).message,
      /no unit has sensorBrightness true/,
    );
  } finally {
    await svc.close();
    sd.cleanup();
  }
});
