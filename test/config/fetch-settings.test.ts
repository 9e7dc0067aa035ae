import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fetchSettingsOf } from '../../src/config/fetch-settings.js';
import { configFaults } from '../helpers/config-faults.js';

test('fetch.allowHosts: hosts spelt as a link URL spells them; a port, scheme or path is a fault', () => {
  const faults: Array<[string, string]> = [];
  const hosts = ['CAP.Other.Example.', '[::1]', '::1', 'bücher.example', '10.0.0.5', 'h:8080'];
  const s = fetchSettingsOf({ allowHosts: hosts }, (p, m) => faults.push([p, m]));
  assert.deepEqual(s.allowHosts, ['cap.other.example', '::1', '::1', 'xn--bcher-kva.example', '10.0.0.5']);
  assert.deepEqual(
    faults.map(([p]) => p),
    ['/fetch/allowHosts/5'],
  );
  assert.match(faults[0][1], /"h:8080" is not a host name or IP address/);
  assert.deepEqual(fetchSettingsOf(undefined, () => assert.fail()).allowHosts, []);

  const loaded = configFaults((c) => {
    c.fetch = { allowHosts: ['alerts.example', 'https://x.example/', 'y:1'] };
  });
  assert.deepEqual(loaded.map((f) => f.path).sort(), ['/fetch/allowHosts/1', '/fetch/allowHosts/2']);
  assert.deepEqual(
    configFaults((c) => {
      c.fetch = { allowHosts: ['alerts.example'] };
    }),
    [],
  );
});
