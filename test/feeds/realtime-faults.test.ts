// What a producer gets wrong, and what the service makes of it: an answer that is no feed at all,
// one malformed entity among good ones, a producer whose clock is off. Real HTTP on loopback,
// feeds encoded with MobilityData's bindings, the schedule of gtfs-sample.ts.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { FakeClock } from '../helpers/clock.js';
import { until } from '../helpers/wait.js';
import { boardConfig, feedServer, feedsRig, gtfsZip, type FeedServer, type FeedsRig } from './fixtures.js';
import { schedule, T0, tripUpdates } from './gtfs-sample.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The sample schedule and a feed `vbb` at /tu polled every 30 s, with `feed` fields added. */
async function rig(clock: FakeClock, feed: Record<string, unknown> = {}): Promise<{ srv: FeedServer; r: FeedsRig; done(): Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-gtfs-'));
  const srv = await feedServer();
  const zip = readFileSync(await gtfsZip(path.join(dir, 'g.zip'), schedule()));
  const r = await feedsRig(boardConfig({ vbb: { type: 'gtfs-rt', url: srv.url('/tu'), static: 'gtfs.zip', interval: '30', ...feed } }, ['S1']), clock, { 'gtfs.zip': zip });
  return { srv, r, done: async () => { await r.stop(); srv.close(); rmSync(dir, { recursive: true, force: true }); } };
}

const statusOf = (r: FeedsRig) => (r.feeds.status().feeds as Obj).vbb;

test('a maintenance page or other bytes where the feed should be: the fault says what came (type, first bytes), never the key', async () => {
  const clock = new FakeClock(T0);
  const { srv, r, done } = await rig(clock, { headers: { 'x-api-key': 'k3y-s3cret' } });
  try {
    srv.bodies.set('/tu', (_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end('<!DOCTYPE html>\n<html><head><title>Scheduled maintenance</title></head><body>key k3y-s3cret: back at 04:00</body></html>');
    });
    await until(() => statusOf(r).realtime.failures === 1, 10_000, 'the first poll');
    const fault = statusOf(r).lastFault as string;
    assert.match(fault, /^not a GTFS-realtime feed: the answer is text\/html; charset=utf-8, \d+ bytes, beginning "<!DOCTYPE html> <html><head><title>Scheduled maintenance/);
    assert.doesNotMatch(fault, /wire type/);
    assert.match(r.feeds.problems()[0].message, /text\/html/);

    // A JSON error that echoes the key: the key is masked.
    srv.bodies.set('/tu', (_req, res) => { res.setHeader('content-type', 'application/json'); res.end('{"error": "key k3y-s3cret has expired"}'); });
    clock.advance(30_000);
    await until(() => statusOf(r).realtime.failures === 2, 10_000, 'the JSON poll');
    assert.equal(statusOf(r).lastFault, 'not a GTFS-realtime feed: the answer is application/json, 39 bytes, beginning "{"error": "key *** has expired"}"');

    // Binary bytes that are no FeedMessage: the decoder's word, and the bytes in hex.
    srv.bodies.set('/tu', Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xff, 0xfe, 0x03]));
    clock.advance(60_000);
    await until(() => statusOf(r).realtime.failures === 3, 10_000, 'the binary poll');
    assert.match(statusOf(r).lastFault, /\(the answer is no content type, 7 bytes, beginning bytes 1f 8b 08 00 ff fe 03\)$/);

    // An empty 200.
    srv.bodies.set('/tu', (_req, res) => { res.setHeader('content-type', 'application/x-protobuf'); res.end(); });
    clock.advance(120_000);
    await until(() => statusOf(r).realtime.failures === 4, 10_000, 'the empty poll');
    assert.equal(statusOf(r).lastFault, 'not a GTFS-realtime feed: the answer is empty (application/x-protobuf)');

    // The feed again: it is read.
    srv.bodies.set('/tu', tripUpdates(T0));
    clock.advance(240_000);
    await until(() => statusOf(r).state === 'ok', 10_000, 'the feed back');
    assert.equal(r.feeds.board({ feed: 'vbb', stops: ['S1'], staleAfter: 600, now: clock.now(), limit: 3 }).state, 'live');
  } finally {
    await done();
  }
});
