import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from '../helpers/clock.js';
import { baseConfig, decode, get, near, nextFrame, serviceDir, start } from '../helpers/service.js';

test('ttl expiry shows the defaultValue, or blank without one (injected clock)', async () => {
  const c = baseConfig();
  const l1 = c.displays.main.layout.l1;
  l1.sign.ttl = '30';
  l1.title.ttl = '10';
  l1.title.backgroundColor = '0 0 255';
  l1.title.fontColor = '255 255 255';
  const sd = serviceDir(c);
  const clock = new FakeClock();
  const svc = await start(sd, { clock, recheckSeconds: 0 });
  try {
    const st = () => svc.controller().state('main');
    let seq = svc.api.frame('main')!.seq;
    assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=WWW&sign=b')).status, 200);
    await nextFrame(svc, 'main', seq);
    assert.equal(st().areas.get('sign')!.text, 'Beta');
    const withText = await decode((await get(svc, '/screenshot?format=png')).bytes);
    const whiteAt = (): boolean => {
      for (let x = 0; x < 100; x++) if (near(withText.at(x, 25), [255, 255, 255], 40)) return true;
      return false;
    };
    assert.ok(whiteAt(), 'the title text is drawn');

    clock.advance(9_999);
    assert.equal(st().areas.get('title')!.text, 'WWW', 'not expired before its ttl');
    seq = svc.api.frame('main')!.seq;
    clock.advance(1);
    assert.equal(st().areas.get('title')!.source, 'none', 'title has no defaultValue: blank');
    assert.equal(st().areas.get('sign')!.text, 'Beta', 'sign has a longer ttl');
    await nextFrame(svc, 'main', seq);
    const blank = await decode((await get(svc, '/screenshot?format=png')).bytes);
    for (let x = 0; x < 200; x += 5)
      assert.ok(near(blank.at(x, 25), [0, 0, 255]), `title area after ttl at x=${x}: ${blank.at(x, 25)}`);

    clock.advance(20_000);
    assert.equal(st().areas.get('sign')!.source, 'default');
    assert.equal(st().areas.get('sign')!.text, 'Def');
    assert.equal(clock.pending(), 0, 'no timer left once nothing can expire');
    const status = await get(svc, '/status');
    const areas = (status.json.displays as Array<{ areas: Array<{ id: string; ttlLeftSeconds: number | null }> }>)[0]
      .areas;
    assert.equal(areas.find((a) => a.id === 'sign')!.ttlLeftSeconds, null);
  } finally {
    await svc.close();
    sd.cleanup();
  }
});

test('a new command restarts the ttl', async () => {
  const c = baseConfig();
  c.displays.main.layout.l1.title.ttl = '10';
  const sd = serviceDir(c);
  const clock = new FakeClock();
  const svc = await start(sd, { clock });
  try {
    await get(svc, '/mlds?id=main&layout=l1&title=A');
    clock.advance(8_000);
    await get(svc, '/mlds?id=main&layout=l1&title=A');
    clock.advance(8_000);
    assert.equal(svc.controller().state('main').areas.get('title')!.text, 'A');
    const s = await get(svc, '/status');
    const t = (s.json.displays as Array<{ areas: Array<{ id: string; ttlLeftSeconds: number }> }>)[0].areas.find(
      (a) => a.id === 'title',
    )!;
    assert.equal(t.ttlLeftSeconds, 2);
    clock.advance(2_000);
    assert.equal(svc.controller().state('main').areas.get('title')!.source, 'none');
  } finally {
    await svc.close();
    sd.cleanup();
  }
});
