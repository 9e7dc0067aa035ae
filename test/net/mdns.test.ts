// The mDNS announcement seen by a separate browser process on loopback: both service types
// with the unit's TXT record, announced again with new facts after a reload, and withdrawn
// (goodbye packets) when the service stops.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ConfigError } from '../../src/config/faults.js';
import { parseConfig } from '../../src/config/load.js';
import { VERSION } from '../../src/version.js';
import { underEmulation } from '../helpers/emulation.js';
import { ip, netnsUnavailable } from '../output/netns.js';
import { REPO, baseConfig, get, serviceDir, start, until } from '../helpers/service.js';

interface Seen {
  event: string;
  type: string;
  name: string;
  port: number;
  txt: Record<string, string>;
}

test(
  "mDNS: _http._tcp and _mlds._tcp with the unit's TXT record, re-announced on reload, withdrawn on stop",
  {
    skip: underEmulation(
      'qemu-user 7.2 does not translate IP_MULTICAST_IF (setMulticastInterface: ENOPROTOOPT), so no packet goes ' +
        'out on loopback',
    ),
  },
  async () => {
    const name = `mlds test ${process.pid}`;
    const c = baseConfig();
    c.mdns = { name, interface: 'lo' };
    const sd = serviceDir(c);
    const browser = spawn(process.execPath, [path.join(REPO, 'test/net/fixtures/mdns-browser.mjs'), 'mlds', 'http'], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const seen: Seen[] = [];
    let buf = '';
    browser.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const lines = buf.split('\n');
      buf = lines.pop()!;
      for (const l of lines) seen.push(JSON.parse(l) as Seen);
    });
    const ours = (event: string, type: string) =>
      seen.filter((s) => s.event === event && s.type === type && s.name === name);
    let svc: Awaited<ReturnType<typeof start>> | undefined;
    try {
      await until(() => seen.some((s) => s.event === 'ready'), 10_000, 'the browser');
      svc = await start(sd);
      await until(() => ours('up', 'mlds').length > 0 && ours('up', 'http').length > 0, 10_000, 'both services seen');
      for (const type of ['mlds', 'http']) {
        const s = ours('up', type)[0];
        assert.equal(s.port, svc.port);
        assert.deepEqual(s.txt, {
          version: VERSION,
          ids: 'main',
          displays: '1',
          resolution: '200x100',
          controllerType: 'T430',
          hostname: hostname(),
          path: '/info',
        });
      }
      const status = (await get(svc, '/status')).json.components as { mdns: { announced: boolean; name: string } };
      assert.equal(status.mdns.announced, true);
      assert.equal(status.mdns.name, name);

      // A reload with new facts: the browser learns them.
      c.displays.main.controllerType = 'G20';
      writeFileSync(sd.configFile, JSON.stringify(c));
      assert.equal((await get(svc, '/reload_config')).status, 200);
      await until(
        () =>
          seen.some(
            (s) => s.name === name && s.type === 'mlds' && s.event !== 'down' && s.txt?.controllerType === 'G20',
          ),
        10_000,
        'the new TXT record',
      );

      await svc.close();
      svc = undefined;
      const upsBefore = ours('up', 'mlds').length;
      await until(
        () => {
          // Withdrawn: the last event of each type is a goodbye.
          const last = (type: string) => seen.filter((s) => s.type === type && s.name === name).at(-1)?.event;
          return last('mlds') === 'down' && last('http') === 'down';
        },
        10_000,
        'the goodbye packets',
      );
      assert.equal(ours('up', 'mlds').length, upsBefore);
    } finally {
      await svc?.close();
      browser.kill('SIGTERM');
      sd.cleanup();
    }
  },
);

