// HEAD never changes anything: it answers the status and headers GET would, with no body. On
// /mlds that validates a control message without applying it (a free dry run for monitors);
// on the endpoints that act it checks the keys and the request and does nothing.
import assert from 'node:assert/strict';
import http from 'node:http';
import { once } from 'node:events';
import { writeFileSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { BOOT } from '../../src/capability/boot.js';
import { BRIGHTNESS } from '../../src/capability/brightness.js';
import { baseConfig, get, nextFrame, serviceDir, start } from '../helpers/service.js';

async function head(
  svc: { url: string },
  p: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const res = await fetch(svc.url + p, { method: 'HEAD', headers });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

test(
  'HEAD /mlds validates without applying: same status and ' + 'headers as GET, nothing shown, recorded or confirmed',
  async () => {
    const c = baseConfig();
    c.unknownAreaKeys = 'ignore';
    const sd = serviceDir(c);
    const svc = await start(sd);
    try {
      assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=Before')).status, 200);
      const st = svc.controller().state('main');
      await nextFrame(svc, 'main', -1);
      const version = st.version;
      const seq = svc.api.frame('main')!.seq;
      const before = st.lastCommand;

      const ok = await head(svc, '/mlds?id=main&layout=l2&other=After&inumber=7');
      assert.equal(ok.status, 200);
      assert.equal(ok.bytes.length, 0, 'no body');
      assert.match(ok.headers.get('content-type') ?? '', /application\/json/);
      // The length GET's body would have: a dry run answers as the command would be answered.
      assert.equal(ok.headers.get('content-length'), String(JSON.stringify({ result: 'command received' }).length));
      const ignoredHead = await head(svc, '/mlds?id=main&layout=l1&title=x&nosuch=1');
      assert.equal(
        ignoredHead.headers.get('content-length'),
        String(JSON.stringify({ result: 'command received', ignored: ['nosuch'] }).length),
      );

      const faulty = ['id=main&layout=nope&inumber=8', 'id=ghost&layout=l1', 'id=main&layout=l1&sign=zzz'];
      for (const q of faulty) assert.equal((await head(svc, `/mlds?${q}`)).status, 400, q);
      assert.equal(st.lastFault, undefined, 'a HEAD records no fault');
      assert.equal(svc.controller().recentFaults.length, 0);
      assert.equal(st.version, version, 'a HEAD changes no state');
      // The same messages by GET: the same status, and now they are recorded.
      for (const q of faulty) assert.equal((await get(svc, `/mlds?${q}`)).status, 400, q);
      assert.ok(st.lastFault);
      assert.equal(svc.controller().recentFaults.length, 1);
      assert.equal(st.layout, 'l1');
      assert.equal(st.areas.get('title')!.text, 'Before');
      assert.deepEqual(st.lastCommand, before);
      assert.ok(svc.api.frame('main')!.seq <= seq + 1, 'no new content was drawn');
    } finally {
      await svc.close();
      sd.cleanup();
    }
  },
);

test(
  'HEAD on /identify, /reload_config, /load_config?url=, ' + '/brightness and /setethernetconfig acts on nothing',
  async () => {
    const c = baseConfig();
    c.displays.main.sensorBrightness = 'true';
    c.security = { adminKey: 'admin-key-456' };
    const sd = serviceDir(c);
    let hits = 0;
    const server = http.createServer((_q, r) => {
      hits++;
      r.end('PK');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const port = (server.address() as AddressInfo).port;
    const svc = await start(sd);
    const admin = { 'X-API-Key': 'admin-key-456' };
    try {
      const boot = svc.api.component(BOOT)!;
      const showing = () => JSON.stringify(boot.status());
      const shownBefore = showing();
      assert.equal((await head(svc, '/identify?seconds=30', admin)).status, 200);
      assert.equal((await head(svc, '/identify?seconds=30')).status, 403, 'the keys are checked');
      assert.equal((await head(svc, '/identify?seconds=x', admin)).status, 400, 'the request is checked');
      assert.equal(showing(), shownBefore, 'no info screen');

      const config = readFileSync(sd.configFile, 'utf8');
      writeFileSync(sd.configFile, config.replace('"l2"', '"l9"'));
      assert.equal((await head(svc, '/reload_config', admin)).status, 200);
      assert.ok(svc.api.config().displayById.get('main')!.layouts.has('l2'), 'not reloaded');

      assert.equal(
        (await head(svc, `/load_config?url=${encodeURIComponent(`http://127.0.0.1:${port}/c.zip`)}`, admin)).status,
        200,
      );
      assert.equal(
        (await head(svc, `/load_config?url=${encodeURIComponent('http://127.0.0.1:80/c.zip')}`, admin)).status,
        400,
      );
      assert.equal(hits, 0, 'nothing fetched');

      const brightness = svc.api.component(BRIGHTNESS)!;
      const level = JSON.stringify(brightness.status().units);
      assert.equal((await head(svc, '/brightness/7?id=main')).status, 200);
      assert.equal((await head(svc, '/brightness/700?id=main')).status, 400);
      assert.equal(JSON.stringify(brightness.status().units), level, 'brightness unchanged');
      assert.equal((await get(svc, '/brightness/7?id=main')).status, 200, 'GET sets it');
      assert.notEqual(JSON.stringify(brightness.status().units), level);

      // Without the network capability's facts (or with them), HEAD answers as GET's checks do and applies nothing.
      const eth = await head(svc, '/setethernetconfig?dhcp=true', admin);
      assert.notEqual(eth.status, 405);
      assert.equal(
        (await head(svc, '/setethernetconfig?dhcp=maybe', admin)).status,
        eth.status === 200 ? 400 : eth.status,
      );
    } finally {
      await svc.close();
      sd.cleanup();
      server.close();
    }
  },
);
