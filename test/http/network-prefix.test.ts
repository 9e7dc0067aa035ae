// The network a client address counts in for the share of unfinished requests: /24, /64.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { networkPrefix } from '../../src/http/network-prefix.js';

test('IPv4 addresses count by their /24, written plainly or mapped into IPv6', () => {
  assert.equal(networkPrefix('127.0.0.1'), '127.0.0.0/24');
  assert.equal(networkPrefix('127.0.0.200'), '127.0.0.0/24');
  assert.equal(networkPrefix('127.0.1.2'), '127.0.1.0/24');
  assert.equal(networkPrefix('::ffff:192.168.4.17'), '192.168.4.0/24');
});

test('IPv6 addresses count by their /64, however the zeros are written', () => {
  assert.equal(networkPrefix('2001:db8::1'), '2001:db8:0:0::/64');
  assert.equal(networkPrefix('2001:0db8:0000:0000:ffff::2'), '2001:db8:0:0::/64');
  assert.equal(networkPrefix('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
  assert.equal(networkPrefix('2001:db8:1:3::9'), '2001:db8:1:3::/64');
  assert.equal(networkPrefix('::1'), '0:0:0:0::/64');
  assert.equal(networkPrefix('fe80::1%eth0'), 'fe80:0:0:0::/64');
  assert.equal(networkPrefix('unknown'), 'unknown');
});
