// Live views that are not read do not hold their connections, and live views cannot take every
// connection. Before the fix the stream's socket had no timeout at all: a
// client that never read kept its connection for ever, and 1,030 of them took all 1,024.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { test } from 'node:test';
import { baseConfig, get, serviceDir, start, until } from '../helpers/service.js';

/** A live view whose client sends the request, then never reads a byte. */
function neverReads(port: number): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => {
      socket.write('GET /screenshot?stream=1&id=main HTTP/1.1\r\nHost: x\r\n\r\n');
      resolve(socket);
    });
    socket.on('error', () => {
      /* reset by the server: the point */
    });
    // No 'data' listener and paused: Node stops reading once its 16 KB buffer is full.
    socket.pause();
  });
}

/** Large, ever-changing pictures (a scrolling text over a whole 800x450 display), so unread bytes pile up fast. */
function busyConfig(limits: Record<string, string>) {
  const c = baseConfig();
  const d = c.displays.main;
  d.displayWidth = '800';
  d.displayHeight = '450';
  d.layout = {
    l1: {
      title: {
        coordinates: '0 0 799 449',
        type: 'text',
        fontSize: '300',
        scrollSpeed: '0',
        fontColor: '255 255 0',
        backgroundColor: '0 0 255',
      },
    },
  };
  return { ...c, limits };
}

const viewers = async (svc: { url: string }) =>
  Number(((await get(svc, '/status')).json.displays as Array<{ liveViewers: number }>)[0].liveViewers);

test(
  'a live view whose client does not read is closed after idleTimeoutMs; one that reads stays; /mlds answers ' +
    'while the stream cap is full',
  { timeout: 90_000 },
  async () => {
    const sd = serviceDir(busyConfig({ idleTimeoutMs: '1000', maxStreams: '4' }));
    const svc = await start(sd);
    const sockets: Socket[] = [];
    const reader = new AbortController();
    try {
      assert.equal(
        (await get(svc, `/mlds?id=main&layout=l1&title=${'Scrolling along without end '.repeat(8)}`)).status,
        200,
      );
      // One viewer that reads everything, three that never read: the cap of four is full.
      const res = await fetch(`${svc.url}/screenshot?stream=1&id=main`, { signal: reader.signal });
      assert.equal(res.status, 200);
      let read = 0;
      void (async () => {
        try {
          for await (const chunk of res.body!) read += (chunk as Uint8Array).length;
        } catch {
          /* aborted */
        }
      })();
      for (let i = 0; i < 3; i++) sockets.push(await neverReads(svc.port));
      await until(async () => (await viewers(svc)) === 4, 5000, 'four live viewers');

      // A fifth live view is refused, with a JSON body; HEAD answers the same; control messages still pass.
      const fifth = await get(svc, '/screenshot?stream=1&id=main');
      assert.equal(fifth.status, 503);
      assert.equal(fifth.json.code, 'MLDS_TOO_MANY_STREAMS');
      assert.equal(fifth.headers.get('retry-after'), '2');
      assert.equal((await fetch(`${svc.url}/screenshot?stream=1&id=main`, { method: 'HEAD' })).status, 503);
      // Refused views do not hold their connections either: answered, then closed by the server.
      const refused = await new Promise<string>((resolve) => {
        let got = '';
        const s = connect({ port: svc.port, host: '127.0.0.1' }, () =>
          s.write('GET /screenshot?stream=1&id=main HTTP/1.1\r\nHost: x\r\n\r\n'),
        );
        s.on('data', (d: Buffer) => {
          got += d.toString('latin1');
        });
        s.on('close', () => resolve(got));
      });
      assert.match(refused, /^HTTP\/1\.1 503 [^]*\r\nConnection: close\r\n[^]*"code":"MLDS_TOO_MANY_STREAMS"/);
      assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=Still%20controlled')).status, 200);
      assert.equal((await get(svc, '/status')).status, 200);

      // The server closes the three that never read (seen server-side: the viewers count), not the reader.
      const started = Date.now();
      await until(async () => (await viewers(svc)) === 1, 30_000, 'the unread views to be closed');
      const took = Date.now() - started;
      assert.ok(took >= 1000, `closed after ${took} ms, not before idleTimeoutMs`);
      const before = read;
      await until(() => read > before + 10_000, 5000, 'the reading viewer to go on receiving');
      assert.equal(await viewers(svc), 1);
      // Their places are free again.
      const again = await fetch(`${svc.url}/screenshot?stream=1&id=main`);
      assert.equal(again.status, 200);
      await again.body!.cancel();
    } finally {
      reader.abort();
      for (const s of sockets) s.destroy();
      await svc.close();
      sd.cleanup();
    }
  },
);

test(
  'limits.maxStreams must leave room for control ' + 'messages; unset, it is at most half of maxConnections',
  async () => {
    const bad = serviceDir({ ...baseConfig(), limits: { maxConnections: '10', maxStreams: '10' } });
    try {
      await assert.rejects(start(bad), /\/limits\/maxStreams.*smaller than maxConnections \(10\)/s);
    } finally {
      bad.cleanup();
    }
    const sd = serviceDir({ ...baseConfig(), limits: { maxConnections: '6' } });
    const svc = await start(sd);
    try {
      assert.equal(svc.api.config().limits.maxStreams, 3);
    } finally {
      await svc.close();
      sd.cleanup();
    }
  },
);
