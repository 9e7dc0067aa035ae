import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { CronJobStatus } from '../../src/schedule/crons.js';
import { FakeClock } from '../helpers/clock.js';
import { baseConfig, decode, get, near, serviceDir, start, until } from '../helpers/service.js';
import { sink } from '../helpers/sink.js';

/** 12:00:00.000 UTC: each cron below is due at its own second of the first minute. */
const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const crons = async (svc: { url: string }): Promise<CronJobStatus[]> =>
  ((await get(svc, '/status')).json.components as Obj).crons.crons;
const display = async (svc: { url: string }): Promise<Obj> => ((await get(svc, '/status')).json.displays as Obj[])[0];

test('each cron type fires at its second and does its job', async () => {
  const far = await sink();
  const c = baseConfig();
  c.timezone = 'UTC';
  // The title empties 2 s after a command: loadLastRequest must bring it back.
  c.displays.main.layout.l1.title.ttl = '2';
  // The far end is the feedback server too: a data cron with inumber is confirmed like /mlds.
  c.displays.main.confirmIp = '127.0.0.1';
  c.displays.main.confirmPort = String(far.port);
  c.crons = [
    { type: 'sendInfo', value: far.url('/html'), cron: '3 * * * * *' },
    { type: 'sendInfo', value: far.url('/json'), cron: '4 * * * * *', format: 'json' },
    { type: 'data', value: 'id=main&layout=l1&title=FromCron&inumber=c1', cron: '5 * * * * *' },
    { type: 'url', value: far.url('/ping?token=secret'), cron: '6 * * * * *' },
    { type: 'loadLastRequest', cron: '9 * * * * *' },
  ];
  const sd = serviceDir(c);
  const clock = new FakeClock(T0);
  const svc = await start(sd, { clock, recheckSeconds: 0 });
  const cronCalls = () => far.got.filter((r) => !r.url.startsWith('/mlds?'));
  const confirmations = () => far.got.filter((r) => r.url.startsWith('/mlds?')).map((r) => r.url);
  const ran = async (i: number) =>
    until(async () => (await crons(svc))[i].lastResult !== undefined, 5000, `cron ${i} to finish`);
  try {
    const before = await crons(svc);
    assert.deepEqual(
      before.map((j) => j.nextRunAt),
      [3, 4, 5, 6, 9].map(at),
    );
    assert.equal(before[3].target, `http://127.0.0.1:${far.port}/ping?…`, 'no query value on /status');

    clock.advance(2999);
    // A timer due by now has fired inside advance(), and firing counts the run at once.
    assert.deepEqual(
      (await crons(svc)).map((j) => [j.runs, j.lastRunAt, j.nextRunAt]),
      [3, 4, 5, 6, 9].map((s) => [0, undefined, at(s)]),
      'no cron fired before its second',
    );
    assert.equal(cronCalls().length, 0, 'nothing before its second');
    clock.advance(1);
    await until(() => cronCalls().length === 1, 5000, 'the /info POST');
    const html = cronCalls()[0];
    assert.deepEqual([html.method, html.url, html.type], ['POST', '/html', 'text/html; charset=utf-8']);
    const info = (await get(svc, '/info')).text;
    const title = (s: string) => /<title>(.*?)<\/title>/.exec(s)?.[1];
    assert.ok(html.body.startsWith('<!doctype html>'));
    assert.equal(title(html.body), title(info), 'the same page as /info');
    assert.match(html.body, /data-id="main"/);
    await ran(0);
    let jobs = await crons(svc);
    assert.equal(jobs[0].lastRunAt, at(3));
    assert.equal(jobs[0].nextRunAt, new Date(T0 + 63_000).toISOString(), 'next minute');

    clock.advance(1000);
    await until(() => cronCalls().length === 2, 5000, 'the /status POST');
    const json = cronCalls()[1];
    assert.deepEqual([json.method, json.url, json.type], ['POST', '/json', 'application/json']);
    const posted = JSON.parse(json.body) as Obj;
    assert.equal(posted.service, 'mlds');
    assert.equal(posted.time, at(4), 'the status as of its second');
    assert.equal(posted.displays[0].id, 'main');

    const black = await decode((await get(svc, '/screenshot?id=main&format=png')).bytes);
    assert.ok(near(black.at(190, 10), [0, 0, 0]), 'black before any command');
    clock.advance(1000);
    await until(async () => (await display(svc)).lastCommand?.source === 'cron', 5000, 'the data cron');
    assert.equal((await display(svc)).areas.find((a: Obj) => a.id === 'title').text, 'FromCron');
    await until(
      async () =>
        near((await decode((await get(svc, '/screenshot?id=main&format=png')).bytes)).at(190, 10), [0, 0, 255]),
      5000,
      'layout l1 on screen',
    );

    clock.advance(1000);
    await until(() => confirmations().length === 1, 5000, 'the confirmation of the data cron');
    assert.deepEqual(confirmations(), ['/mlds?confirm=1&inumber=c1']);
    await until(() => cronCalls().length === 3, 5000, 'the url GET');
    assert.deepEqual([cronCalls()[2].method, cronCalls()[2].url], ['GET', '/ping?token=secret']);
    await ran(3);
    assert.match((await crons(svc))[3].message!, /HTTP 200.*body not used/);

    // A data cron naming a missing layout no longer loads (test/config/cross-checks.test.ts).
    clock.advance(1000);
    await until(
      async () => (await display(svc)).areas.find((a: Obj) => a.id === 'title').source === 'none',
      5000,
      'the ttl',
    );

    // 2 s after the data cron the title's ttl empties it; at :09 the last request comes back.
    assert.equal((await display(svc)).areas.find((a: Obj) => a.id === 'title').source, 'none', 'the title is blank');
    clock.advance(2000);
    await until(async () => (await display(svc)).lastCommand?.source === 'replay', 5000, 'loadLastRequest');
    const back = await display(svc);
    assert.equal(back.areas.find((a: Obj) => a.id === 'title').text, 'FromCron');
    assert.equal(back.lastCommand.query, 'id=main&layout=l1&title=FromCron&inumber=c1');
    await ran(4);
    assert.equal((await crons(svc))[4].message, 'replayed main');
    jobs = await crons(svc);
    assert.deepEqual(
      jobs.map((j) => j.lastRunAt),
      [3, 4, 5, 6, 9].map(at),
      'each at its second',
    );
    assert.ok(jobs.every((j) => j.runs === 1 && j.skipped === 0));
    assert.deepEqual(confirmations(), ['/mlds?confirm=1&inumber=c1'], 'the replay is not confirmed again');

    // /info shows the crons table.
    const page = (await get(svc, '/info')).text;
    assert.match(page, /data-component="crons"/);
    assert.match(page, /<code>9 \* \* \* \* \*<\/code>/);
  } finally {
    await svc.close();
    far.close();
    sd.cleanup();
  }
});

