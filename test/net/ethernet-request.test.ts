// What /setethernetconfig accepts, checked before anything is written, and the HTTP rules
// around it (admin key, exactly one display, HEAD) on a running service whose networkd
// folder belongs to the test.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { MldsError } from '../../src/errors.js';
import { parseNetworkRequest } from '../../src/net/ethernet-request.js';
import { chooseInterface, type IpLink } from '../../src/net/ethernet-read.js';
import { renderNetworkFile } from '../../src/net/networkd.js';
import { baseConfig, get, serviceDir, start } from '../helpers/service.js';

const ok = 'dhcp=false&ip=192.168.10.20&netmask=255.255.255.0&gateway=192.168.10.1&dns=192.168.10.1';
const field = (q: string) => {
  try {
    parseNetworkRequest(q);
  } catch (err) {
    assert.ok(err instanceof MldsError);
    assert.equal(err.status, 400);
    return `${err.code}:${err.field}`;
  }
  return 'accepted';
};

test('valid requests, in the forms a TPCM may write them', () => {
  assert.deepEqual(parseNetworkRequest('dhcp=true'), { dhcp: true });
  assert.deepEqual(
    parseNetworkRequest('dhcp=true&key=secret-key'),
    { dhcp: true },
    'the key travels in the query and is no parameter',
  );
  assert.deepEqual(parseNetworkRequest(ok), {
    dhcp: false,
    ip: '192.168.10.20',
    prefix: 24,
    netmask: '255.255.255.0',
    gateway: '192.168.10.1',
    dns: ['192.168.10.1'],
  });
  assert.deepEqual(parseNetworkRequest('dhcp=false&ip=10.1.2.3&netmask=20&gateway=10.1.0.1&dns=1.1.1.1%2C9.9.9.9'), {
    dhcp: false,
    ip: '10.1.2.3',
    prefix: 20,
    netmask: '255.255.240.0',
    gateway: '10.1.0.1',
    dns: ['1.1.1.1', '9.9.9.9'],
  });
  assert.equal(
    field('dhcp=false&ip=10.0.0.2&netmask=255.255.255.252&gateway=10.0.0.1&dns=127.0.0.1'),
    'accepted',
    'a /30 and a resolver on the unit',
  );
});

test('every faulty request names its field', () => {
  const cases: Array<[string, string]> = [
    ['', 'dhcp'],
    ['dhcp=yes', 'dhcp'],
    ['dhcp=true&dhcp=true', 'dhcp'],
    ['dhcp=true&ip=10.0.0.2', 'ip'],
    ['dhcp=true&mask=1', 'mask'],
    ['dhcp=false&netmask=255.255.255.0&gateway=192.168.10.1&dns=192.168.10.1', 'ip'],
    [ok.replace('&dns=192.168.10.1', ''), 'dns'],
    [ok.replace('192.168.10.20', '192.168.10.256'), 'ip'],
    [ok.replace('192.168.10.20', '192.168.010.20'), 'ip'],
    [ok.replace('192.168.10.20', '192.168.10'), 'ip'],
    [ok.replace('192.168.10.20', '127.0.0.5'), 'ip'],
    [ok.replace('192.168.10.20', '224.0.0.5'), 'ip'],
    [ok.replace('192.168.10.20', '0.1.2.3'), 'ip'],
    [ok.replace('192.168.10.20', '192.168.10.0'), 'ip'],
    [ok.replace('192.168.10.20', '192.168.10.255'), 'ip'],
    [ok.replace('255.255.255.0', '255.0.255.0'), 'netmask'],
    [ok.replace('255.255.255.0', '255.255.255.254'), 'netmask'],
    [ok.replace('255.255.255.0', '0.0.0.0'), 'netmask'],
    [ok.replace('255.255.255.0', '33'), 'netmask'],
    [ok.replace('gateway=192.168.10.1', 'gateway=192.168.11.1'), 'gateway'],
    [ok.replace('gateway=192.168.10.1', 'gateway=192.168.10.0'), 'gateway'],
    [ok.replace('gateway=192.168.10.1', 'gateway=192.168.10.255'), 'gateway'],
    [ok.replace('gateway=192.168.10.1', 'gateway=192.168.10.20'), 'gateway'],
    [ok.replace('dns=192.168.10.1', 'dns=1.1.1.1,2.2.2.2,3.3.3.3,4.4.4.4'), 'dns'],
    [ok.replace('dns=192.168.10.1', 'dns=1.1.1'), 'dns'],
    [ok.replace('dns=192.168.10.1', 'dns=239.1.1.1'), 'dns'],
  ];
  for (const [q, f] of cases) assert.equal(field(q), `MLDS_BAD_PARAMETER:${f}`, q);
  assert.equal(field('dhcp=%ZZ'), 'MLDS_BAD_ENCODING:dhcp');
});

