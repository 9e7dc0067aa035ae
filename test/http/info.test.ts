import assert from 'node:assert/strict';
import { test } from 'node:test';
import { baseConfig, get, serviceDir, start } from '../helpers/service.js';

test('/info: facts a technician needs, and a failing output as a warning while the others run', async () => {
  const c = baseConfig();
  c.displays.lcd = { ...c.displays.main, displayPort: '9002', output: { driver: 'fbdev', device: '/dev/fb-missing' } };
  const sd = serviceDir(c);
  const svc = await start(sd);
  try {
    assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=Running&inumber=12')).status, 200);
    const r = await get(svc, '/info');
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type')!, /text\/html; charset=utf-8/);
    const html = r.text;
    assert.match(html, /<meta name="viewport"/);
    assert.match(html, /System time<\/th><td[^>]*>\d{4}-\d\d-\d\dT/);
    assert.match(html, /mlds \d+\.\d+\.\d+/);
    assert.match(html, /Resolution<\/th><td[^>]*>200x100/);
    assert.match(html, /Configuration<\/th><td class="ok">ok/);
    assert.match(html, /title=Running.*inumber 12/s);
    // The missing framebuffer is a red warning on its own display; the other display keeps working.
    const lcd = html.slice(html.indexOf('<h2>lcd'));
    assert.match(lcd, /Output warning<\/th><td class="bad">output not open: .*fb-missing/);
    const status = await get(svc, '/status');
    const displays = status.json.displays as Array<{ id: string; output: { lastResult?: string } }>;
    assert.equal(displays.find((d) => d.id === 'main')!.output.lastResult, 'ok');
  } finally {
    await svc.close();
    sd.cleanup();
  }
});
