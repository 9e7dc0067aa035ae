import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configFaults } from '../helpers/config-faults.js';
import { loadServiceConfig } from '../../src/runtime/load-config.js';
import { baseConfig, serviceDir } from '../helpers/service.js';

const show = { layout: 'l1', area: 'title' };

test("an alerts entry loads with its defaults, and the unit's geocodes and alertMaxMB", () => {
  const c = baseConfig();
  c.alerts = [{ url: 'https://alerts.example/cap.atom', show }];
  c.geocodes = [{ valueName: 'SAME', value: '006113' }];
  const sd = serviceDir(c);
  try {
    const cfg = loadServiceConfig(sd.configFile);
    assert.deepEqual(cfg.alerts, [
      {
        url: 'https://alerts.example/cap.atom',
        interval: 60,
        displays: ['main'],
        show,
        priority: 8,
        template: '{event}: {headline}',
        languages: [],
        test: false,
        speak: false,
      },
    ]);
    assert.deepEqual(cfg.geocodes, [{ valueName: 'SAME', value: '006113' }]);
    assert.equal(cfg.alertMaxMB, 4);
  } finally {
    sd.cleanup();
  }
});

test(
  'a display without the show layout or area, an unknown ' + 'display and a bad URL are faults with their JSON paths',
  () => {
    assert.deepEqual(
      configFaults((c) => {
        c.alerts = [{ url: 'https://a.example/x', show: { layout: 'l2', area: 'title' } }];
      }),
      [{ path: '/alerts/0/show', message: 'layout "l2" of display "main" has no area "title" to show alerts in' }],
    );
    assert.deepEqual(
      configFaults((c) => {
        c.alerts = [
          { url: 'https://a.example/x', displays: ['main', 'nope'], show: { layout: 'gone', area: 'title' } },
        ];
      }),
      [
        { path: '/alerts/0/displays/0', message: 'display "main" has no layout "gone" to show alerts in' },
        { path: '/alerts/0/displays/1', message: 'names display "nope", which the configuration does not define' },
      ],
    );
    const port = configFaults((c) => {
      c.alerts = [{ url: 'http://a.example:80/x', show }];
    });
    assert.equal(port.length, 1);
    assert.equal(port[0].path, '/alerts/0/url');
    assert.ok(
      configFaults((c) => {
        c.alerts = [{ url: 'https://a.example/x', show, priority: '0' }];
      }).some((f) => f.path === '/alerts/0/priority'),
    );
    assert.ok(
      configFaults((c) => {
        c.alerts = [{ url: 'https://a.example/x' }];
      }).length > 0,
      'show is required',
    );
  },
);
