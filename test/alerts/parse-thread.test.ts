// The alerts' parsing thread gives what parsing in place gives, fails with the parser's own
// message, survives a failure and exits when idle; the check before parsing bounds attributes
// per tag, following quotes, as it bounds tags and text.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CapDecoder } from '../../src/alerts/cap-decoder.js';
import { MAX_ATTRIBUTES, parseCapDocument, parseLinkedAlert, precheck } from '../../src/alerts/cap-xml.js';
import { until } from '../helpers/wait.js';
import { atomFeed, atomLinks, CAP_NS, capAlert, doc } from './cap.js';

const attrs = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ` a${from + i}="v"`).join('');

test(
  'the CAP parsing thread gives what parsing in place gives, fails with the same message, and exits when idle',
  { timeout: 60_000 },
  async () => {
    const decoder = new CapDecoder(300);
    try {
      assert.equal(decoder.running, false, 'no thread before the first document');
      const area = { polygon: '1,1 1,2 2,2 1,1' };
      const inside = capAlert({ identifier: 'IN-1', infos: [{ headline: 'A & B', areas: [area] }] });
      const feed = Buffer.from(atomFeed([inside]));
      const got = await decoder.document(Buffer.from(feed));
      assert.ok(decoder.running);
      assert.deepEqual(got, parseCapDocument(feed));
      assert.equal(got.alerts[0].infos[0].headline, 'A & B');
      const links = Buffer.from(atomLinks(['http://example.test/a.xml?x=1&y=2']));
      assert.deepEqual((await decoder.document(links)).links, ['http://example.test/a.xml?x=1&y=2']);
      const one = Buffer.from(doc(capAlert({ identifier: 'ONE' })));
      assert.deepEqual(await decoder.linked(one), parseLinkedAlert(one));

      await assert.rejects(decoder.linked(feed), /the link leads to a feed, not to a CAP <alert>/);
      const html = Buffer.from('<html><body>no</body></html>');
      await assert.rejects(decoder.document(html), /neither a CAP <alert> nor an Atom/);
      const id = async () => (await decoder.document(Buffer.from(one))).alerts[0].identifier;
      assert.equal(await id(), 'ONE', 'the thread still answers after a refusal');
      await until(() => !decoder.running, 5000, 'the idle thread to exit');
      assert.equal(await id(), 'ONE', 'and starts again with the next document');
    } finally {
      await decoder.close();
    }
  },
);

test(
  `a tag may have ${MAX_ATTRIBUTES} attributes, not one more; quoted '>' and '=' are a value's, ` +
    "not the tag's end or another attribute",
  () => {
    const alert = (open: string) => doc(`${open}<identifier>X</identifier></alert>`);
    precheck(alert(`<alert${attrs(MAX_ATTRIBUTES)}>`));
    assert.throws(() => precheck(alert(`<alert${attrs(MAX_ATTRIBUTES + 1)}>`)), /a tag of more than 64 attributes/);
    // A value holding '=' many times (a link's query) counts once.
    precheck(alert(`<alert href="http://x.test/?${'k=v&amp;'.repeat(200)}"${attrs(MAX_ATTRIBUTES - 1)}>`));
    // A '>' inside a value does not end the tag: the attributes after it still count.
    assert.throws(() => precheck(alert(`<alert a='>'${attrs(MAX_ATTRIBUTES)}>`)), /more than 64 attributes/);
    // Comments, CDATA and the declaration are not tags with attributes.
    const cdata = `<![CDATA[${'x=1 '.repeat(100)}]]>`;
    precheck(doc(`<!-- ${'a="b" '.repeat(100)} --><alert>${cdata}<identifier>X</identifier></alert>`));
    const open = `<alert xmlns="${CAP_NS}" note="a > b"><sender>s</sender><sent>2026-01-01T00:00:00Z</sent>`;
    const parsed = parseCapDocument(Buffer.from(alert(open)));
    assert.equal(parsed.alerts[0].identifier, 'X');
  },
);

test('one tag of 358,000 attributes is refused in the check, before the parser sees it', () => {
  const xml = doc(`<alert${attrs(358_000)}><identifier>X</identifier></alert>`);
  const t = performance.now();
  assert.throws(() => parseCapDocument(Buffer.from(xml)), /a tag of more than 64 attributes/);
  console.log(`refused in ${(performance.now() - t).toFixed(1)} ms (${xml.length} bytes)`);
});
