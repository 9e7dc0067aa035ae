// Keys in records: a query name that reads as `key` after case folding and removing every
// character but letters and digits (`Key=`, `KEY=`, `key%00=`, `key%20=`) opens nothing, but
// was meant as a key, so it is masked wherever a query is kept; and a config.json with a key written without its quotes
// never puts the key on /status or /info.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { maskQuery } from '../../src/control/credentials.js';
import { baseConfig, get, serviceDir, start, logText } from '../helpers/service.js';

const SECRET = 'SuperSecret2026';
const NEAR_MISSES = [
  'Key',
  'KEY',
  'kEy',
  'key%00',
  '%00key',
  'K%65Y',
  'key%1F',
  'key%7F',
  'Key%C2%85',
  '%E2%84%AAey',
  'k_ey',
  'key%20',
  '%EF%BB%BFkey',
  '%EF%BD%8Bey',
];

test('maskQuery masks every name that folds into key, and leaves other names alone', () => {
  for (const name of NEAR_MISSES) assert.equal(maskQuery(`id=a&${name}=${SECRET}&b=c`), `id=a&${name}=***&b=c`, name);
  for (const name of ['keys', 'ke', 'monkey', 'key2', 'keyboard', 'tokens', 'my_token']) {
    assert.equal(maskQuery(`${name}=${SECRET}`), `${name}=${SECRET}`, name);
  }
});

test('near-miss key names are masked on /status, /info and in the log, rejected or ignored', async () => {
  for (const unknownAreaKeys of ['reject', 'ignore']) {
    const c = baseConfig();
    c.unknownAreaKeys = unknownAreaKeys;
    const sd = serviceDir(c);
    const logDir = path.join(sd.dir, 'logs');
    const svc = await start(sd, { logDir });
    try {
      for (const name of NEAR_MISSES) {
        const r = await get(svc, `/mlds?id=main&layout=l1&title=x&${name}=${SECRET}`);
        assert.equal(r.status, unknownAreaKeys === 'reject' ? 400 : 200, name);
        // A faulty command from an unknown display lands in recentFaults.
        await get(svc, `/mlds?id=ghost&layout=l1&${name}=${SECRET}`);
        for (const page of ['/status', '/info']) {
          const text = (await get(svc, page)).text;
          assert.ok(!text.includes(SECRET), `${unknownAreaKeys}: ${name}'s value is on ${page}`);
        }
      }
      const status = (await get(svc, '/status')).json as { recentFaults: Array<{ query: string }> };
      assert.match(status.recentFaults[0].query, /=\*\*\*/);
    } finally {
      await svc.close();
    }
    const log = logText(logDir);
    assert.match(log, /ghost/, 'the log has the commands');
    assert.ok(!log.includes(SECRET), `${unknownAreaKeys}: a near-miss key's value is in the log`);
    const saved = readFileSync(path.join(sd.stateDir, 'state.json'), 'utf8');
    assert.ok(!saved.includes(SECRET), `${unknownAreaKeys}: a near-miss key's value is in state.json`);
    sd.cleanup();
  }
});

test(
  'a key written without quotes in config.json is not ' + 'quoted on /status or /info; nothing inside "security" is',
  async () => {
    const sd = serviceDir(baseConfig());
    const svc = await start(sd);
    try {
      const good = readFileSync(sd.configFile, 'utf8');
      const bad = [
        good.replace(/^\{/, `{"security": {"adminKey": ${SECRET}},`),
        good.replace(/^\{/, `{"security": {${SECRET}: "x"},`),
        good.replace(/^\{/, `{"security": {"${SECRET}": "abcdefgh"},`),
        good.replace(/^\{/, `{"security": {"adminKey": "${SECRET}\\q"},`),
        good.replace(/^\{/, `{"port": ${SECRET},`),
      ];
      for (const text of bad) {
        writeFileSync(sd.configFile, text);
        const r = await get(svc, '/reload_config');
        assert.equal(r.status, 400);
        for (const page of ['/status', '/info']) {
          const shown = (await get(svc, page)).text;
          assert.match(shown, /config\.json|security/, `${page} shows the fault`);
          assert.ok(!shown.includes('Secret'), `${page} quotes the key: ${text.slice(0, 60)}`);
        }
      }
    } finally {
      await svc.close();
      sd.cleanup();
    }
  },
);
