// A repeated parameter on /screenshot is a 400 naming it (it once picked another display's
// picture, or a still for a stream), and an HTTP/1.1 request without Host gets the JSON error
// body and log line every error has (Node answered a bare 400 and logged nothing).
import assert from 'node:assert/strict';
import net from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { baseConfig, get, serviceDir, start, logText } from '../helpers/service.js';
import { until } from '../helpers/wait.js';

function twoDisplays() {
  const c = baseConfig();
  c.displays.second = { ...c.displays.main, displayPort: '9002' };
  return c;
}

test('/screenshot: a repeated id, stream or format is a 400 naming it', async () => {
  const sd = serviceDir(twoDisplays());
  const svc = await start(sd);
  try {
    await get(svc, '/mlds?id=second&layout=l1&title=x');
    for (const [q, field] of [
      ['id=second&id=second', 'id'],
      ['id=main&id=second', 'id'],
      ['stream=1&stream=1', 'stream'],
      ['format=png&format=png', 'format'],
    ]) {
      const r = await get(svc, `/screenshot?${q}`);
      assert.equal(r.status, 400, q);
      assert.equal(r.json.code, 'MLDS_BAD_PARAMETER');
      assert.equal(r.json.field, field);
    }
    assert.equal((await get(svc, '/screenshot?id=second&format=png')).status, 200);
  } finally {
    await svc.close();
    sd.cleanup();
  }
});

function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1', () => sock.write(text));
    let got = '';
    sock.on('data', (d) => {
      got += d.toString();
    });
    sock.on('end', () => resolve(got));
    sock.on('error', reject);
    sock.setTimeout(3000, () => {
      sock.destroy();
      resolve(got);
    });
  });
}

test('an HTTP/1.1 request without Host: 400 with the JSON body, and a (counted) log line', async () => {
  const sd = serviceDir(baseConfig());
  const logDir = path.join(sd.dir, 'logs');
  const svc = await start(sd, { logDir });
  const refusals = /"statuses":\{"400":1\},"example":"GET \/status \(no Host\)","msg":"refused: 1 requests/;
  const log = () => {
    try {
      return logText(logDir);
    } catch {
      return '';
    }
  };
  try {
    const port = Number(new URL(svc.url).port);
    const answer = await rawRequest(port, 'GET /status HTTP/1.1\r\nConnection: close\r\n\r\n');
    assert.match(answer, /^HTTP\/1\.1 400 /);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { code: string; message: string };
    assert.equal(body.code, 'MLDS_BAD_REQUEST');
    assert.match(body.message, /Host/);
    // HTTP/1.0 has no Host requirement.
    assert.match(await rawRequest(port, 'GET /status HTTP/1.0\r\n\r\n'), /^HTTP\/1\.1 200 /);
    // Refusals are logged as a count per client, once a second.
    await until(() => refusals.test(log()), 10_000, 'the refusals logged');
  } finally {
    await svc.close();
  }
  assert.match(log(), refusals);
  sd.cleanup();
});
