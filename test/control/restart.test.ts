import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { baseConfig, decode, get, near, nextFrame, serviceDir, start, until } from '../helpers/service.js';

test('the last request per display survives a restart and is replayed at boot', async () => {
  const c = baseConfig();
  c.displays.main.layout.l1.title.backgroundColor = '0 128 0';
  c.displays.quiet = { ...c.displays.main, displayPort: '9002', startScreen: { loadLastRequest: 'false' } };
  const sd = serviceDir(c);
  try {
    let svc = await start(sd);
    assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=Persisted&sign=a&inumber=77')).status, 200);
    assert.equal((await get(svc, '/mlds?id=quiet&layout=l2&other=Hidden')).status, 200);
    await svc.close();

    const saved = JSON.parse(readFileSync(`${sd.stateDir}/state.json`, 'utf8'));
    assert.match(saved.lastRequest.main.query, /title=Persisted/);
    assert.deepEqual(readdirSync(sd.stateDir).filter((f) => f.endsWith('.tmp')), [], 'no temporary files left behind');

    svc = await start(sd);
    try {
      const st = svc.controller().state('main');
      assert.equal(st.layout, 'l1');
      assert.equal(st.areas.get('title')!.text, 'Persisted');
      assert.equal(st.lastCommand!.source, 'replay');
      assert.equal(svc.controller().state('quiet').layout, undefined, 'loadLastRequest false: stays black');
      await until(() => svc.api.frame('main')!.seq > 1);
      await nextFrame(svc, 'main', 0);
      const px = await decode((await get(svc, '/screenshot?id=main&format=png')).bytes);
      assert.ok(near(px.at(199, 2), [0, 128, 0]), `replayed layout drawn: ${px.at(199, 2)}`);
    } finally {
      await svc.close();
    }
  } finally {
    sd.cleanup();
  }
});

test('a saved request that no longer fits the configuration leaves the display black', async () => {
  const c = baseConfig();
  const sd = serviceDir(c);
  try {
    let svc = await start(sd);
    await get(svc, '/mlds?id=main&layout=l2&other=Gone');
    await svc.close();
    delete c.displays.main.layout.l2;
    const { writeFileSync } = await import('node:fs');
    writeFileSync(sd.configFile, JSON.stringify(c));
    svc = await start(sd);
    try {
      assert.equal(svc.controller().state('main').layout, undefined);
    } finally {
      await svc.close();
    }
  } finally {
    sd.cleanup();
  }
});
