// What an alert holds never keeps a valid alert off the panel: its text is made plain words for
// the area it goes to (a tab, MULTI brackets), an alert the area still cannot take is passed
// over for the next in rank, one unreadable entry is left out alone, a time past any calendar
// is clamped; each refusal is a problem on /status.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { get, serviceDir, start, until } from '../helpers/service.js';
import { atomFeed, capAlert, capServer, CAP_NS } from './cap.js';
import { alertArea, alertsConfig, alertsStatus, isRed, mainDisplay, status } from './setup.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const areaText = (d: Obj) => d.areas?.find((a: Obj) => a.id === 'msg')?.text;
type Svc = { url: string };
/** The latest time ECMAScript has: past every calendar a sign shows. */
const FAR = '+275760-09-13T00:00:00Z';
const NEAR = '2099-01-01T00:00:00Z';
const display = async (svc: Svc, id: string): Promise<Obj> =>
  ((await status(svc)).displays as Obj[]).find((d) => d.id === id)!;
const alertProblems = async (svc: Svc): Promise<string[]> =>
  ((await status(svc)).problems as Obj[]).filter((p) => p.source === 'alerts').map((p) => p.message as string);
const showing = async (svc: Svc, id: string): Promise<string[]> =>
  ((await alertsStatus(svc)).displays[id] ?? []).filter((a: Obj) => a.showing).map((a: Obj) => a.identifier);

/** main: the alert area as setup.ts has it; board: a second panel whose alert area reads MULTI. */
function twoPanels(url: string, board: Obj, entry: Obj = {}): Obj {
  const c = alertsConfig(url, { displays: ['main', 'board'], ...entry });
  c.displays.board = {
    displayWidth: '200',
    displayHeight: '100',
    displayIp: '127.0.0.1',
    displayPort: '9002',
    output: { driver: 'virtual' },
    layout: {
      l1: { title: { coordinates: '0 0 199 99', type: 'text', fontSize: '20' } },
      warn: { msg: alertArea({ markup: 'multi', ...board }) },
    },
  };
  return c;
}

test(
  'a headline holding a tab and "[UPDATE]" shows as plain words: a space in an area without columns, ' +
    'a literal bracket in a MULTI area',
  async () => {
    const cap = await capServer();
    cap.routes.set(
      '/feed.atom',
      atomFeed([
        capAlert({ identifier: 'TAB-1', infos: [{ severity: 'Extreme', headline: 'Road\tclosed [UPDATE]' }] }),
        capAlert({ identifier: 'VALID-1', infos: [{ severity: 'Minor', headline: 'Ice' }] }),
      ]),
    );
    const sd = serviceDir(twoPanels(cap.url('/feed.atom'), { wrap: true }));
    const svc = await start(sd);
    try {
      const both = async () =>
        areaText(await mainDisplay(svc)) !== undefined && areaText(await display(svc, 'board')) !== undefined;
      await until(both, 20_000, 'both panels to show an alert');
      assert.equal(areaText(await mainDisplay(svc)), 'Flood Warning: Road closed [UPDATE]');
      assert.equal(areaText(await display(svc, 'board')), 'Flood Warning: Road closed [[UPDATE]]', 'a literal bracket');
      assert.deepEqual(await showing(svc, 'main'), ['TAB-1']);
      assert.deepEqual(await showing(svc, 'board'), ['TAB-1']);
      assert.ok(await isRed(svc));
      assert.deepEqual(await alertProblems(svc), []);
    } finally {
      await svc.close();
      await cap.close();
      sd.cleanup();
    }
  },
);

