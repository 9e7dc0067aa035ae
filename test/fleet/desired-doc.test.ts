// Desired documents on their own: checked field by field with the field named, bounded before
// decoding, and merged in the unit's order (its groups as listed, then its own; later wins,
// content display by display, each display's content with the document and rev it came from).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_DESIRED_BYTES, mergeDesired, parseDesired } from '../../src/fleet/desired.js';

const parse = (o: unknown) => parseDesired(Buffer.from(typeof o === 'string' ? o : JSON.stringify(o)));

test('fields are checked and a fault names its field', () => {
  const doc = { rev: '3', blank: false, brightness: 'auto' };
  assert.deepEqual(parse({ ...doc, rev: 3 }), { ok: true, doc });
  assert.deepEqual(parse(''), { ok: true, doc: undefined }, 'an empty retained message clears the document');
  const fault = (o: unknown) => {
    const p = parse(o);
    return p.ok ? undefined : p.message;
  };
  assert.equal(fault({ blank: 'yes' }), '"blank" must be true or false');
  const sha256 = 'a'.repeat(64);
  assert.equal(fault({ config: { url: 'ftp://x/a.zip', sha256 } }), '"config.url" must be an http:// or https:// URL');
  assert.equal(
    fault({ config: { url: 'http://x/a.zip', sha256: 'xyz' } }),
    '"config.sha256" must be 64 hexadecimal digits',
  );
  assert.equal(
    fault({ config: { url: 'http://x/a.zip', sha256, extra: 1 } }),
    '"config.extra" is not a field of "config" (url, sha256)',
  );
  assert.equal(
    fault({ software: { url: 'http://x/b', sha256 } }),
    '"software.version" must be a text of 1 to 128 characters',
  );
  assert.equal(fault({ content: { main: 7 } }), '"content.main" must be a control query of 1 to 16384 characters');
  assert.match(fault({ colour: 1 }) ?? '', /^"colour" is not a field of a desired document/);
  assert.equal(fault('[1]'), 'the document must be a JSON object');
  assert.match(fault('{"rev":') ?? '', /JSON/);
  const large = fault(' '.repeat(MAX_DESIRED_BYTES + 1));
  assert.equal(large, 'the document is 65537 bytes; at most 65536 are taken');
});

test("documents merge in the unit's order: later groups over earlier ones, the unit's own over all", () => {
  const m = mergeDesired([
    {
      topic: 'mlds/group/a/desired',
      doc: { rev: '1', brightness: 10, blank: true, content: { main: 'layout=l1&title=A', side: 'layout=l2' } },
    },
    { topic: 'mlds/group/b/desired', doc: { rev: '2', brightness: 20, content: { main: 'layout=l1&title=B' } } },
    { topic: 'mlds/u/desired', doc: undefined },
  ]);
  assert.deepEqual(m, {
    rev: '2',
    brightness: 20,
    blank: true,
    content: {
      main: { query: 'layout=l1&title=B', topic: 'mlds/group/b/desired', rev: '2' },
      side: { query: 'layout=l2', topic: 'mlds/group/a/desired', rev: '1' },
    },
  });
  const own = mergeDesired([
    { topic: 'mlds/group/a/desired', doc: { rev: '1', brightness: 10 } },
    { topic: 'mlds/u/desired', doc: { brightness: 90 } },
  ]);
  assert.equal(own.brightness, 90);
  assert.equal(own.rev, '1', 'a document without rev leaves the rev as it was');
});
