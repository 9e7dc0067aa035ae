import assert from 'node:assert/strict';
import { get as httpGet } from 'node:http';
import { test } from 'node:test';
import { baseConfig, serviceDir, start } from '../helpers/service.js';

// In a process of its own (node --test runs each file apart) whose requests go through
// node:http: only the service can have loaded Node's fetch here.
const fetchLoaded = (): boolean =>
  (process as unknown as { moduleLoadList: string[] }).moduleLoadList.some((m) => m.includes('undici'));

function plainGet(
  url: string,
): Promise<{ status: number; type: string; length: string; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    httpGet(url, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          type: String(res.headers['content-type']),
          length: String(res.headers['content-length']),
          json: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
        }),
      );
    }).on('error', reject);
  });
}

test('JSON answers and error answers load no fetch (undici: about 50 ms and 10 MB on a first answer)', async () => {
  const sd = serviceDir(baseConfig());
  const svc = await start(sd);
  try {
    const status = await plainGet(`${svc.url}/status`);
    assert.equal(status.status, 200);
    assert.equal(status.type, 'application/json; charset=utf-8');
    assert.equal(typeof status.json.displays, 'object');
    const missing = await plainGet(`${svc.url}/no-such-path`);
    assert.equal(missing.status, 404);
    assert.equal(missing.type, 'application/json; charset=utf-8');
    assert.equal(missing.json.code, 'MLDS_NOT_FOUND');
    assert.equal(Number(missing.length), Buffer.byteLength(JSON.stringify(missing.json)));
    assert.equal(fetchLoaded(), false);
    // What the check looks for is what fetch loads.
    await (await fetch(`${svc.url}/status`)).arrayBuffer();
    assert.equal(fetchLoaded(), true);
  } finally {
    await svc.close();
    sd.cleanup();
  }
});