test('the networkd file says exactly what was asked', () => {
  const req = parseNetworkRequest('dhcp=false&ip=10.1.2.3&netmask=20&gateway=10.1.0.1&dns=1.1.1.1,9.9.9.9');
  assert.equal(
    renderNetworkFile('eth0', req, 'T').replace(/^#.*\n/gm, ''),
    '[Match]\nName=eth0\n\n[Network]\nDHCP=no\nAddress=10.1.2.3/20\nGateway=10.1.0.1\nDNS=1.1.1.1\nDNS=9.9.9.9\n',
  );
  assert.equal(
    renderNetworkFile('eth0', { dhcp: true }, 'T').replace(/^#.*\n/gm, ''),
    '[Match]\nName=eth0\n\n[Network]\nDHCP=ipv4\n',
  );
});

test("the interface: the configured one, else the default route's, else the first Ethernet one that is up", () => {
  const link = (ifname: string, operstate: string, link_type = 'ether'): IpLink => ({
    ifindex: 1,
    ifname,
    flags: [],
    mtu: 1500,
    operstate,
    link_type,
  });
  const links = [link('lo', 'UNKNOWN', 'loopback'), link('eth0', 'DOWN'), link('eth1', 'UP'), link('wlan0', 'UP')];
  assert.equal(chooseInterface(links, [], 'eth0')?.ifname, 'eth0');
  assert.equal(chooseInterface(links, [], 'eth9'), undefined);
  assert.equal(
    chooseInterface(links, [
      { dst: 'default', dev: 'wlan0', metric: 600 },
      { dst: 'default', dev: 'eth0', metric: 100 },
    ])?.ifname,
    'eth0',
  );
  assert.equal(chooseInterface(links, [])?.ifname, 'eth1');
});

test(
  'HTTP: admin key, exactly one display, HEAD changes nothing; a faulty request, a missing folder or ' +
    'interface write nothing',
  async () => {
    const c = baseConfig();
    c.security = { apiKey: 'api-key-123', adminKey: 'admin-key-456' };
    const sd = serviceDir(c);
    const networkd = path.join(sd.dir, 'networkd');
    mkdirSync(networkd);
    c.network = { networkdDir: networkd };
    writeFileSync(sd.configFile, JSON.stringify(c));
    const svc = await start(sd);
    const asAdmin = { headers: { 'X-API-Key': 'admin-key-456' } };
    try {
      assert.equal(
        (await get(svc, '/setethernetconfig?dhcp=true', { headers: { 'X-API-Key': 'api-key-123' } })).json.code,
        'MLDS_FORBIDDEN',
      );
      assert.equal((await get(svc, '/getethernetconfig')).status, 401);
      assert.equal(
        (await get(svc, '/getethernetconfig', { headers: { 'X-API-Key': 'api-key-123' } })).status,
        200,
        'reading needs only the API key',
      );
      const head = await fetch(`${svc.url}/setethernetconfig?dhcp=true`, { method: 'HEAD', ...asAdmin });
      assert.equal(head.status, 200, 'HEAD checks the keys and the request');
      assert.deepEqual(readdirSync(networkd), [], 'and writes nothing');
      const faulty = await get(svc, '/setethernetconfig?dhcp=false&ip=10.0.0.1', asAdmin);
      assert.equal(faulty.status, 400);
      assert.equal(faulty.json.field, 'netmask');
      // A second display makes the endpoint refuse before it reads a parameter.
      c.displays.second = { ...c.displays.main, displayPort: '9002' };
      writeFileSync(sd.configFile, JSON.stringify(c));
      assert.equal((await get(svc, '/reload_config', asAdmin)).status, 200);
      const two = await get(svc, '/setethernetconfig?dhcp=true', asAdmin);
      assert.equal(two.status, 400);
      assert.equal(two.json.code, 'MLDS_NOT_SINGLE_DISPLAY');
      assert.deepEqual(readdirSync(networkd), [], 'nothing was written');

      // Back to one display; a networkd folder that is missing, an interface that does not exist.
      delete c.displays.second;
      c.network = { networkdDir: path.join(sd.dir, 'no-such-folder') };
      writeFileSync(sd.configFile, JSON.stringify(c));
      assert.equal((await get(svc, '/reload_config', asAdmin)).status, 200);
      const noFolder = await get(svc, '/setethernetconfig?dhcp=true', asAdmin);
      assert.equal(noFolder.status, 503);
      assert.equal(noFolder.json.code, 'MLDS_NETWORK_UNAVAILABLE');
      assert.match(String(noFolder.json.message), /no-such-folder does not exist .*nothing was changed/);
      c.network = { networkdDir: networkd, interface: 'nosuch0' };
      writeFileSync(sd.configFile, JSON.stringify(c));
      assert.equal((await get(svc, '/reload_config', asAdmin)).status, 200);
      for (const p of ['/getethernetconfig', '/setethernetconfig?dhcp=true']) {
        const r = await get(svc, p, asAdmin);
        assert.equal(r.status, 503, p);
        assert.match(String(r.json.message), /no network interface "nosuch0"/);
      }
      assert.deepEqual(readdirSync(networkd), [], 'still nothing written');
    } finally {
      await svc.close();
      sd.cleanup();
    }
  },
);