test(
  'mDNS is on by default; `false`, "false" and `{ "enabled": false }` turn it off; MLDS_MDNS=off changes only ' +
    'the default',
  () => {
    const saved = process.env.MLDS_MDNS;
    const mdnsOf = (mdns: unknown) =>
      parseConfig(
        JSON.stringify({ ...baseConfig(), ...(mdns === undefined ? {} : { mdns }) }),
        path.join(REPO, 'examples'),
      ).mdns;
    try {
      delete process.env.MLDS_MDNS;
      assert.deepEqual(mdnsOf(undefined), {});
      assert.deepEqual(mdnsOf(true), {});
      assert.deepEqual(mdnsOf({ name: 'x' }), { name: 'x', interface: undefined });
      for (const off of [false, 'false', { enabled: false }, { enabled: 'false', interface: 'lo' }])
        assert.equal(mdnsOf(off), undefined, JSON.stringify(off));
      assert.throws(
        () => mdnsOf('sometimes'),
        (e: ConfigError) => e.faults.some((f) => f.path === '/mdns' && /true or false/.test(f.message)),
      );
      assert.throws(
        () => mdnsOf({ enabled: true, port: 5353 }),
        (e: ConfigError) => e.faults.some((f) => f.path === '/mdns/port'),
      );
      process.env.MLDS_MDNS = 'off';
      assert.equal(mdnsOf(undefined), undefined);
      assert.deepEqual(mdnsOf({ interface: 'lo' }), { name: undefined, interface: 'lo' });
    } finally {
      if (saved === undefined) delete process.env.MLDS_MDNS;
      else process.env.MLDS_MDNS = saved;
    }
  },
);

test(
  'a service started by a test announces nothing without ' + 'an mdns section, and nothing with `"mdns": false`',
  async () => {
    assert.equal(process.env.MLDS_MDNS, 'off', 'test/helpers/service.ts keeps this machine quiet');
    for (const extra of [{}, { mdns: false }]) {
      const sd = serviceDir({ ...baseConfig(), ...extra });
      const svc = await start(sd);
      try {
        const components = (await get(svc, '/status')).json.components as Record<string, unknown>;
        assert.equal(components.mdns, undefined);
      } finally {
        await svc.close();
        sd.cleanup();
      }
    }
  },
);

test(
  'with no mdns section at all a unit announces itself (in a network namespace of its own, never on this ' +
    "machine's networks)",
  {
    skip:
      netnsUnavailable() ??
      underEmulation(
        'qemu-user 7.2 does not translate IP_MULTICAST_IF (setMulticastInterface: ENOPROTOOPT), so no packet ' +
          'goes out on loopback',
      ),
    timeout: 60_000,
  },
  async () => {
    const ns = `mlds-mdns${process.pid % 100000}`;
    ip('netns', 'add', ns);
    const sd = serviceDir(baseConfig());
    const children: ChildProcess[] = [];
    try {
      // Only a loopback inside: multicast on, and the mDNS group routed to it.
      ip('-n', ns, 'link', 'set', 'lo', 'up', 'multicast', 'on');
      ip('-n', ns, 'route', 'add', '224.0.0.0/4', 'dev', 'lo');
      const env = { ...process.env };
      delete env.MLDS_MDNS;
      delete env.NODE_TEST_CONTEXT;
      const inNs = (...argv: string[]) => {
        const c = spawn('ip', ['netns', 'exec', ns, process.execPath, ...argv], {
          cwd: REPO,
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        children.push(c);
        return c;
      };
      const seen: Seen[] = [];
      let buf = '';
      inNs(path.join(REPO, 'test/net/fixtures/mdns-browser.mjs'), 'mlds', 'http').stdout!.on('data', (d: Buffer) => {
        buf += d.toString();
        const lines = buf.split('\n');
        buf = lines.pop()!;
        for (const l of lines) seen.push(JSON.parse(l) as Seen);
      });
      await until(() => seen.some((s) => s.event === 'ready'), 10_000, 'the browser');
      const svc = inNs(
        '--import',
        'tsx',
        path.join(REPO, 'src/cli.ts'),
        'start',
        '--config',
        sd.configFile,
        '--port',
        '9199',
        '--state-dir',
        sd.stateDir,
        '--log-dir',
        path.join(sd.dir, 'logs'),
      );
      let err = '';
      svc.stderr!.on('data', (d: Buffer) => {
        err += d.toString();
      });
      await until(
        () =>
          ['mlds', 'http'].every((type) => seen.some((s) => s.event === 'up' && s.type === type && s.port === 9199)),
        30_000,
        `both services announced by default (service said: ${err.slice(0, 300)})`,
      );
      const mine = seen.find((s) => s.event === 'up' && s.type === 'mlds')!;
      assert.match(mine.name, new RegExp(`^${hostname()}`));
      assert.equal(mine.txt.ids, 'main');
    } finally {
      for (const c of children) c.kill('SIGTERM');
      await Promise.all(children.map((c) => (c.exitCode !== null ? undefined : new Promise((r) => c.once('exit', r)))));
      spawnSync('ip', ['netns', 'del', ns], { stdio: 'ignore' });
      sd.cleanup();
    }
  },
);