test(
  'an alert its area cannot take is passed over for the next in rank and is a problem on /status; ' +
    'with none left the level ends at once',
  async () => {
    const cap = await capServer();
    const headline = 'The river is over its banks in the whole county tonight';
    const sent = '2026-11-28T11:00:00Z';
    const long = capAlert({ identifier: 'LONG-1', sent, infos: [{ severity: 'Extreme', headline }] });
    const old = capAlert({ identifier: 'OLD-1', infos: [{ severity: 'Minor', headline: 'Ice' }] });
    // MULTI without wrap: a page wider than the area is refused (NTCIP 1203 shows a page whole or not at all).
    cap.routes.set('/feed.atom', atomFeed([old]));
    const sd = serviceDir(twoPanels(cap.url('/feed.atom'), {}, { displays: ['board'] }));
    const svc = await start(sd);
    try {
      const board = async () => areaText(await display(svc, 'board'));
      await until(async () => (await board()) === 'Flood Warning: Ice', 20_000, 'OLD-1 on the board');

      cap.routes.set('/feed.atom', atomFeed([long, old]));
      await until(async () => (await alertProblems(svc)).length === 1, 20_000, 'the refusal on /status');
      const refusal = /^alert LONG-1 \(Flood Warning\) is not shown on board at priority 8: "msg": .*not fit/;
      assert.match((await alertProblems(svc))[0], refusal);
      assert.equal(await board(), 'Flood Warning: Ice', 'the next in rank shows');
      const st = await alertsStatus(svc);
      const listed = st.displays.board.map((a: Obj) => [a.identifier, a.showing, a.refused !== undefined]);
      assert.deepEqual(listed, [
        ['LONG-1', false, true],
        ['OLD-1', true, false],
      ]);
      const info = (await get(svc, '/info')).text;
      const card = /<section class="card component" data-component="alerts">.*?<\/section>/s.exec(info)?.[0] ?? '';
      assert.match(card, /<code>LONG-1<\/code> .*refused here: .*not fit/s);

      // OLD-1 leaves the feed; LONG-1 alone cannot show: the level it held ends now, not when it runs out.
      cap.routes.set('/feed.atom', atomFeed([long]));
      await until(async () => (await display(svc, 'board')).layers.length === 0, 20_000, 'the level cleared');
      assert.match((await alertProblems(svc)).join('\n'), /alert LONG-1 .* is not shown on board/);
    } finally {
      await svc.close();
      await cap.close();
      sd.cleanup();
    }
  },
);

test(
  'one Atom entry whose escaped content is not well-formed (an unclosed <!--) is left out alone: ' +
    'the entry beside it shows, the refusal is a problem',
  async () => {
    const cap = await capServer();
    const broken = `&lt;alert xmlns="${CAP_NS}"&gt;&lt;identifier&gt;BROKEN-1&lt;/identifier&gt;&lt;!-- never closed`;
    const feed = atomFeed([capAlert({ identifier: 'VALID-2' })]).replace(
      '<entry>',
      `<entry><id>urn:test:broken</id><content type="text">${broken}</content></entry><entry>`,
    );
    cap.routes.set('/feed.atom', feed);
    const sd = serviceDir(alertsConfig(cap.url('/feed.atom')));
    const svc = await start(sd);
    try {
      await until(() => isRed(svc), 20_000, 'the valid alert on the panel');
      const st = await alertsStatus(svc);
      assert.equal(st.feeds[0].fault, undefined, 'the feed itself is read');
      assert.deepEqual(
        st.displays.main.map((a: Obj) => a.identifier),
        ['VALID-2'],
      );
      assert.equal(st.feeds[0].refused, 1);
      const problems = await alertProblems(svc);
      assert.equal(problems.length, 1);
      const why = /: 1 entry or alert is left out \(entry 1: its escaped content is not well-formed XML: .*Comment.*\)/;
      assert.match(problems[0], why);
    } finally {
      await svc.close();
      await cap.close();
      sd.cleanup();
    }
  },
);

test(
  'an alert that expires in +275760-09-13T00:00:00Z, with a timezone, is read as expiring at the end of year 9999: ' +
    'it is in force, and the alert beside it shows',
  async () => {
    const cap = await capServer();
    cap.routes.set(
      '/feed.atom',
      atomFeed([
        capAlert({ identifier: 'FAR-1', infos: [{ severity: 'Minor', headline: 'Far', expires: FAR }] }),
        capAlert({ identifier: 'VALID-3', infos: [{ severity: 'Extreme', headline: 'Near', expires: NEAR }] }),
      ]),
    );
    const c = alertsConfig(cap.url('/feed.atom'), { template: '{headline} until {expires}' });
    c.timezone = 'Europe/Warsaw';
    const sd = serviceDir(c);
    const svc = await start(sd);
    try {
      await until(() => isRed(svc), 20_000, 'an alert on the panel');
      assert.equal(areaText(await mainDisplay(svc)), 'Near until 1 Jan 01:00');
      const st = await alertsStatus(svc);
      assert.deepEqual(
        st.displays.main.map((a: Obj) => [a.identifier, a.expires, a.showing, a.text]),
        [
          ['FAR-1', '9999-12-31T23:59:59.000Z', false, 'Far until 1 Jan 00:59'],
          ['VALID-3', '2099-01-01T00:00:00.000Z', true, 'Near until 1 Jan 01:00'],
        ],
      );
      assert.equal(st.feeds[0].refused, 0);
      assert.deepEqual(await alertProblems(svc), []);
    } finally {
      await svc.close();
      await cap.close();
      sd.cleanup();
    }
  },
);
