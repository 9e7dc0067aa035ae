import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { get, serviceDir, start, until } from '../helpers/service.js';
import { capAlert, capServer, doc } from './cap.js';
import { alertsConfig, alertsStatus, mainDisplay } from './setup.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

test(
  'an RSS feed: one item holds an alert as escaped XML, one links to an alert; a reload with a new template ' +
    'shows the new text, one without alerts ends their level',
  async () => {
    const cap = await capServer();
    cap.routes.set(
      '/linked.xml',
      doc(capAlert({ identifier: 'RSS-LINKED', sent: '2026-11-28T09:00:00Z', infos: [{ severity: 'Minor' }] })),
    );
    const embedded = capAlert({ identifier: 'RSS-EMBEDDED', infos: [{ headline: 'Road closed & diverted' }] });
    cap.routes.set(
      '/feed.rss',
      doc(
        `<rss version="2.0"><channel><title>Alerts</title>` +
          `<item><title>one</title><description>${esc(embedded)}</description></item>` +
          `<item><title>two</title><link>${cap.url('/linked.xml')}</link></item>` +
          `<item><title>not an alert</title><description>plain words</description></item>` +
          '</channel></rss>',
      ),
    );
    const c = alertsConfig(cap.url('/feed.rss'));
    const sd = serviceDir(c);
    const svc = await start(sd);
    const shown = async () => (await mainDisplay(svc)).areas?.find((a: Obj) => a.id === 'msg')?.text;
    try {
      await until(
        async () => (await shown()) === 'Flood Warning: Road closed & diverted',
        20_000,
        'the embedded alert shown (the more severe)',
      );
      const st = await alertsStatus(svc);
      assert.deepEqual(st.displays.main.map((a: Obj) => a.identifier).sort(), ['RSS-EMBEDDED', 'RSS-LINKED']);
      assert.deepEqual(
        st.feeds[0].notShown.map((n: Obj) => n.reason),
        ['refused: entry 3 holds no CAP alert and links to none'],
      );

      c.alerts[0].template = '{severity} / {headline} / {areaDesc}';
      writeFileSync(sd.configFile, JSON.stringify(c));
      assert.equal((await get(svc, '/reload_config')).status, 200);
      await until(async () => (await shown()) === 'Severe / Road closed & diverted /', 20_000, 'the new template');

      delete c.alerts;
      writeFileSync(sd.configFile, JSON.stringify(c));
      assert.equal((await get(svc, '/reload_config')).status, 200);
      await until(
        async () => (await mainDisplay(svc)).layers.length === 0,
        20_000,
        'the level cleared once alerts left the configuration',
      );
    } finally {
      await svc.close();
      await cap.close();
      sd.cleanup();
    }
  },
);

test(
  'an RSS <link> is entity-decoded as every text is: ' + '"&amp;" between query parameters is fetched as "&"',
  async () => {
    const cap = await capServer();
    const asked: string[] = [];
    cap.routes.set('/linked.xml', (req, res) => {
      asked.push(req.url ?? '');
      // The alert is served only to the URL its publisher meant.
      if (req.url !== '/linked.xml?area=PL101&lang=en') {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/cap+xml' }).end(doc(capAlert({ identifier: 'RSS-QUERY' })));
    });
    cap.routes.set(
      '/feed.rss',
      doc(
        `<rss version="2.0"><channel><title>Alerts</title>` +
          `<item><title>one</title><link>${esc(cap.url('/linked.xml?area=PL101&lang=en'))}</link></item></channel></rss>`,
      ),
    );
    const sd = serviceDir(alertsConfig(cap.url('/feed.rss')));
    const svc = await start(sd);
    try {
      const ids = async (): Promise<string[]> =>
        ((await alertsStatus(svc)).displays.main ?? []).map((a: Obj) => a.identifier);
      const linked = async () => (await ids()).includes('RSS-QUERY');
      await until(linked, 20_000, () => `the linked alert in force (asked ${JSON.stringify(asked)})`);
      assert.deepEqual([...new Set(asked)], ['/linked.xml?area=PL101&lang=en']);
      assert.deepEqual((await alertsStatus(svc)).feeds[0].notShown, []);
    } finally {
      await svc.close();
      await cap.close();
      sd.cleanup();
    }
  },
);
