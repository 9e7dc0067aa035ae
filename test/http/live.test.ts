import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { baseConfig, decode, get, serviceDir, start } from '../helpers/service.js';

/** Reads a multipart/x-mixed-replace stream until `count` JPEG parts arrived (or it ends). */
async function readParts(res: Response, count: number): Promise<{ parts: Buffer[]; ended: boolean }> {
  const reader = res.body!.getReader();
  let buf = Buffer.alloc(0);
  const parts: Buffer[] = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return { parts, ended: true };
    buf = Buffer.concat([buf, Buffer.from(value)]);
    for (;;) {
      const soi = buf.indexOf(Buffer.from([0xff, 0xd8]));
      const eoi = soi < 0 ? -1 : buf.indexOf(Buffer.from([0xff, 0xd9]), soi + 2);
      if (eoi < 0) break;
      parts.push(buf.subarray(soi, eoi + 2));
      buf = buf.subarray(eoi + 2);
    }
    // One read may bring more than the parts asked for (a slow reader): the first `count` are the answer.
    if (parts.length >= count) {
      await reader.cancel();
      return { parts: parts.slice(0, count), ended: false };
    }
  }
}

test(
  '/screenshot?stream=1 is a live MJPEG view of the display; /info shows it; it follows a reload and ends ' +
    'when its panel is replaced',
  async () => {
    const c = baseConfig();
    c.displays.main.layout.l1.title.backgroundColor = '0 160 0';
    const sd = serviceDir(c);
    const svc = await start(sd);
    try {
      await get(svc, '/mlds?id=main&layout=l1&title=A%20long%20destination%20that%20has%20to%20scroll%20across');
      const res = await fetch(`${svc.url}/screenshot?stream=1&id=main`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type')!, /^multipart\/x-mixed-replace; boundary=/);
      const { parts } = await readParts(res, 3);
      assert.equal(parts.length, 3);
      const px = await decode(parts[2]);
      assert.deepEqual([px.width, px.height], [200, 100]);
      assert.ok(
        px.at(199, 2)[1] > 120 && px.at(199, 2)[0] < 40,
        `title background in the streamed picture: ${px.at(199, 2)}`,
      );
      assert.ok(!parts[0].equals(parts[2]), 'the scroll moves between pictures');

      assert.match(
        (await get(svc, '/info')).text,
        /src="\/screenshot\?stream=1&amp;id=main"|src="\/screenshot\?stream=1&id=main"/,
      );

      // A reload that changes the display keeps its stream: the new pictures show the change.
      const again = await fetch(`${svc.url}/screenshot?stream=1&id=main`);
      const reader = again.body!.getReader();
      c.displays.main.layout.l1.title.backgroundColor = '0 0 160';
      writeFileSync(sd.configFile, JSON.stringify(c));
      assert.equal((await get(svc, '/reload_config')).status, 200);
      let buf = Buffer.alloc(0);
      let blue = false;
      for (let i = 0; i < 200 && !blue; i++) {
        const { value, done } = await reader.read();
        assert.equal(done, false, 'the stream goes on across the reload');
        buf = Buffer.concat([buf, Buffer.from(value)]);
        const eoi = buf.lastIndexOf(Buffer.from([0xff, 0xd9]));
        const soi = eoi < 0 ? -1 : buf.lastIndexOf(Buffer.from([0xff, 0xd8]), eoi);
        if (soi >= 0) {
          const p = await decode(buf.subarray(soi, eoi + 2));
          blue = p.at(199, 2)[2] > 120 && p.at(199, 2)[1] < 40;
          buf = buf.subarray(eoi + 2);
        }
      }
      assert.ok(blue, 'the streamed picture shows the new background');

      // A new size is a new panel: its stream ends and the page reconnects.
      c.displays.main.displayWidth = '220';
      writeFileSync(sd.configFile, JSON.stringify(c));
      assert.equal((await get(svc, '/reload_config')).status, 200);
      let ended = false;
      for (let i = 0; i < 1000 && !ended; i++) ended = (await reader.read()).done;
      assert.equal(ended, true);
    } finally {
      await svc.close();
      sd.cleanup();
    }
  },
);
