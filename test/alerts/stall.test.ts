// A CAP document built to cost its parser seconds (one tag of 358,000 attributes, 4.2 MB, under
// the default alertMaxMB), fetched every second, must not stall control: the service in a child
// process, /mlds timed before and while the document is polled, and a good feed beside it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startCli } from '../helpers/cli-child.js';
import { get, serviceDir, until } from '../helpers/service.js';
import { CAP_NS, capAlert, capServer, doc, square } from './cap.js';
import { alertsConfig, alertsStatus, isRed, LAT, LON } from './setup.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ATTRIBUTES = 358_000;
const ATTRS = Array.from({ length: ATTRIBUTES }, (_, i) => `a${i}="x"`).join(' ');
const HOSTILE = doc(`<alert xmlns="${CAP_NS}" ${ATTRS}><identifier>SLOW</identifier></alert>`);
const EMPTY_FEED = doc('<feed xmlns="http://www.w3.org/2005/Atom"><id>urn:test</id><title>quiet</title></feed>');

/** Times sequential /mlds commands, one every 50 ms, for `ms`: their latencies, sorted, and those not answered 200. */
async function timeControl(svc: { url: string }, ms: number): Promise<{ took: number[]; failed: string[] }> {
  const took: number[] = [];
  const failed: string[] = [];
  const end = Date.now() + ms;
  for (let i = 0; Date.now() < end; i++) {
    const t = performance.now();
    try {
      const r = await get(svc, `/mlds?id=main&layout=l1&title=t${i % 10}`, { signal: AbortSignal.timeout(30_000) });
      if (r.status !== 200) failed.push(`HTTP ${r.status}`);
    } catch (err) {
      failed.push(String((err as Error).cause ?? err));
    }
    took.push(performance.now() - t);
    await new Promise((ok) => setTimeout(ok, 50));
  }
  return { took: took.sort((a, b) => a - b), failed };
}

const p99 = (sorted: number[]) => sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)];

test(
  'a document of 358,000 attributes in one tag polled every second for 20 s: /mlds keeps its pace, it is refused, ' +
    'and a good feed on the same server shows',
  { timeout: 180_000 },
  async () => {
    assert.ok(HOSTILE.length > 4_000_000 && HOSTILE.length < 4 * 2 ** 20, `${HOSTILE.length} bytes`);
    const cap = await capServer();
    const area = { polygon: square(LAT, LON) };
    const good = capAlert({ identifier: 'GOOD', infos: [{ expires: '2099-01-01T00:00:00Z', areas: [area] }] });
    cap.routes.set('/good.xml', doc(good));
    cap.routes.set('/slow.xml', EMPTY_FEED);
    const c = alertsConfig(cap.url('/good.xml'));
    c.alerts.push({ ...c.alerts[0], url: cap.url('/slow.xml') });
    const sd = serviceDir(c);
    const svc = await startCli(sd);
    try {
      await until(() => isRed(svc), 30_000, 'the good alert on the panel');
      await timeControl(svc, 2000);
      const { took: baseline } = await timeControl(svc, 10_000);

      // Encoded once: this process times /mlds too, and must not spend its own loop on 4 MB a second.
      const bytes = Buffer.from(HOSTILE);
      cap.routes.set('/slow.xml', (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/xml' }).end(bytes);
      });
      const hits = cap.hits.get('/slow.xml') ?? 0;
      const { took: loaded, failed } = await timeControl(svc, 20_000);
      const polled = (cap.hits.get('/slow.xml') ?? 0) - hits;
      const [before, during] = [p99(baseline), p99(loaded)];
      const worst = loaded.at(-1)!;
      console.log(
        `/mlds p99 ${before.toFixed(1)} ms before, ${during.toFixed(1)} ms (worst ${worst.toFixed(1)} ms) ` +
          `while the document was fetched ${polled} times in 20 s; ${baseline.length} and ${loaded.length} commands, ` +
          `${failed.length} not answered 200`,
      );
      assert.deepEqual(failed, []);
      assert.ok(polled >= 10, `the document fetched ${polled} times`);
      assert.ok(during <= 5 * Math.max(before, 2), `/mlds p99 ${during.toFixed(1)} ms, ${before.toFixed(1)} ms before`);

      const feeds = (await alertsStatus(svc)).feeds as Obj[];
      assert.equal(feeds[0].fault, undefined, 'the good feed fetched without a fault');
      assert.match(feeds[1].fault?.message ?? '', /a tag of more than 64 attributes/);
      const shown = (await alertsStatus(svc)).displays.main.map((a: Obj) => [a.identifier, a.showing]);
      assert.deepEqual(shown, [['GOOD', true]]);
      assert.ok(await isRed(svc), 'the good alert still on the panel');
    } finally {
      await svc.kill();
      await cap.close();
      sd.cleanup();
    }
  },
);
