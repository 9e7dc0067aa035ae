import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { baseConfig, get, serviceDir, start } from '../helpers/service.js';

test(
  '/reload_config: a faulty file keeps the running ' + 'configuration and shows its faults; a good one swaps in',
  async () => {
    const c = baseConfig();
    const sd = serviceDir(c);
    const svc = await start(sd);
    try {
      await get(svc, '/mlds?id=main&layout=l1&title=Kept');
      const unchanged = await get(svc, '/reload_config');
      assert.equal(unchanged.status, 200);
      assert.deepEqual(unchanged.json, {
        result: 'configuration unchanged',
        added: [],
        changed: [],
        removed: [],
        unchanged: ['main'],
        summary: 'nothing changed',
      });

      const bad = structuredClone(c);
      bad.displays.main.layout.l1.title.fontColor = '1 2';
      bad.displays.main.layout.l3 = { x: { coordinates: '0 0 10 10', type: 'text' } };
      writeFileSync(sd.configFile, JSON.stringify(bad));
      const r = await get(svc, '/reload_config');
      assert.equal(r.status, 400);
      assert.equal(r.json.code, 'MLDS_CONFIG_INVALID');
      assert.deepEqual(
        (r.json.faults as Array<{ path: string }>).map((f) => f.path),
        ['/displays/main/layout/l1/title/fontColor'],
      );
      // The running configuration is untouched: l3 does not exist, the text is still there.
      assert.equal((await get(svc, '/mlds?id=main&layout=l3')).json.code, 'MLDS_UNKNOWN_LAYOUT');
      assert.equal(svc.controller().state('main').areas.get('title')!.text, 'Kept');
      const status = await get(svc, '/status');
      const cfg = status.json.config as { status: string; faults: Array<{ path: string }> };
      assert.equal(cfg.status, 'faulty');
      assert.equal(cfg.faults[0].path, '/displays/main/layout/l1/title/fontColor');
      assert.match(
        (await get(svc, '/info')).text.replaceAll('<wbr>', ''),
        /\/displays\/main\/layout\/l1\/title\/fontColor/,
      );

      const good = structuredClone(c);
      good.displays.main.layout.l3 = { x: { coordinates: '0 0 99 49', type: 'text', fontSize: '20' } };
      writeFileSync(sd.configFile, JSON.stringify(good));
      const ok = await get(svc, '/reload_config');
      assert.equal(ok.status, 200);
      assert.equal(ok.json.result, 'configuration reloaded');
      assert.deepEqual([ok.json.added, ok.json.changed, ok.json.removed, ok.json.unchanged], [[], ['main'], [], []]);
      assert.equal(
        (await get(svc, '/status')).json.config &&
          ((await get(svc, '/status')).json.config as { status: string }).status,
        'ok',
      );
      // The last request is replayed on the new configuration.
      assert.equal(svc.controller().state('main').areas.get('title')!.text, 'Kept');
      assert.equal((await get(svc, '/mlds?id=main&layout=l3&x=New')).status, 200);
    } finally {
      await svc.close();
      sd.cleanup();
    }
  },
);

test('API and admin keys: 401 without the API key, 403 for admin endpoints without the admin key', async () => {
  const c = baseConfig();
  c.security = { apiKey: 'api-key-123', adminKey: 'admin-key-456' };
  const sd = serviceDir(c);
  const svc = await start(sd);
  try {
    assert.equal((await get(svc, '/status')).status, 401);
    assert.equal((await get(svc, '/status?key=wrong-key')).json.code, 'MLDS_UNAUTHORIZED');
    assert.equal((await get(svc, '/status?key=api-key-123')).status, 200);
    assert.equal((await get(svc, '/status', { headers: { 'X-API-Key': 'api-key-123' } })).status, 200);
    assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=k&key=api-key-123')).status, 200);
    assert.equal((await get(svc, '/reload_config?key=api-key-123')).status, 403);
    assert.equal((await get(svc, '/reload_config?key=admin-key-456')).status, 200);
    assert.equal((await get(svc, '/status?key=admin-key-456')).status, 200, 'the admin key opens everything');
    // The key is a credential, not an area: it is neither stored nor replayed.
    assert.doesNotMatch(svc.controller().state('main').lastCommand!.query, /key/);
  } finally {
    await svc.close();
    sd.cleanup();
  }
});
