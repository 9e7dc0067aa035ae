// What a start loads: the service with the example configuration (its LED and LCD on virtual
// outputs, text, clock, image, video areas) loads no module of a capability it does not use,
// and pages and routes load theirs when first asked for, nor TLS. Module URLs are recorded by a
// resolve hook in a process of its own.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { REPO } from '../helpers/service.js';

const SCRIPT = `
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
const seen = new Set();
const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => seen.add(url));
port1.unref();
const hook = 'let port; export function initialize(d) { port = d.port; } export async function resolve(s, c, next) { const r = await next(s, c); port.postMessage(r.url); return r; }';
register('data:text/javascript,' + encodeURIComponent(hook), import.meta.url, { data: { port: port2 }, transferList: [port2] });
const { serviceDir, exampleConfig, start, until } = await import('./test/helpers/service.ts');
const sd = serviceDir(exampleConfig());
const svc = await start(sd);
const ours = () => [...seen].filter((u) => u.includes('/src/')).map((u) => u.slice(u.indexOf('/src/') + 5)).sort();
// the passing of time is what is tested: a module the start loads in the background would be seen within 200 ms.
await new Promise((r) => setTimeout(r, 200));
const atStart = ours();
// Node's own modules, before the fetch below (the global fetch loads TLS for itself).
const builtinsAtStart = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length));
await (await fetch(svc.url + '/info')).text();
// The hook thread reports modules on its own schedule; on a timeout the assertion below names what is missing.
await until(() => ours().includes('http/info/page.ts'), 10_000, 'the /info page module').catch(() => undefined);
const afterInfo = ours();
await svc.close(); sd.cleanup();
console.log(JSON.stringify({ atStart, afterInfo, builtinsAtStart }));
`;

test('a start loads no module of a capability the configuration does not use; /info loads its page when asked', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, MLDS_MDNS: 'off' },
  });
  assert.equal(r.status, 0, r.stderr);
  const { atStart, afterInfo, builtinsAtStart } = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as {
    atStart: string[];
    afterInfo: string[];
    builtinsAtStart: string[];
  };
  // The start did load the service (the hook saw it), not a handful of files.
  assert.ok(
    atStart.includes('main.ts') && atStart.includes('render/compositor.ts') && atStart.length > 100,
    atStart.join(' '),
  );
  const notUsed = [
    /^http\/info\//, // the /info page
    /^schedule\//,
    /^fleet\//,
    /^preview\//, // no crons or pollers, no MQTT, not `mlds test`
    /^brightness\/sensors\/(ascii|modbus|serial)/, // no light sensor
    /^config\/archive\/(stage|pack|unpack)/, // no configuration archive asked for
    /^speech\//, // no `speech`
    /^update\//, // no RAUC (/etc/rauc/system.conf): software updates load nothing
  ];
  const wrong = atStart.filter((m) => notUsed.some((re) => re.test(m)));
  assert.deepEqual(wrong, [], 'loaded at start though not configured');
  // No certificate configured, no https URL fetched: TLS is not loaded (node:tls and node:https, some 3 ms of a start
  // here).
  assert.deepEqual(
    builtinsAtStart.filter((m) => /^(tls|https|_tls_wrap)$/.test(m)),
    [],
    'TLS loaded at start though nothing uses it',
  );
  assert.ok(afterInfo.includes('http/info/page.ts'), '/info loads its page');
});