test('a cron whose previous run has not finished is skipped with a log line', async () => {
  const far = await sink();
  let release: (() => void) | undefined;
  far.answer = (_r, res) => {
    release = () => res.end('late');
  };
  const c = baseConfig();
  c.crons = [{ type: 'url', value: far.url('/slow'), cron: '* * * * * *' }];
  const sd = serviceDir(c);
  const logDir = path.join(sd.dir, 'logs');
  const clock = new FakeClock(T0);
  const svc = await start(sd, { clock, recheckSeconds: 0, logDir });
  try {
    clock.advance(1000);
    await until(() => release !== undefined, 5000, 'the first run to reach the server');
    clock.advance(1000);
    await until(async () => (await crons(svc))[0].skipped === 1, 5000, 'the skip');
    assert.equal(far.got.length, 1, 'no second request while the first is open');
    const log = path.join(logDir, 'mlds.log');
    await until(
      () => readFileSync(log, 'utf8').includes('cron skipped: its previous run has not finished'),
      5000,
      'the log line',
    );
    release!();
    await until(async () => (await crons(svc))[0].lastResult === 'ok', 5000, 'the first run to end');
    far.answer = (_r, res) => res.end('ok');
    clock.advance(1000);
    await until(() => far.got.length === 2, 5000, 'the next run');
    await until(() => readFileSync(log, 'utf8').includes('"msg":"cron ran"'), 5000, 'the run logged');
  } finally {
    await svc.close();
    far.close();
    sd.cleanup();
  }
});

test('crons follow a reload: new schedules in the configured timezone, none left running when removed', async () => {
  const c = baseConfig();
  c.crons = [{ type: 'loadLastRequest', cron: '*/10 * * * * *' }];
  const sd = serviceDir(c);
  const clock = new FakeClock(T0);
  const svc = await start(sd, { clock, recheckSeconds: 0 });
  try {
    assert.equal((await crons(svc))[0].nextRunAt, at(10));
    c.timezone = 'Europe/Warsaw';
    c.crons = [
      { type: 'loadLastRequest', cron: '0 30 2 * * *' },
      { type: 'loadLastRequest', cron: '*/10 * * * * *' },
    ];
    writeFileSync(sd.configFile, JSON.stringify(c));
    assert.equal((await get(svc, '/reload_config')).status, 200);
    const jobs = await crons(svc);
    // 02:30 in Warsaw (UTC+1 in November) is 01:30 UTC the next day.
    assert.deepEqual(
      jobs.map((j) => j.nextRunAt),
      ['2026-11-22T01:30:00.000Z', at(10)],
    );
    const pending = clock.pending();
    delete c.crons;
    writeFileSync(sd.configFile, JSON.stringify(c));
    assert.equal((await get(svc, '/reload_config')).status, 200);
    assert.equal(((await get(svc, '/status')).json.components as Obj).crons, undefined);
    assert.equal(clock.pending(), pending - 2, 'both timers cleared');
  } finally {
    await svc.close();
    sd.cleanup();
  }
});
