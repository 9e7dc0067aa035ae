// fontSize[<area>] on an area with a bitmap font follows the rule the configuration does: its
// pixel size or a whole multiple, any other size a fault naming the sizes that work.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { baseConfig, get, serviceDir, start } from '../helpers/service.js';

test('a fontSize override that does not suit a bitmap font is a 400 naming the sizes that work', async () => {
  const c = baseConfig();
  c.displays.main.layout.l1.title = {
    coordinates: '0 0 199 49',
    type: 'text',
    font: '7x13.bdf',
    fontSize: '13',
    fontColor: '255 170 0',
  };
  const sd = serviceDir(c);
  const svc = await start(sd);
  try {
    const bad = await get(svc, '/mlds?id=main&layout=l1&title=17&fontSize[title]=20');
    assert.equal(bad.status, 400);
    assert.equal(bad.json.code, 'MLDS_BAD_OVERRIDE');
    assert.equal(bad.json.field, 'fontSize[title]');
    assert.match(String(bad.json.message), /does not suit the bitmap font of "title".*\(13, 26, 39\)/);
    assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=17&fontSize[title]=26')).status, 200);
    assert.equal(svc.controller().state('main').areas.get('title')!.fontSize, 26);
  } finally {
    await svc.close();
    sd.cleanup();
  }
});
