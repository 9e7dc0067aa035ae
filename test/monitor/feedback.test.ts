import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Controller } from '../../src/control/controller.js';
import { StateStore } from '../../src/control/store.js';
import { loadConfig } from '../../src/config/load.js';
import { baseConfig, get, serviceDir, start, until } from '../helpers/service.js';
import { FakeClock } from '../helpers/clock.js';
import { sink } from '../helpers/sink.js';

function configWithFeedback(port: number) {
  const c = baseConfig();
  c.displays.main.confirmIp = '127.0.0.1';
  c.displays.main.confirmPort = String(port);
  return c;
}

test(
  'confirm=1 after the frame is written, confirm=2 ' + 'for a faulty command; equal ones are not sent again',
  async () => {
    const fb = await sink();
    const sd = serviceDir(configWithFeedback(fb.port));
    const svc = await start(sd, { feedback: { firstDelayMs: 10 } });
    try {
      await get(svc, '/mlds?id=main&layout=l1&title=A&inumber=100');
      await until(() => fb.got.length === 1, 3000, 'confirm=1');
      assert.equal(fb.got[0].url, '/mlds?confirm=1&inumber=100');
      await get(svc, '/mlds?id=main&layout=nope&inumber=101');
      await until(() => fb.got.length === 2, 3000, 'confirm=2');
      assert.equal(fb.got[1].url, '/mlds?confirm=2&inumber=101');
      // The same faulty command again: equal to the last confirmation, so not sent.
      await get(svc, '/mlds?id=main&layout=nope&inumber=101');
      // An unknown id is confirmed to the MAIN display's feedback address.
      await get(svc, '/mlds?id=ghost&layout=x&inumber=a%20b');
      await until(() => fb.got.length === 3, 3000, 'confirm=2 for an unknown id');
      assert.equal(fb.got[2].url, '/mlds?confirm=2&inumber=a%20b');
      // Without inumber there is nothing to echo: nothing is sent.
      await get(svc, '/mlds?id=main&layout=l1&title=B');
      // the passing of time is what is tested: nothing is sent within 200 ms.
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(fb.got.length, 3);
    } finally {
      await svc.close();
      fb.close();
      sd.cleanup();
    }
  },
);

test('the reply never waits for the feedback server, and failed sends are retried', async () => {
  let release: (() => void) | undefined;
  const fb = await sink();
  fb.answer = (_req, res) => {
    if (fb.got.length === 1) {
      res.statusCode = 500;
      res.end();
      return;
    }
    release = () => res.end('ok');
  };
  const sd = serviceDir(configWithFeedback(fb.port));
  const svc = await start(sd, { feedback: { firstDelayMs: 20 } });
  try {
    const r = await get(svc, '/mlds?id=main&layout=l1&title=A&inumber=5');
    assert.equal(r.status, 200);
    await until(() => fb.got.length === 2, 3000, 'the retry');
    assert.ok(release, 'the retry is being held by the feedback server');
    // The feedback server is still holding the retry, yet the service keeps answering.
    assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=B')).status, 200);
    release!();
    await until(() => svc.feedback.sent.some((s) => s.ok && s.inumber === '5'), 3000, 'the delivered retry');
  } finally {
    await svc.close();
    fb.close();
    sd.cleanup();
  }
});

test('confirm=0 when the frame could not be written to the output', async () => {
  const sd = serviceDir(configWithFeedback(2000));
  try {
    const config = loadConfig(sd.configFile);
    const sent: Array<[number, string]> = [];
    const ctl = new Controller(config, {
      clock: new FakeClock(),
      store: new StateStore(sd.stateDir),
      log: { info() {}, warn() {} },
      redraw: async () => ({ ok: false, frame: 1 }),
      rendered: () => 0,
      confirm: (_d, c, n) => sent.push([c, n]),
      preload: async () => undefined,
    });
    const res = await ctl.apply('id=main&layout=l1&title=x&inumber=9', 'http');
    assert.equal(await res.written, 'not shown');
    await until(() => sent.length === 1);
    assert.deepEqual(sent, [[0, '9']]);
    ctl.dispose();
  } finally {
    sd.cleanup();
  }
});
