// An admin key never leaves the unit through MQTT, whatever shape the payload takes: a key
// written without its quotes (the JSON parser's own message would quote it), sent to the admin
// topic or to a command topic, or a bare text holding it; none of it reaches admin/result, the
// confirm topic, mlds.log or /status. The MQTT admin key is compared as HTTP compares keys,
// by the one shared function.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { Broker, hasMosquitto, Watcher } from '../helpers/broker.js';
import { baseConfig, get, REPO, serviceDir, start, until } from '../helpers/service.js';

const skip = !hasMosquitto() && process.env.CI !== 'true' ? 'mosquitto is not installed (make test-deps)' : false;
type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ADMIN_KEY = 'Qx7vZr9Wp-4242Lm';

/** Any five characters of the key in a row: a key cut to its first ten is still a leak. */
function leaks(text: string, key = ADMIN_KEY): string | undefined {
  for (let i = 0; i + 5 <= key.length; i++) if (text.includes(key.slice(i, i + 5))) return key.slice(i, i + 5);
  return undefined;
}

test(
  'an admin key without its quotes, on the admin topic or a command topic, or in a bare text, is quoted nowhere: ' +
    'not on admin/result, the confirm topic, mlds.log or /status',
  { skip },
  async () => {
    const broker = await new Broker().start();
    const cfg = baseConfig();
    cfg.security = { adminKey: ADMIN_KEY };
    cfg.mqtt = { url: broker.url, unit: 'k1', keepalive: 5 };
    const sd = serviceDir(cfg);
    const logDir = path.join(sd.dir, 'logs');
    const w = await Watcher.open(broker.url, ['mlds/k1/#']);
    const svc = await start(sd, { logDir });
    try {
      await until(() => (svc.api.status().components.fleet as Obj).state === 'connected', 10_000, 'connected');
      const unquoted = `{"cmd":"status","req":"q1","adminKey":${ADMIN_KEY}}`;
      await w.publish('mlds/k1/admin', unquoted);
      await w.publish('mlds/k1/admin', `{"cmd":"status","req":"q2","adminKey":"${ADMIN_KEY}}`);
      await w.publish('mlds/k1/admin', `status adminKey=${ADMIN_KEY}`);
      await w.publish('mlds/k1/cmd', `{"id":"main","layout":"l1","inumber":"7","adminKey":${ADMIN_KEY}}`);
      const results = () => w.on('mlds/k1/admin/result').map((s) => JSON.parse(s.payload) as Obj);
      const confirms = () => w.on('mlds/k1/confirm').map((s) => JSON.parse(s.payload) as Obj);
      await until(
        () => results().length >= 3 && confirms().length >= 1,
        10_000,
        'three admin results and a confirmation',
      );
      // Not JSON, twice; the bare text is no command's name and carries no adminKey field.
      assert.deepEqual(
        results().map((r) => r.code),
        ['MLDS_MQTT_PAYLOAD', 'MLDS_MQTT_PAYLOAD', 'MLDS_FORBIDDEN'],
      );
      assert.ok(results().every((r) => r.ok === false));
      assert.deepEqual([confirms()[0].confirm, confirms()[0].code], [2, 'MLDS_MQTT_PAYLOAD']);
      // The right key, quoted, still works.
      await w.publish('mlds/k1/admin', JSON.stringify({ cmd: 'status', req: 'ok1', adminKey: ADMIN_KEY }));
      await until(() => results().some((r) => r.req === 'ok1'), 10_000, "the keyed command's result");
      assert.equal(results().find((r) => r.req === 'ok1')!.ok, true);
      const fromUnit = w.seen.filter((s) => !/\/(admin|cmd)$/.test(s.topic));
      assert.ok(fromUnit.length > 5, 'the unit published');
      for (const s of fromUnit)
        assert.equal(leaks(s.payload), undefined, `the key on ${s.topic}: ${s.payload.slice(0, 300)}`);
      assert.equal(
        leaks((await get(svc, '/status', { headers: { 'X-API-Key': ADMIN_KEY } })).text),
        undefined,
        'the key on /status',
      );
      assert.match(
        results()[0].message,
        /not JSON \(line 1, column \d+\)/,
        'the result says where the payload goes wrong',
      );
    } finally {
      await svc.close();
      await w.close();
      await broker.cleanup();
    }
    const log = readFileSync(path.join(logDir, 'mlds.log'), 'utf8');
    assert.match(log, /mqtt: faulty command/, 'the log has the faulty command');
    assert.equal(leaks(log), undefined, 'the key in mlds.log');
    sd.cleanup();
  },
);

test(
  'a key is compared by one function, the one HTTP uses: both hashed, so neither length nor content shows in ' +
    'the timing',
  () => {
    // Only the shared comparison (src/control/credentials.ts, sameKey) and the view tokens, random
    // values of one fixed length made by the unit itself, may compare bytes directly.
    const allowed = new Set(['src/control/credentials.ts', 'src/http/view-tokens.ts']);
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) => {
        const p = path.join(dir, n);
        return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
      });
    const own = files(path.join(REPO, 'src'))
      .map((f) => path.relative(REPO, f))
      .filter((f) => !allowed.has(f) && /timingSafeEqual/.test(readFileSync(path.join(REPO, f), 'utf8')));
    assert.deepEqual(own, [], 'files comparing keys their own way');
    const admin = readFileSync(path.join(REPO, 'src/fleet/admin.ts'), 'utf8');
    assert.match(
      admin,
      /import \{[^}]*\bsameKey\b[^}]*\} from '\.\.\/control\/credentials\.js'/,
      'the admin key goes through sameKey',
    );
  },
);
