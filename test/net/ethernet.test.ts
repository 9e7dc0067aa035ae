// /getethernetconfig and /setethernetconfig on a real network: a namespace the test creates
// holds the service and a veth interface, a second namespace is the gateway, the networkd
// folder belongs to the test and a script stands in for `networkctl reload`. A good change is
// confirmed when the gateway answers ARP; a gateway that does not answer, and DHCP without a
// DHCP server, are rolled back to the previous file; a restart in the middle of a watch
// still rolls back.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { underEmulation } from '../helpers/emulation.js';
import { REPO, baseConfig, serviceDir, until } from '../helpers/service.js';
import { createLan, netnsUnavailable, startInNamespace, type Lan, type NsService } from './lan.js';

const skip = netnsUnavailable();
const ROLLBACK_S = 3;
const APPLY = path.join(REPO, 'test/net/fixtures/apply-networkd.sh');

interface Change {
  state: string;
  message?: string;
  request: string;
  resumed?: boolean;
}
const changes = async (svc: NsService) =>
  ((await svc.get('/status')).json.components as { network: { changes: Change[] } }).network.changes;

/** Waits for the newest change to settle; returns it. */
async function settled(svc: NsService, request: string): Promise<Change> {
  let last: Change | undefined;
  await until(
    async () => {
      last = (await changes(svc))[0];
      return !!last && last.request.startsWith(request) && ['confirmed', 'rolled back', 'failed'].includes(last.state);
    },
    30_000,
    `the change ${request} to settle`,
  );
  return last!;
}

function setup(lan: Lan) {
  const c = baseConfig();
  const sd = serviceDir(c);
  const networkd = path.join(sd.dir, 'networkd');
  mkdirSync(networkd);
  // What the unit had before any change over HTTP: the distribution's own file.
  writeFileSync(
    path.join(networkd, '20-unit.network'),
    `[Match]\nName=${lan.unitIf}\n\n[Network]\nAddress=${lan.net}.10/24\nGateway=${lan.net}.1\nDNS=${lan.net}.1\n`,
  );
  c.network = { interface: lan.unitIf, networkdDir: networkd, rollbackSeconds: String(ROLLBACK_S) };
  // Announced on the namespace's own loopback: a network change must announce it again.
  c.mdns = { interface: 'lo', name: `unit ${lan.unit}` };
  writeFileSync(sd.configFile, JSON.stringify(c));
  lan.setResolvConf('');
  lan.exec(lan.unit, APPLY, networkd, lan.unit);
  const env = { MLDS_NETWORK_APPLY_COMMAND: `${APPLY} ${networkd} ${lan.unit}` };
  return { sd, networkd, env, ours: path.join(networkd, `10-mlds-${lan.unitIf}.network`) };
}

