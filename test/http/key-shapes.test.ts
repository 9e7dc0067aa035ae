// A key in any shape a client may put it on the request line — `key[]=`, `key%5B%5D=`, `KEY=`,
// after a `;` separator, in a `#` fragment sent raw, as `x-api-key=` — and in the X-API-Key
// header is masked: its value is nowhere in the log, on /status or /info, in the state files
// or in an answer, whether the request was served, refused or faulty.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { maskQuery, maskUrl } from '../../src/control/credentials.js';
import { baseConfig, get, serviceDir, start, until, logText } from '../helpers/service.js';

const API_KEY = 'the-api-key-0042';
const SECRET = 'Sh4peSecret77';

/** Request targets as sent on the request line, each carrying SECRET where a key may be. */
const SHAPES = [
  `/status?key[]=${SECRET}`,
  `/status?key%5B%5D=${SECRET}`,
  `/status?key[0]=${SECRET}&x=1`,
  `/status?KEY=${SECRET}`,
  `/status?x=1;key=${SECRET}`,
  `/status?x=1;KEY=${SECRET};y=2`,
  `/status?x-api-key=${SECRET}`,
  `/status?X-Api-Key=${SECRET}`,
  `/status?apiKey=${SECRET}`,
  `/status#key=${SECRET}`,
  `/status?x=1#key=${SECRET}`,
  `/status?x=1#a=b&key=${SECRET}`,
  `/status?x=1?key=${SECRET}`,
  `/mlds?id=main&layout=l1&title=hash#key=${SECRET}`,
  `/mlds?id=main&layout=l1&title=brackets&key[]=${SECRET}`,
  `/mlds?id=main&layout=l1&title=semi&x=1;key=${SECRET}`,
  `/mlds?id=main&layout=l1;key=${SECRET}`,
  `/mlds?id=ghost;key=${SECRET}&layout=l1`,
  `/nowhere?key[]=${SECRET}`,
  `/nowhere;key=${SECRET}`,
];

