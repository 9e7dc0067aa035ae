// Confirmations go to the feedback server the operator configured, never to the unit's own API:
// not when confirmIp:confirmPort names it, and not through a redirect from the feedback server
// (a 302 to the unit's /mlds would set content with every confirmation).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { baseConfig, get, serviceDir, start, until } from '../helpers/service.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

test("confirmations never reach the unit's own API, named or redirected to", async () => {
  let unitPort = 0;
  const got: string[] = [];
  const fb = createServer((req, res) => {
    got.push(req.url!);
    res.writeHead(302, { location: `http://127.0.0.1:${unitPort}/mlds?id=main&layout=l2&other=LOOP` }).end();
  });
  fb.listen(0, '127.0.0.1');
  await once(fb, 'listening');
  const c = baseConfig();
  c.displays.main.confirmIp = '127.0.0.1';
  c.displays.main.confirmPort = String((fb.address() as AddressInfo).port);
  const sd = serviceDir(c);
  const svc = await start(sd, { feedback: { firstDelayMs: 10, attempts: 1 } });
  unitPort = svc.port;
  const feedbackProblems = async () => ((await get(svc, '/status')).json.problems as Obj[])
    .filter((p) => p.source === 'feedback').map((p) => p.message as string).join('\n');
  try {
    assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=A&inumber=1')).status, 200);
    await until(() => svc.feedback.status().givenUp === 1, 5000, 'the redirected confirmation given up');
    assert.deepEqual(got, ['/mlds?confirm=1&inumber=1']);
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
    fb.closeAllConnections();
    fb.close();
    sd.cleanup();
  }
});
