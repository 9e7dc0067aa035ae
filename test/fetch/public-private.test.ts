// A URL that starts on a public address may not end on a private one: by redirect, through a
// name that resolves to loopback (from /etc/hosts or from a DNS server that answers public
// first and loopback afterwards), or by a link read from a public document. The fetches run in
// a network namespace where 198.51.100.7 is a public address and 10.99.0.7 a local device,
// with the real resolver, lookup and address classes: nothing is stubbed.
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import { test } from 'node:test';
import { REPO } from '../helpers/service.js';
import { until } from '../helpers/wait.js';
import type { FetchCase, Outcome } from './fetch-child.js';
import { createPublicNs, finished, netnsUnavailable, PRIVATE, PUBLIC } from './public-ns.js';

const HOSTS = `127.0.0.1 localhost
${PUBLIC} public.test
127.0.0.1 sneaky.test
${PRIVATE} printer.lan.test
`;

/** A Node process of test/fetch/<file> with its JSON argument. */
const child = (file: string, arg: unknown) => [
  process.execPath,
  '--import',
  'tsx',
  path.join(REPO, 'test/fetch', file),
  JSON.stringify(arg),
];

function server(name: string, hits: string[]): http.Server {
  return http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    hits.push(`${name} ${u.pathname}`);
    if (u.pathname === '/to') return void res.writeHead(302, { location: u.searchParams.get('url')! }).end();
    res.end(`${name} ${u.pathname}`);
  });
}

const NS_TEST = { skip: netnsUnavailable(), timeout: 120_000 };

test('public to private is refused at every step, in every spelling; configured local URLs work', NS_TEST, async () => {
  const pub = createPublicNs('pub', { hosts: HOSTS, resolvConf: 'nameserver 127.0.0.1\n' });
  const hits: string[] = [];
  const servers = [server('public', hits), server('lan', hits), server('loopback', hits)];
  try {
    await pub.bridge(servers[0], PUBLIC, 8080);
    await pub.bridge(servers[1], PRIVATE, 8082);
    await pub.bridge(servers[2], '127.0.0.1', 8081);
    // rebind.test: public at its first lookup, loopback at every later one.
    const dns = pub.spawn(child('dns-child.ts', { 'rebind.test': [PUBLIC, '127.0.0.1'] }));
    let queries = '';
    dns.stdout!.on('data', (d: Buffer) => {
      queries += d.toString();
    });
    await until(() => queries.includes('ready'), 30_000, 'the DNS server');

    const to = (from: string, url: string) => `${from}/to?url=${encodeURIComponent(url)}`;
    const P = `http://${PUBLIC}:8080`;
    const cases: Array<[FetchCase, string | { rule: string }]> = [
      [{ url: `${P}/data` }, 'public /data'],
      [{ url: 'http://public.test:8080/data' }, 'public /data'],
      [{ url: to(P, 'http://127.0.0.1:8081/secret') }, { rule: 'public-to-private' }],
      [{ url: to(P, to('http://public.test:8080', `http://${PRIVATE}:8082/secret`)) }, { rule: 'public-to-private' }],
      [{ url: to(P, 'http://sneaky.test:8081/secret') }, { rule: 'public-to-private' }],
      [{ url: to(P, 'http://localhost:8081/secret') }, { rule: 'public-to-private' }],
      [{ url: to(P, `http://[::ffff:${PRIVATE}]:8082/secret`) }, { rule: 'public-to-private' }],
      [{ url: to(P, 'http://printer.lan.test:8082/secret') }, { rule: 'public-to-private' }],
      [{ url: to('http://rebind.test:8080', 'http://rebind.test:8081/secret') }, { rule: 'public-to-private' }],
      // What the operator configured: the local network, and from it out to a public address.
      [{ url: `http://${PRIVATE}:8082/data` }, 'lan /data'],
      [{ url: 'http://127.0.0.1:8081/data' }, 'loopback /data'],
      [{ url: to(`http://${PRIVATE}:8082`, `${P}/data`) }, 'public /data'],
      // Links read from a public document, and from a local one.
      [{ linkFrom: `${P}/feed`, url: `${P}/alert` }, 'public /alert'],
      [
        { linkFrom: `${P}/feed`, url: `http://${PRIVATE}:8082/secret`, allowHosts: [PRIVATE] },
        { rule: 'public-to-private' },
      ],
      [{ linkFrom: `${P}/feed`, url: 'http://public.test:8080/alert' }, { rule: 'other-host' }],
      [{ linkFrom: `${P}/feed`, url: 'http://public.test:8080/alert', allowHosts: ['public.test'] }, 'public /alert'],
      [{ linkFrom: `http://${PRIVATE}:8082/feed`, url: `http://${PRIVATE}:8082/alert` }, 'lan /alert'],
    ];
    const fetcher = pub.spawn(
      child(
        'fetch-child.ts',
        cases.map(([c]) => c),
      ),
    );
    const outcomes = (await finished(fetcher))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Outcome);
    assert.equal(outcomes.length, cases.length);
    cases.forEach(([c, want], i) => {
      const got = outcomes[i];
      const what = `case ${i} ${JSON.stringify(c)}: ${JSON.stringify(got)}`;
      if (typeof want === 'string') {
        assert.ok(got.ok, what);
        assert.equal(got.body, want, what);
      } else {
        assert.ok(!got.ok, what);
        assert.equal(got.code, 'MLDS_URL_REFUSED', what);
        assert.equal(got.rule, want.rule, what);
        assert.match(got.message, new RegExp(`rule "${want.rule}"`), what);
      }
    });
    assert.equal(outcomes[0].ok && outcomes[0].reachedPublic, true, 'a public address answered');
    assert.equal(outcomes[9].ok && outcomes[9].reachedPublic, false, 'a local one answered');
    assert.equal(outcomes[11].ok && outcomes[11].reachedPublic, true);
    assert.match((outcomes[8] as { message: string }).message, /leads to 127\.0\.0\.1, a loopback address/);
    assert.deepEqual(
      hits.filter((h) => h.endsWith('/secret')),
      [],
      'nothing private was asked',
    );
    const lookups = queries.split('\n').filter((q) => q === 'rebind.test A').length;
    assert.equal(lookups, 2, `one lookup per step, the connection's own: ${queries}`);
  } finally {
    pub.destroy();
    for (const s of servers) {
      s.closeAllConnections();
      s.close();
    }
  }
});
