// A corrupt alerts.json is set aside and reported as the other state files are, and the alerts
// start without what could not be used: a record of the wrong form is dropped (the file copied
// aside), a FIFO in its place is moved aside unread (reading it would wait for a writer). The
// service runs as a child process so a hang fails the test instead of blocking it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { checkSaved, readSaved } from '../../src/alerts/saved.js';
import { startCli } from '../helpers/cli-child.js';
import { get, serviceDir, until } from '../helpers/service.js';
import { capAlert, capServer, doc, square } from './cap.js';
import { alertsConfig, isRed, LAT, LON, status } from './setup.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const stateProblems = async (svc: { url: string }): Promise<string[]> =>
  ((await status(svc)).problems as Obj[]).filter((p) => p.source === 'state').map((p) => p.message as string);
/** Once the alert is on the panel: the state file's one problem on /status, matching `message`. */
async function oneStateProblem(svc: { url: string }, message: RegExp): Promise<void> {
  await until(() => isRed(svc), 30_000, 'the alert on the panel');
  const problems = await stateProblems(svc);
  assert.equal(problems.length, 1, problems.join('\n'));
  assert.match(problems[0], message);
}
const aside = (dir: string) => readdirSync(dir).filter((f) => f.startsWith('alerts.json.bad-'));

const AREA = { polygon: square(LAT, LON) };
const GOOD = doc(capAlert({ identifier: 'GOOD', infos: [{ expires: '2099-01-01T00:00:00Z', areas: [AREA] }] }));

test(
  'alerts.json with a null feed record: the record is dropped and reported, the alerts start and show, ' +
    'and the next start finds a good file',
  { timeout: 120_000 },
  async () => {
    const cap = await capServer();
    cap.routes.set('/cap.xml', GOOD);
    const url = cap.url('/cap.xml');
    const sd = serviceDir(alertsConfig(url));
    mkdirSync(sd.stateDir);
    const corrupt = { feeds: { [`0 ${url}`]: null }, held: {}, spoken: [] };
    writeFileSync(path.join(sd.stateDir, 'alerts.json'), JSON.stringify(corrupt));
    let svc = await startCli(sd);
    try {
      await oneStateProblem(
        svc,
        new RegExp(
          'alerts\\.json has 1 entry of the wrong form ' +
            '\\(/feeds/0 http:~1~1127\\.0\\.0\\.1:\\d+~1cap\\.xml\\), ' +
            'dropped; it was kept as alerts\\.json\\.bad-\\S+; the rest was loaded$',
        ),
      );
      assert.equal(aside(sd.stateDir).length, 1);
      // The next start reads what this one wrote, once it has written its own file.
      const file = path.join(sd.stateDir, 'alerts.json');
      await until(
        () => (JSON.parse(readFileSync(file, 'utf8')) as Obj).feeds?.[`0 ${url}`] != null,
        30_000,
        'alerts.json written by the service',
      );

      await svc.kill();
      svc = await startCli(sd);
      await until(() => isRed(svc), 30_000, 'the alert on the panel after a restart');
      assert.deepEqual(await stateProblems(svc), []);
      assert.equal(aside(sd.stateDir).length, 1, 'nothing more set aside');
    } finally {
      await svc.kill();
      await cap.close();
      sd.cleanup();
    }
  },
);

test(
  'mkfifo alerts.json: the service starts and answers, the FIFO is moved aside unread, and /status says so',
  { timeout: 120_000 },
  async () => {
    const cap = await capServer();
    cap.routes.set('/cap.xml', GOOD);
    const sd = serviceDir(alertsConfig(cap.url('/cap.xml')));
    mkdirSync(sd.stateDir);
    const file = path.join(sd.stateDir, 'alerts.json');
    assert.equal(spawnSync('mkfifo', [file]).status, 0);
    const svc = await startCli(sd);
    try {
      await until(async () => (await get(svc, '/status')).status === 200, 30_000, 'the service to be ready');
      assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=Hi')).status, 200);
      await oneStateProblem(
        svc,
        new RegExp(
          'alerts\\.json cannot be read ' +
            '\\(ENOTREG: not a regular file but a named pipe \\(FIFO\\)\\); ' +
            'it was kept as alerts\\.json\\.bad-\\S+; the alerts started without it$',
        ),
      );
      const moved = aside(sd.stateDir);
      assert.equal(moved.length, 1);
      assert.ok(statSync(path.join(sd.stateDir, moved[0])).isFIFO());
      const regular = () => {
        try {
          return statSync(file).isFile();
        } catch {
          return false;
        }
      };
      await until(regular, 10_000, 'a regular alerts.json written');
    } finally {
      await svc.kill();
      await cap.close();
      sd.cleanup();
    }
  },
);

test(
  'every part of alerts.json is checked: entries of the wrong form are dropped and named, the rest kept; ' +
    'a file that is not an object is moved aside',
  async () => {
    const alert = {
      key: 'k',
      identifier: 'A',
      sender: 's',
      sent: 't',
      event: 'e',
      severity: 'Severe',
      from: 1,
      text: 'x',
      spoken: '',
    };
    const checked = checkSaved({
      feeds: {
        good: {
          inForce: [alert, { ...alert, from: 'soon' }],
          ended: [
            ['r', 'cancelled'],
            ['r2', 'gone'],
          ],
        },
        bad: { inForce: null, ended: [] },
        nul: null,
      },
      held: { 'main|8': { key: 'k', text: 'x', levelUntil: 5 }, 'main|7': { key: 'k', text: 'x', levelUntil: null } },
      spoken: ['main|k', 7],
    });
    assert.deepEqual(checked?.saved, {
      feeds: { good: { inForce: [alert], ended: [['r', 'cancelled']] } },
      held: { 'main|8': { key: 'k', text: 'x', levelUntil: 5 } },
      spoken: ['main|k'],
    });
    assert.deepEqual(checked?.dropped, [
      '/feeds/good/inForce/1',
      '/feeds/good/ended/1',
      '/feeds/bad',
      '/feeds/nul',
      '/held/main|7',
      '/spoken/1',
    ]);
    assert.deepEqual(checkSaved({ feeds: [], held: 'x', spoken: {} })?.dropped, ['/feeds', '/held', '/spoken']);
    assert.equal(checkSaved([]), undefined);
    assert.equal(checkSaved(null), undefined);

    const dir = mkdtempSync(path.join(tmpdir(), 'mlds-alerts-state-'));
    try {
      const damaged = [
        ['[1, 2]', 'does not hold a JSON object'],
        ['{"feeds": ', 'is not valid JSON'],
        ['', 'is empty'],
      ];
      for (const [text, why] of damaged) {
        writeFileSync(path.join(dir, 'alerts.json'), text);
        const r = await readSaved(dir);
        assert.deepEqual(r.saved, { feeds: {}, held: {}, spoken: [] });
        const said = new RegExp(
          `alerts\\.json ${why}.*; it was kept as alerts\\.json\\.bad-\\S+; the alerts started without`,
        );
        assert.match(r.problems[0]?.message ?? '', said);
        assert.deepEqual(
          readdirSync(dir).filter((f) => f === 'alerts.json'),
          [],
          'moved, not copied',
        );
        for (const f of readdirSync(dir)) rmSync(path.join(dir, f));
      }
      const none = { saved: { feeds: {}, held: {}, spoken: [] }, problems: [] };
      assert.deepEqual(await readSaved(dir), none, 'none at all: a first start');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
