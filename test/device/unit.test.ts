// systemd/mlds.service as systemd itself reads it: `systemd-analyze verify` finds nothing,
// `systemd-analyze security` scores it better than 5.0 and as docs/device.md says, and the
// settings the device depends on are there.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO } from '../helpers/service.js';
import { skipReason } from '../helpers/skip.js';

const UNIT = join(REPO, 'systemd', 'mlds.service');
const analyze = (...args: string[]) => spawnSync('systemd-analyze', args, { encoding: 'utf8', cwd: REPO });
const missing = skipReason(
  analyze('--version').error
    ? 'systemd-analyze is not installed (Debian package systemd; make test-deps installs it)'
    : undefined,
);

/** The unit's [Service] settings, each name with every value it is given (in order). */
function settings(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let section = '';
  for (const raw of readFileSync(UNIT, 'utf8').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const s = /^\[(.+)\]$/.exec(line);
    if (s) {
      section = s[1];
      continue;
    }
    const eq = line.indexOf('=');
    const key = `${section}.${line.slice(0, eq)}`;
    out.set(key, [...(out.get(key) ?? []), line.slice(eq + 1)]);
  }
  return out;
}

test('systemd-analyze verify finds nothing to say about the unit', { skip: missing }, () => {
  const r = analyze('verify', UNIT);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr.trim(), '', 'no warnings either');
});

test(
  'systemd-analyze security scores the unit better than 5.0, and docs/device.md gives that score',
  { skip: missing },
  () => {
    const r = analyze('security', '--offline=true', '--no-pager', UNIT);
    const m = /Overall exposure level for mlds\.service: (\d+\.\d)/.exec(r.stdout);
    assert.ok(m, r.stdout + r.stderr);
    const score = Number(m[1]);
    assert.ok(score < 5.0, `exposure ${score}`);
    const doc = readFileSync(join(REPO, 'docs', 'device.md'), 'utf8');
    assert.match(
      doc,
      new RegExp(`exposure level[^\\n]*\\*\\*${m[1].replace('.', '\\.')}\\*\\*`),
      `docs/device.md states the score ${m[1]}`,
    );
  },
);

test('the settings the device depends on', () => {
  const s = settings();
  const one = (k: string) => s.get(`Service.${k}`)?.join(' ');
  assert.equal(one('Type'), 'notify');
  assert.match(one('WatchdogSec')!, /^\d+$/);
  assert.equal(one('Restart'), 'on-failure');
  assert.equal(one('RestartPreventExitStatus'), '78');
  assert.equal(one('ExecReload'), '/bin/kill -HUP $MAINPID');
  assert.equal(one('User'), 'mlds');
  assert.deepEqual(one('SupplementaryGroups')!.split(' ').sort(), ['audio', 'dialout', 'video']);
  assert.deepEqual(one('AmbientCapabilities')!.split(' ').sort(), ['CAP_NET_ADMIN', 'CAP_NET_RAW']);
  assert.equal(one('ProtectSystem'), 'strict');
  assert.equal(one('NoNewPrivileges'), 'yes');
  // dist/launch.cjs keeps V8's code cache in $CACHE_DIRECTORY.
  assert.equal(one('CacheDirectory'), 'mlds');
  for (const p of ['/etc/mlds', '-/etc/systemd/network']) assert.ok(one('ReadWritePaths')!.split(' ').includes(p), p);
  for (const f of ['AF_PACKET', 'AF_NETLINK', 'AF_UNIX', 'AF_INET', 'AF_INET6'])
    assert.ok(one('RestrictAddressFamilies')!.split(' ').includes(f), f);
  assert.match(
    one('ExecStart')!,
    /^\/usr\/bin\/node \/opt\/mlds\/dist\/launch\.cjs start --config \/etc\/mlds\/config\.json --state-dir \/var\/lib\/mlds --log-dir \/var\/log\/mlds$/,
  );
});
