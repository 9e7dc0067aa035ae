import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { startCli } from '../helpers/cli-child.js';
import { serviceDir, until } from '../helpers/service.js';
import { capAlert, capServer, doc, square } from './cap.js';
import { alertsConfig, alertsStatus, isRed, LAT, LON, status } from './setup.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE alert [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
${capAlert({ identifier: 'LOL', infos: [{ headline: '&lol9;' }] }).replace('&amp;lol9;', '&lol9;')}`;

const XXE = `<?xml version="1.0"?>
<!DOCTYPE alert [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
${capAlert({ identifier: 'XXE', infos: [{ headline: 'x' }] }).replace('<headline>x</headline>', '<headline>&xxe;</headline>')}`;

/** An entity declared without a DOCTYPE line of its own (the parser must never see it either). */
const BARE_ENTITY = `<?xml version="1.0"?>\n<!ENTITY a "b">${capAlert({ identifier: 'ENT' })}`;

const peakMb = (pid: number) =>
  Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

test(
  'billion laughs, an external entity, 1,000,000 polygon points and a 50 MB response are refused with bounded ' +
    'memory and shown as faults; a good feed beside them still shows',
  { timeout: 180_000 },
  async () => {
    const cap = await capServer();
    cap.routes.set(
      '/good.xml',
      doc(
        capAlert({
          identifier: 'GOOD',
          infos: [{ expires: '2099-01-01T00:00:00Z', areas: [{ polygon: square(LAT, LON) }] }],
        }),
      ),
    );
    cap.routes.set('/bomb.xml', BILLION_LAUGHS);
    cap.routes.set('/xxe.xml', XXE);
    cap.routes.set('/entity.xml', BARE_ENTITY);
    const points = Array.from(
      { length: 1_000_000 },
      (_, i) => `${(LAT + (i % 100) / 1000).toFixed(3)},${LON.toFixed(3)}`,
    ).join(' ');
    cap.routes.set('/points.xml', doc(capAlert({ identifier: 'POINTS', infos: [{ areas: [{ polygon: points }] }] })));
    const mb = Buffer.alloc(1024 * 1024, 'a');
    cap.routes.set('/huge.xml', (_req, res) => {
      // 50 MB without a Content-Length: the cap must be counted as the bytes arrive.
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.write('<alert xmlns="urn:oasis:names:tc:emergency:cap:1.2"><identifier>');
      let sent = 0;
      const more = () => {
        while (sent < 50) {
          sent++;
          if (!res.write(mb)) {
            res.once('drain', more);
            return;
          }
        }
        res.end('</identifier></alert>');
      };
      res.on('error', () => undefined);
      more();
    });
    const c = alertsConfig(cap.url('/good.xml'));
    c.alertMaxMB = '16';
    for (const p of ['/bomb.xml', '/xxe.xml', '/entity.xml', '/points.xml', '/huge.xml'])
      c.alerts.push({ ...c.alerts[0], url: cap.url(p) });
    const sd = serviceDir(c);
    const svc = await startCli(sd);
    try {
      await until(() => isRed(svc), 30_000, 'the good alert on the panel');
      await until(
        async () => ((await alertsStatus(svc)).feeds as Obj[]).slice(1).every((f) => f.fault),
        60_000,
        'every hostile feed judged',
      );
      // Several rounds of each at interval 1, then the peak.
      const hits = () => Math.min(...['/bomb.xml', '/points.xml', '/huge.xml'].map((p) => cap.hits.get(p) ?? 0));
      await until(() => hits() >= 5, 90_000, 'five fetches of each hostile feed');
      const expected = [
        /^$/,
        /<!DOCTYPE>/,
        /<!DOCTYPE>/,
        /<!ENTITY>/,
        /polygon of more than 10000 points/,
        /sent more than 16777216 bytes/,
      ];
      let faults: string[] = [];
      await until(
        async () => {
          faults = ((await alertsStatus(svc)).feeds as Obj[]).map((f) => f.fault?.message ?? '');
          return faults.every((f, i) => expected[i].test(f));
        },
        60_000,
        () => `the faults ${JSON.stringify(faults)}`,
      );
      const problems = ((await status(svc)).problems as Obj[]).filter((p) => p.source === 'alerts');
      assert.equal(problems.length, 5);
      assert.deepEqual(
        (await alertsStatus(svc)).displays.main.map((a: Obj) => a.identifier),
        ['GOOD'],
      );
      const peak = peakMb(svc.child.pid!);
      console.log(`peak RSS of the service after ${hits()} rounds of hostile feeds: ${peak.toFixed(0)} MB`);
      // A service with the good feed alone peaks near 160 MB; the hostile documents may add their capped bodies, no
      // more.
      assert.ok(peak < 350, `peak RSS ${peak.toFixed(0)} MB`);
    } finally {
      await svc.kill();
      await cap.close();
      sd.cleanup();
    }
  },
);
