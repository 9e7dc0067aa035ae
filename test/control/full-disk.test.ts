// A command that cannot be made durable is answered 503 MLDS_STATE_UNWRITABLE and confirmed 0,
// never 200: the state folder on a small tmpfs that the test fills (the tests run as root).
import assert from 'node:assert/strict';
import http from 'node:http';
import { readdirSync, readFileSync, statfsSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { Broker, hasMosquitto, Watcher } from '../helpers/broker.js';
import { startCli, type CliChild } from '../helpers/cli-child.js';
import { FakeClock } from '../helpers/clock.js';
import { underEmulation } from '../helpers/emulation.js';
import { baseConfig, decode, get, near, nextFrame, serviceDir, start, until, type Reply } from '../helpers/service.js';
import { sink } from '../helpers/sink.js';
import { mountTmpfs, sub, tmpfsUnavailable, type Tmpfs } from '../helpers/tmpfs.js';

const skip = tmpfsUnavailable();
/** A title long enough that a line or two use up what the journal's last page still holds. */
const long = (tag: string) => `${tag}${'x'.repeat(1500)}`;

/**
 * Fills the disk, then sends commands one at a time until the first refusal: the journal's last
 * page may still take a line or two, and what it takes is stored and answered 200.
 */
async function fillUntilRefused(
  fs: Tmpfs,
  send: (i: number) => Promise<Reply>,
): Promise<{ refused: Reply; accepted: number[] }> {
  fs.fill();
  const accepted: number[] = [];
  for (let i = 0; i < 40; i++) {
    const r = await send(i);
    if (r.status !== 200) return { refused: r, accepted };
    accepted.push(i);
  }
  throw new Error('40 commands of 1.5 KB were stored on a full disk');
}

function assertUnwritable(r: Reply, what: string): void {
  assert.equal(r.status, 503, `${what}: ${r.text}`);
  assert.equal(r.headers.get('retry-after'), '2', what);
  if (r.text) {
    assert.equal(r.json.code, 'MLDS_STATE_UNWRITABLE', what);
    assert.match(
      String(r.json.message),
      /state folder .* cannot be written \(ENOSPC.*the command was not applied/,
      what,
    );
  }
}

test(
  'a command that cannot be stored: 503 MLDS_STATE_UNWRITABLE on every path to /mlds, nothing changes on screen, ' +
    'confirm=0; taken again once there is room',
  { skip, timeout: 60_000 },
  async () => {
    const fs = mountTmpfs('1m');
    const feedback = await sink();
    const c = baseConfig();
    c.displays.main.confirmIp = '127.0.0.1';
    c.displays.main.confirmPort = String(feedback.port);
    const sd = serviceDir(c);
    const svc = await start(sd, { stateDir: sub(fs, 'state') });
    try {
      assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=Kept&inumber=k0')).status, 200);
      let last = 'Kept';
      const { refused, accepted } = await fillUntilRefused(fs, async (i) => {
        const r = await get(svc, `/mlds?id=main&layout=l1&title=${long(`Slack${i}`)}&inumber=s${i}`);
        if (r.status === 200) last = long(`Slack${i}`);
        return r;
      });
      assertUnwritable(refused, 'the first command the journal could not take');
      const refusedInumber = `s${accepted.length}`;

      // /mlds ahead of the router, koa's router (/mlds/, an Accept header) and HEAD answer alike.
      const early = await get(svc, '/mlds?id=main&layout=l2&other=Lost&inumber=l1');
      const koa = await get(svc, '/mlds/?id=main&layout=l2&other=Lost&inumber=l2', {
        headers: { accept: 'text/html, application/json' },
      });
      for (const [what, r] of [
        ['ahead of the router', early],
        ['koa', koa],
      ] as const)
        assertUnwritable(r, what);
      assert.equal(early.text, koa.text, 'the same body on both paths');
      const head = await fetch(`${svc.url}/mlds?id=main&layout=l2&other=Lost`, { method: 'HEAD' });
      assert.equal(head.status, 503, 'HEAD answers what GET would');
      assert.equal(
        head.headers.get('content-length'),
        String(Buffer.byteLength(early.text)),
        'HEAD: the length GET answers',
      );
      assertUnwritable(await get(svc, '/mlds?id=main&layout=l2&other=Lost&priority=5&expires=60'), 'a priority level');
      assertUnwritable(await get(svc, '/mlds?id=main&priority=5&layout='), 'a clear');
      // A faulty command is still a 400: the fault is told first.
      assert.equal((await get(svc, '/mlds?id=main&layout=nope')).status, 400);

      const st = svc.controller().state('main');
      assert.equal(st.layout, 'l1');
      assert.equal(st.areas.get('title')?.text, last, 'the last command answered 200 is on show');
      assert.equal(st.lastCommand?.query.includes('Lost'), false, '/status names the last command stored');
      await nextFrame(svc, 'main', svc.api.frame('main')!.seq);
      const px = await decode((await get(svc, '/screenshot?id=main&format=png')).bytes);
      assert.ok(
        near(px.at(199, 2), [0, 0, 255]),
        `l1's title background still drawn, not l2's black: ${px.at(199, 2)}`,
      );
      const problems = (await get(svc, '/status')).json.problems as Array<{ source: string; message: string }>;
      assert.ok(
        problems.some((p) => p.source === 'state' && /ENOSPC/.test(p.message)),
        JSON.stringify(problems),
      );

      for (const n of [refusedInumber, 'l1', 'l2']) {
        await until(
          () => feedback.got.some((g) => g.url === `/mlds?confirm=0&inumber=${n}`),
          5000,
          `confirm=0 for ${n}`,
        );
      }
      for (const n of [refusedInumber, 'l1', 'l2'])
        assert.equal(
          feedback.got.some((g) => g.url === `/mlds?confirm=1&inumber=${n}`),
          false,
          `${n} never confirmed 1`,
        );

      fs.free();
      // The store tries a new snapshot every 2 s; commands are taken again once one worked.
      await until(
        async () => (await get(svc, '/mlds?id=main&layout=l2&other=Back')).status === 200,
        10_000,
        'a command taken again',
      );
      assert.equal(svc.controller().state('main').areas.get('other')?.text, 'Back');
    } finally {
      await svc.close();
      feedback.close();
      sd.cleanup();
      fs.cleanup();
    }
  },
);

interface Shown {
  layout: string | null;
  areas: Array<{ id: string; value?: string }>;
  layers: Array<{ priority: number; layout: string; expiresAt: string | null }>;
}

/** What /status says the display shows: its layout, each area's value, its levels. */
async function shown(cli: CliChild): Promise<Shown> {
  const st = (await (await fetch(`${cli.url}/status`)).json()) as { displays: Array<Shown & { id: string }> };
  const d = st.displays.find((x) => x.id === 'main')!;
  return {
    layout: d.layout,
    areas: d.areas.map((a) => ({ id: a.id, value: a.value })),
    layers: d.layers.map((l) => ({ priority: l.priority, layout: l.layout, expiresAt: l.expiresAt })),
  };
}

/** Every line of the state folder's snapshot and journals. */
function savedText(dir: string): string {
  return readdirSync(dir)
    .filter((f) => /^state\.(json|journal\.\d+)$/.test(f))
    .map((f) => readFileSync(path.join(dir, f), 'utf8'))
    .join('\n');
}

test(
  'a full state disk, a burst of priority commands on 30 connections, kill -9: what was answered 200 is what the ' +
    'restarted service shows',
  {
    skip: skip ?? underEmulation('two CLI starts take ~10 s each on 2 emulated cores'),
    timeout: 120_000,
  },
  async () => {
    const fs = mountTmpfs('1m');
    const sd = serviceDir(baseConfig());
    const stateDir = sub(fs, 'state');
    let cli = await startCli(sd, ['--state-dir', stateDir]);
    try {
      const res = await fetch(`${cli.url}/mlds?id=main&layout=l1&title=Urgent&priority=8&expires=3600&inumber=p8`);
      assert.equal(res.status, 200, await res.text());
      fs.fill();
      // A connection each, all at once: lines of one turn share a write, and a write that fails takes them all back.
      const answers = await Promise.all(
        Array.from(
          { length: 30 },
          (_, i) =>
            new Promise<{ title: string; status: number }>((resolve) => {
              const title = long(`Burst${i}`);
              http
                .get(
                  `${cli.url}/mlds?id=main&layout=l2&other=${title}&priority=9&expires=3600&inumber=b${i}`,
                  { agent: false },
                  (r) => {
                    r.resume();
                    r.on('end', () => resolve({ title, status: r.statusCode! }));
                  },
                )
                .on('error', () => resolve({ title, status: 0 }));
            }),
        ),
      );
      const ok = answers.filter((a) => a.status === 200).map((a) => a.title);
      const refused = answers.filter((a) => a.status === 503).map((a) => a.title);
      assert.equal(ok.length + refused.length, 30, `only 200 and 503: ${answers.map((a) => a.status)}`);
      const before = await shown(cli);
      assert.ok(before.layers.length >= 1 && before.layers[0].priority >= 8, JSON.stringify(before.layers));
      await cli.kill();

      const saved = savedText(stateDir);
      for (const t of ok)
        assert.ok(saved.includes(`other=${t}&`), `${t.slice(0, 8)} was answered 200, so it is stored`);
      for (const t of refused)
        assert.equal(saved.includes(`other=${t}&`), false, `${t.slice(0, 8)} was answered 503, so it is not stored`);
      assert.ok(saved.includes('title=Urgent&priority=8'), 'the level stored before the disk filled');

      // Restarted on the same full disk: the replay reads what is there.
      cli = await startCli(sd, ['--state-dir', stateDir]);
      assert.deepEqual(await shown(cli), before, 'the restarted service shows what the killed one showed');
      assert.ok(refused.length > 0, 'the full disk refused some');
    } finally {
      await cli.kill();
      sd.cleanup();
      fs.cleanup();
    }
  },
);

/** Until the state folder's problem has gone from /status (the store retries every 2 s). */
async function stateWritten(svc: { url: string }): Promise<void> {
  await until(
    async () =>
      !((await get(svc, '/status')).json.problems as Array<{ source: string }>).some((p) => p.source === 'state'),
    10_000,
    'the state folder written again',
  );
}

test(
  'MQTT and pollers take the same path: a command that cannot be stored is confirmed 0 with ' +
    'MLDS_STATE_UNWRITABLE and tried again when sent again',
  {
    skip:
      skip ??
      (!hasMosquitto() && process.env.CI !== 'true' ? 'mosquitto is not installed (make test-deps)' : undefined),
    timeout: 60_000,
  },
  async () => {
    const fs = mountTmpfs('1m');
    const feedback = await sink();
    const far = await sink();
    let body = 'id=main&layout=l2&other=Polled';
    far.answer = (_r, res) => res.end(body);
    const broker = await new Broker().start();
    const c = baseConfig();
    c.displays.main.confirmIp = '127.0.0.1';
    c.displays.main.confirmPort = String(feedback.port);
    c.mqtt = { url: broker.url, unit: 'u1' };
    c.pollers = [{ url: far.url('/cmd'), interval: '60' }];
    const sd = serviceDir(c);
    const w = await Watcher.open(broker.url, ['mlds/u1/confirm']);
    const clock = new FakeClock(Date.UTC(2026, 10, 21, 12, 0, 0));
    const svc = await start(sd, { stateDir: sub(fs, 'state'), clock, recheckSeconds: 0 });
    const confirms = (n: string) =>
      w
        .on('mlds/u1/confirm')
        .map((m) => JSON.parse(m.payload) as Record<string, unknown>)
        .filter((m) => m.inumber === n);
    const poller = async () =>
      (
        (await get(svc, '/status')).json.components as Record<
          string,
          { pollers: Array<{ lastResult: string; message: string }> }
        >
      ).pollers.pollers[0];
    try {
      await until(async () => (await poller())?.lastResult === 'applied', 5000, 'the first poll');
      await until(
        async () =>
          ((await get(svc, '/status')).json.components as Record<string, { state?: string }>).fleet?.state ===
          'connected',
        10_000,
        'the broker',
      );
      await fillUntilRefused(fs, (i) => get(svc, `/mlds?id=main&layout=l1&title=${long(`Slack${i}`)}`));
      const version = svc.controller().state('main').version;

      await w.publish('mlds/u1/cmd', 'id=main&layout=l2&other=ViaMqtt&inumber=m1');
      await until(() => confirms('m1').length === 1, 5000, 'the confirmation of m1');
      const m1 = confirms('m1')[0];
      assert.equal(m1.confirm, 0);
      assert.equal(m1.code, 'MLDS_STATE_UNWRITABLE');
      assert.match(String(m1.message), /ENOSPC/);
      await until(
        () => feedback.got.some((g) => g.url === '/mlds?confirm=0&inumber=m1'),
        5000,
        'HTTP feedback confirm=0',
      );

      body = 'id=main&layout=l2&other=Polled+again';
      clock.advance(60_000);
      await until(async () => (await poller()).lastResult === 'fault', 5000, 'the poll refused');
      assert.match((await poller()).message, /state folder .* cannot be written/);
      assert.equal(svc.controller().state('main').version, version, 'nothing changed');

      fs.free();
      await stateWritten(svc);
      // Sent again with the same inumber: acted on now, not answered as a redelivery of the refusal.
      await w.publish('mlds/u1/cmd', 'id=main&layout=l2&other=ViaMqtt&inumber=m1');
      await until(() => confirms('m1').length === 2, 5000, 'the second confirmation of m1');
      assert.equal(confirms('m1')[1].confirm, 1);
      // The same body at the next poll: applied now, not skipped as unchanged.
      clock.advance(60_000);
      await until(async () => (await poller()).lastResult === 'applied', 5000, 'the same body applied');
      assert.equal(svc.controller().state('main').areas.get('other')?.text, 'Polled again');
    } finally {
      await svc.close();
      await w.close();
      await broker.cleanup();
      feedback.close();
      far.close();
      sd.cleanup();
      fs.cleanup();
    }
  },
);

test(
  "state and logs on one small disk: a /mlds flood fills the logs up to the state's 1 MB reserve and no further, " +
    'every command is answered 200; a priority command then, kill -9: the restart shows it',
  {
    skip: skip ?? underEmulation('two CLI starts take ~10 s each and the flood ~20,000 commands on 2 emulated cores'),
    timeout: 180_000,
  },
  async () => {
    const fs = mountTmpfs('3m');
    const sd = serviceDir(baseConfig());
    const args = ['--state-dir', sub(fs, 'state'), '--log-dir', sub(fs, 'logs')];
    let cli = await startCli(sd, args);
    try {
      // About 570 bytes of log a command (its request line in mlds.log, two areas in shown.log): 2 MB take some 3,700.
      const statuses = new Map<number, number>();
      let sent = 0;
      let stopped = false;
      const problems = async () =>
        ((await (await fetch(`${cli.url}/status`)).json()) as { problems: Array<{ source: string; message: string }> })
          .problems;
      const deadline = Date.now() + 120_000;
      await Promise.all([
        ...Array.from({ length: 8 }, async () => {
          while (!stopped && sent < 40_000 && Date.now() < deadline) {
            const i = sent++;
            const res = await fetch(
              `${cli.url}/mlds?id=main&layout=l1&title=Flood${i}&sign=${i % 2 ? 'a' : 'b'}&inumber=${i}`,
            );
            await res.arrayBuffer();
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          }
        }),
        (async () => {
          // Until both logs have stopped (or anything else went wrong), then a few hundred more;
          // at the deadline the assertions below say what did not happen.
          const full = async () => {
            const p = await problems();
            return (
              p.filter((x) => /left to the state/.test(x.message)).length === 2 ||
              p.some((x) => x.source === 'state') ||
              statfsSync(fs.dir).bavail === 0
            );
          };
          try {
            await until(full, deadline - Date.now(), 'the logs to stop', 200);
            const more = sent + 500;
            await until(() => sent >= more, deadline - Date.now(), '500 commands more', 50);
          } catch {
            /* the deadline */
          }
          stopped = true;
        })(),
      ]);
      assert.deepEqual([...statuses.keys()], [200], `every command answered 200: ${JSON.stringify([...statuses])}`);
      // The logs took the disk less its last MB; the state journal grew into that MB meanwhile, as it may.
      const logs = path.join(fs.dir, 'logs');
      const logBytes = readdirSync(logs).reduce((sum, f) => sum + statSync(path.join(logs, f)).blocks * 512, 0);
      const disk = statfsSync(fs.dir);
      assert.ok(
        logBytes <= disk.blocks * disk.bsize - (1 << 20),
        `the logs left the state its reserve: ${logBytes} bytes of logs on a ${disk.blocks * disk.bsize} byte ` +
          `disk after ${sent} commands`,
      );
      const p = await problems();
      assert.deepEqual(p.map((x) => x.source).sort(), ['history', 'log'], JSON.stringify(p));

      const res = await fetch(`${cli.url}/mlds?id=main&layout=l2&other=Urgent&priority=8&expires=3600&inumber=p8`);
      assert.equal(res.status, 200, await res.text());
      const before = await shown(cli);
      assert.equal(before.layers[0].priority, 8);
      await cli.kill();
      cli = await startCli(sd, args);
      assert.deepEqual(await shown(cli), before, 'the priority level answered 200 is what the restarted service shows');
    } finally {
      await cli.kill();
      sd.cleanup();
      fs.cleanup();
    }
  },
);
