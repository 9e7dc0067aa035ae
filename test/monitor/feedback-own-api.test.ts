// Confirmations go to the feedback server the operator configured, never to the unit's own API:
// not when confirmIp:confirmPort names it, and not through a redirect from the feedback server
// (a 302 to the unit's /mlds would set content with every confirmation).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { baseConfig, get, serviceDir, start, until } from '../helpers/service.js';
import { sink } from '../helpers/sink.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

test("confirmations never reach the unit's own API, named or redirected to", async () => {
  let unitPort = 0;
  const fb = await sink();
  fb.answer = (_r, res) =>
    res.writeHead(302, { location: `http://127.0.0.1:${unitPort}/mlds?id=main&layout=l2&other=LOOP` }).end();
  const c = baseConfig();
  c.displays.main.confirmIp = '127.0.0.1';
  c.displays.main.confirmPort = String(fb.port);
  const sd = serviceDir(c);
  const svc = await start(sd, { feedback: { firstDelayMs: 10, attempts: 1 } });
  unitPort = svc.port;
  const feedbackProblems = async () =>
    ((await get(svc, '/status')).json.problems as Obj[])
      .filter((p) => p.source === 'feedback')
      .map((p) => p.message as string)
      .join('\n');
  try {
    assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=A&inumber=1')).status, 200);
    await until(() => svc.feedback.status().givenUp === 1, 5000, 'the redirected confirmation given up');
    assert.deepEqual(
      fb.got.map((r) => r.url),
      ['/mlds?confirm=1&inumber=1'],
    );
    assert.match(svc.feedback.status().targets[0].lastError ?? '', /HTTP 302/);
    assert.equal(svc.controller().state('main').layout, 'l1', 'the redirect was not followed');

    c.displays.main.confirmPort = String(svc.port);
    writeFileSync(sd.configFile, JSON.stringify(c));
    assert.equal((await get(svc, '/reload_config')).status, 200);
    assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=B&inumber=2')).status, 200);
    await until(async () => /MLDS_URL_REFUSED/.test(await feedbackProblems()), 5000, 'the refusal on /status');
    const own = new RegExp(`127\\.0\\.0\\.1:${svc.port} does not take confirmations .*rule "own-api"`);
    assert.match(await feedbackProblems(), own);
    assert.equal(svc.controller().state('main').areas.get('title')?.text, 'B');
  } finally {
    await svc.close();
    fb.close();
    sd.cleanup();
  }
});