test(
  'getethernetconfig reads the namespace; setethernetconfig applies, confirms, and rolls back a gateway that ' +
    'does not answer',
  {
    skip:
      skip ??
      underEmulation(
        'qemu-user 7.2 does not translate rtnetlink neighbour dumps (`ip neigh`: "Cannot send dump request: ' +
          'Operation not supported"), so a gateway that answers is never seen',
      ),
  },
  async () => {
    const lan = createLan('et');
    const { sd, networkd, env, ours } = setup(lan);
    let svc: NsService | undefined;
    try {
      svc = await startInNamespace(lan.unit, sd.configFile, sd.stateDir, env);
      const mac = (
        JSON.parse(lan.exec(lan.unit, 'ip', '-j', 'link', 'show', lan.unitIf)) as Array<{ address: string }>
      )[0].address;

      const before = await svc.get('/getethernetconfig');
      assert.equal(before.status, 200);
      assert.deepEqual(
        { ...before.json, addresses: undefined, mtu: undefined },
        {
          interface: lan.unitIf,
          mac,
          state: 'up',
          carrier: true,
          speedMbps: 10000,
          dhcp: false,
          ip: `${lan.net}.10`,
          netmask: '255.255.255.0',
          prefix: 24,
          gateway: `${lan.net}.1`,
          dns: [`${lan.net}.1`],
          dnsSource: '/etc/resolv.conf',
          addresses: undefined,
          mtu: undefined,
        },
      );
      assert.deepEqual(
        (before.json.addresses as Array<{ family: string }>).filter((a) => a.family === 'ipv4'),
        [{ family: 'ipv4', address: `${lan.net}.10`, prefix: 24, netmask: '255.255.255.0', dynamic: false }],
      );

      const announcedAt = async () =>
        ((await svc!.get('/status')).json.components as { mdns: { announcedAt: string } }).mdns.announcedAt;
      const firstAnnounced = await announcedAt();
      assert.ok(firstAnnounced);

      // A good change: answered first, applied after, confirmed by the gateway's ARP answer.
      const good =
        `dhcp=false&ip=${lan.net}.20&netmask=255.255.255.0&gateway=${lan.net}.1` + `&dns=${lan.net}.53,${lan.net}.54`;
      const set = await svc.get(`/setethernetconfig?${good}`);
      assert.equal(set.status, 200, set.text);
      assert.equal(set.json.result, 'network change accepted');
      assert.equal(set.json.interface, lan.unitIf);
      assert.equal(set.json.rollbackSeconds, ROLLBACK_S);
      assert.equal(
        readFileSync(ours, 'utf8').replace(/^#.*\n/gm, ''),
        `[Match]\nName=${lan.unitIf}\n\n[Network]\nDHCP=no\nAddress=${lan.net}.20/24\nGateway=${lan.net}.1\n` +
          `DNS=${lan.net}.53\nDNS=${lan.net}.54\n`,
      );
      const ok = await settled(svc, 'dhcp=false ip=' + `${lan.net}.20`);
      assert.equal(ok.state, 'confirmed', ok.message);
      assert.ok(!existsSync(`${ours}.rollback`), 'nothing left to roll back');
      await until(async () => (await announcedAt()) > firstAnnounced, 5000, 'mDNS announced again after the change');
      const after = (await svc.get('/getethernetconfig')).json;
      assert.equal(after.ip, `${lan.net}.20`);
      assert.deepEqual(after.dns, [`${lan.net}.53`, `${lan.net}.54`]);
      const confirmedFile = readFileSync(ours, 'utf8');

      // A gateway nobody answers for: the confirmed file comes back, and /info says so.
      const bad = `dhcp=false&ip=${lan.net}.30&netmask=255.255.255.0&gateway=${lan.net}.254&dns=${lan.net}.1`;
      assert.equal((await svc.get(`/setethernetconfig?${bad}`)).status, 200);
      assert.equal(readFileSync(ours, 'utf8').includes(`Address=${lan.net}.30/24`), true);
      // While it is watched, another change waits.
      const busy = await svc.get(`/setethernetconfig?${good}`);
      assert.equal(busy.status, 503);
      assert.equal(busy.json.code, 'MLDS_NETWORK_BUSY');
      assert.ok(
        Number(busy.headers['retry-after']) >= 1 && Number(busy.headers['retry-after']) <= ROLLBACK_S + 1,
        `Retry-After ${String(busy.headers['retry-after'])}`,
      );
      const back = await settled(svc, `dhcp=false ip=${lan.net}.30`);
      assert.equal(back.state, 'rolled back');
      assert.match(
        back.message!,
        new RegExp(`gateway ${lan.net.replace(/\./g, '\\.')}\\.254 did not answer within ${ROLLBACK_S} s`),
      );
      assert.equal(readFileSync(ours, 'utf8'), confirmedFile, 'the previous file is back byte for byte');
      assert.equal((await svc.get('/getethernetconfig')).json.ip, `${lan.net}.20`, 'and applied');
      const info = (await svc.get('/info')).text;
      assert.match(info, /data-component="network"/);
      assert.match(info, /class="bad">rolled back/);

      // DHCP without a DHCP server: no lease, no gateway, rolled back too.
      assert.equal((await svc.get('/setethernetconfig?dhcp=true')).status, 200);
      const dhcp = await settled(svc, 'dhcp=true');
      assert.equal(dhcp.state, 'rolled back');
      assert.match(dhcp.message!, /no DHCP lease with a gateway within/);
      assert.equal(readFileSync(ours, 'utf8'), confirmedFile);
      assert.equal((await svc.get('/getethernetconfig')).json.ip, `${lan.net}.20`);
      assert.ok(existsSync(path.join(networkd, '20-unit.network')), "the distribution's file is never touched");
    } finally {
      await svc?.stop('SIGKILL');
      lan.destroy();
      sd.cleanup();
    }
  },
);

test(
  'a change the service stopped watching (killed) is watched again after a restart and rolled back; with no ' +
    'earlier file of ours, ours is removed',
  { skip },
  async () => {
    const lan = createLan('er');
    const { sd, env, ours } = setup(lan);
    let svc: NsService | undefined;
    try {
      svc = await startInNamespace(lan.unit, sd.configFile, sd.stateDir, env);
      const bad = `dhcp=false&ip=${lan.net}.40&netmask=24&gateway=${lan.net}.99&dns=${lan.net}.1`;
      assert.equal((await svc.get(`/setethernetconfig?${bad}`)).status, 200);
      await until(async () => (await changes(svc!))[0]?.state === 'watching', 10_000, 'the watch');
      await svc.stop('SIGKILL');
      assert.ok(existsSync(`${ours}.rollback`), 'the way back is on disk');
      assert.equal(
        JSON.parse(lan.exec(lan.unit, 'ip', '-j', '-4', 'addr', 'show', lan.unitIf))[0].addr_info[0].local,
        `${lan.net}.40`,
        'the bad address is applied',
      );

      svc = await startInNamespace(lan.unit, sd.configFile, sd.stateDir, env);
      const back = await settled(svc, `dhcp=false ip=${lan.net}.40`);
      assert.equal(back.state, 'rolled back');
      assert.equal(back.resumed, true);
      assert.ok(!existsSync(ours), 'there was no file of ours before: it is removed');
      assert.ok(!existsSync(`${ours}.rollback`));
      assert.equal(
        (await svc.get('/getethernetconfig')).json.ip,
        `${lan.net}.10`,
        "the distribution's configuration applies again",
      );
    } finally {
      await svc?.stop('SIGKILL');
      lan.destroy();
      sd.cleanup();
    }
  },
);
