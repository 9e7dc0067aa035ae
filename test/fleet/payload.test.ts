// The command payload forms and the reconnect backoff, below the broker.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { backoffMs, MAX_MS, MIN_MS } from '../../src/fleet/backoff.js';
import { MAX_PAYLOAD, parsePayload } from '../../src/fleet/payload.js';

const p = (s: string | Buffer) => parsePayload(Buffer.isBuffer(s) ? s : Buffer.from(s));

test('a query string passes as it is, without its ts', () => {
  assert.deepEqual(p('id=led1&layout=departure&route=128&inumber=42'), {
    ok: true,
    query: 'id=led1&layout=departure&route=128&inumber=42',
    id: 'led1',
    inumber: '42',
    ts: undefined,
  });
  assert.deepEqual(p('id=a&ts=1700000000000&layout=b'), {
    ok: true,
    query: 'id=a&layout=b',
    id: 'a',
    inumber: undefined,
    ts: 1700000000000,
  });
  assert.equal(p('id=a&ts=soon').ok, false);
  assert.equal(p('id=a&ts=1&ts=2').ok, false);
});

test('JSON becomes the same query; areas, keep, priority and expires pass, ts is taken out', () => {
  const r = p(
    JSON.stringify({
      id: 'led1',
      layout: 'departure',
      areas: { route: 128, dest: 'Main St & 5th' },
      inumber: 42,
      keep: 1,
      ts: 5,
    }),
  );
  assert.ok(r.ok);
  assert.equal(r.query, 'id=led1&layout=departure&inumber=42&keep=1&route=128&dest=Main+St+%26+5th');
  assert.equal(r.ts, 5);
  assert.equal(new URLSearchParams(r.query).get('dest'), 'Main St & 5th');
});

test('every malformed payload is a fault with its code, never a throw', () => {
  const cases: Array<string | Buffer> = [
    '',
    '   ',
    '{',
    '{"id":{"a":1}}',
    '{"areas":[1]}',
    '{"areas":{"a":null}}',
    '{"id":"a","color":"red"}',
    '{"cmd":"reload_config"}',
    Buffer.from([0xc3, 0x28]),
    '{"id":"a","ts":"yesterday"}',
    '{"id":"a","ts":-1}',
  ];
  for (const c of cases) {
    const r = p(c);
    assert.equal(r.ok, false, String(c));
    if (!r.ok) assert.equal(r.code, 'MLDS_MQTT_PAYLOAD', String(c));
  }
  const fault = p('{"id":"main","inumber":"7","areas":{"x":{}}}');
  assert.ok(
    !fault.ok && fault.id === 'main' && fault.inumber === '7',
    'the fault keeps the id and inumber it could read, for the confirmation',
  );
});

test('a payload over 64 KB is refused before it is decoded', () => {
  const r = p(Buffer.alloc(MAX_PAYLOAD + 1, 0x61));
  assert.ok(!r.ok && r.code === 'MLDS_MQTT_TOO_LARGE');
  assert.equal(p(Buffer.from(`id=a&layout=b&t=${'x'.repeat(MAX_PAYLOAD - 16)}`)).ok, true);
});

test('the backoff doubles from 1 s to 60 s with jitter of at most half', () => {
  const lo = () => 0,
    hi = () => 0.999999;
  assert.equal(backoffMs(0, lo), MIN_MS);
  assert.equal(backoffMs(0, hi), MIN_MS);
  assert.equal(backoffMs(1, lo), 1000);
  assert.equal(backoffMs(1, hi), 2000);
  assert.equal(backoffMs(3, hi), 8000);
  assert.equal(backoffMs(6, hi), MAX_MS);
  assert.equal(backoffMs(100, lo), MAX_MS / 2);
  const spread = new Set(Array.from({ length: 50 }, () => backoffMs(5)));
  assert.ok(spread.size > 10, 'jittered');
});