/** One request written raw (a fragment stays on the request line); the whole answer. */
async function raw(port: number, target: string, headers: Record<string, string>): Promise<string> {
  const s = connect({ port, host: '127.0.0.1' });
  let text = '';
  s.on('data', (d: Buffer) => {
    text += d.toString('latin1');
  });
  s.on('error', () => undefined);
  await once(s, 'connect');
  s.write(
    `GET ${target} HTTP/1.1\r\nHost: x\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}Connection: close\r\n\r\n`,
  );
  await once(s, 'close');
  return text;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

test(
  "maskQuery and maskUrl mask a key after `;`, `?` and `#`, with a bracket suffix and under the header's " +
    'name; other names stay',
  () => {
    assert.equal(maskQuery(`key[]=${SECRET}&x=1`), 'key[]=***&x=1');
    assert.equal(maskQuery(`key%5B%5D=${SECRET}`), 'key%5B%5D=***');
    assert.equal(maskQuery(`x=1;key=${SECRET}&y=2`), 'x=1;key=***&y=2');
    assert.equal(maskQuery(`x-api-key=${SECRET}`), 'x-api-key=***');
    assert.equal(maskQuery(`key=${SECRET};rest`), 'key=***', 'the value runs to the next `&`, as the parser reads it');
    assert.equal(maskUrl(`/mlds?id=a#key=${SECRET}`), '/mlds?id=a#key=***');
    assert.equal(maskUrl(`/mlds#key=${SECRET}`), '/mlds#key=***');
    assert.equal(maskUrl(`/mlds;key=${SECRET}`), '/mlds;key=***');
    assert.equal(maskUrl(`/status?x=1?key=${SECRET}`), '/status?x=1?key=***');
    for (const q of ['monkey=1', 'keys=1', 'title=a;b', 'keyboard[]=1', 'x=1#frag']) assert.equal(maskQuery(q), q, q);
  },
);

for (const variant of [
  { keys: true, unknownAreaKeys: 'reject' },
  { keys: false, unknownAreaKeys: 'ignore' },
]) {
  test(
    `keys in every shape stay out of the log, /status, /info, the state files and the answers (keys ` +
      `${variant.keys ? 'configured' : 'not configured'}, unknown areas ` +
      `${variant.unknownAreaKeys === 'reject' ? 'rejected' : 'ignored'})`,
    async () => {
      const c = baseConfig();
      c.unknownAreaKeys = variant.unknownAreaKeys;
      if (variant.keys) c.security = { apiKey: API_KEY };
      const sd = serviceDir(c);
      const logDir = path.join(sd.dir, 'logs');
      const svc = await start(sd, { logDir });
      const auth: Record<string, string> = variant.keys ? { 'X-API-Key': API_KEY } : {};
      try {
        const answers: string[] = [];
        for (const target of SHAPES) answers.push(await raw(svc.port, target, auth));
        // The key in the header, right (when none is configured) or wrong.
        answers.push(await raw(svc.port, '/status?via=header', { 'X-API-Key': SECRET }));
        assert.match(answers[0], /^HTTP\/1\.1 200 /, 'the requests were served');
        for (const [i, a] of answers.entries())
          assert.ok(
            !a.includes(SECRET),
            `the answer to ${SHAPES[i] ?? 'the header'} echoes the key: ${a.slice(0, 300)}`,
          );
        for (const page of ['/status', '/info']) {
          const text = (await get(svc, page, { headers: auth })).text;
          assert.ok(text.includes('ghost'), `${page} shows the faults`);
          assert.ok(
            !text.includes(SECRET),
            `the key is on ${page}: …${text.slice(Math.max(0, text.indexOf(SECRET) - 200), text.indexOf(SECRET) + 20)}`,
          );
        }
        // Refusals (404) are logged as a count once a second, with the first one's URL.
        await until(() => logText(logDir).includes('"refused"'), 5000, 'the refusals line');
      } finally {
        await svc.close();
      }
      for (const file of [...filesUnder(logDir), ...filesUnder(sd.stateDir)]) {
        const text = readFileSync(file, 'utf8');
        const at = text.indexOf(SECRET);
        assert.ok(
          at < 0,
          `the key is in ${path.relative(sd.dir, file)}: …${text.slice(Math.max(0, at - 200), at + 20)}`,
        );
      }
      assert.match(logText(logDir), /key\[\]=\*\*\*/, 'the log has the requests, masked');
      sd.cleanup();
    },
  );
}

/** Names a client may put a key under that open nothing, as sent on the request line. */
const OTHER_NAMES = ['api_key', 'token', 'key%20', '%EF%BB%BFkey', 'access_token', 'API-KEY', 'password'];

test(
  'a key under another name (api_key=, token=, key%20=, a byte order mark before key=) is masked on the 401 ' +
    'line and in lastFault',
  async () => {
    const c = baseConfig();
    c.security = { apiKey: API_KEY };
    const sd = serviceDir(c);
    const logDir = path.join(sd.dir, 'logs');
    const svc = await start(sd, { logDir });
    const auth = { 'X-API-Key': API_KEY };
    try {
      for (const name of OTHER_NAMES) {
        const refused = await raw(svc.port, `/mlds?id=main&layout=l1&title=x&${name}=${SECRET}`, {});
        assert.match(refused, /^HTTP\/1\.1 401 /, name);
        const faulty = await raw(svc.port, `/mlds?id=main&layout=nope&${name}=${SECRET}`, auth);
        assert.match(faulty, /^HTTP\/1\.1 400 /, name);
        type Faults = { displays: Array<{ lastFault: { query: string } | null }> };
        const query = ((await get(svc, '/status', { headers: auth })).json as Faults).displays[0].lastFault!.query;
        assert.ok(query.includes(`${name}=***`), `${name}: lastFault.query is ${query}`);
        for (const page of ['/status', '/info']) {
          const text = (await get(svc, page, { headers: auth })).text;
          assert.ok(!text.includes(SECRET), `${name}: the key is on ${page}`);
        }
      }
    } finally {
      await svc.close();
    }
    const log = logText(logDir);
    assert.match(log, /"status":401/, 'the log has the refused requests');
    const at = log.indexOf(SECRET);
    assert.ok(at < 0, `the key is in mlds.log: …${log.slice(Math.max(0, at - 200), at + 20)}`);
    sd.cleanup();
  },
);
