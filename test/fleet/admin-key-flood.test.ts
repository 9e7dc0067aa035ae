// A flood of admin commands with a wrong key, through a real Mosquitto, on a unit whose logs may
// take 4 MB (logMaxMB) and whose history holds 3,000 changes. Each refusal was one log line
// (40,000 lines, 5 MB), and the log cap then dropped the rotated shown.log: most of /history
// gone. Now the refusals are counted on /status and /metrics and logged as one line per topic
// per second, and the history is all there.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { Broker, hasMosquitto, Watcher } from '../helpers/broker.js';
import { baseConfig, get, serviceDir, start, until } from '../helpers/service.js';

const skip = !hasMosquitto() && process.env.CI !== 'true' ? 'mosquitto is not installed (make test-deps)' : false;
type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ADMIN_KEY = 'right-admin-key-77';
const HISTORY = 3000;
const FLOOD = 40_000;

test(
  `${FLOOD} admin commands with a wrong key, logMaxMB 4: all ${HISTORY} history entries kept, the refusals ` +
    `counted on /status and /metrics, a few log lines`,
  { skip, timeout: 400_000 },
  async () => {
    const broker = await new Broker({ settings: ['max_queued_messages 0'] }).start();
    const cfg = baseConfig();
    cfg.logMaxMB = 4;
    cfg.security = { adminKey: ADMIN_KEY };
    cfg.mqtt = { url: broker.url, unit: 'f1', keepalive: 30 };
    const sd = serviceDir(cfg);
    const logDir = path.join(sd.dir, 'logs');
    const w = await Watcher.open(broker.url, ['mlds/f1/admin/result']);
    const svc = await start(sd, { logDir });
    const shownTitles = async () => {
      const { entries } = await svc.api.history!('main', undefined, 100_000);
      return new Set(entries.filter((e) => e.area === 'title').map((e) => e.value));
    };
    try {
      await until(() => (svc.api.status().components.fleet as Obj).state === 'connected', 10_000, 'connected');
      for (let i = 0; i < HISTORY; i += 20) {
        const batch = Array.from({ length: 20 }, (_, j) => get(svc, `/mlds?id=main&layout=l1&title=${title(i + j)}`));
        for (const r of await Promise.all(batch)) assert.equal(r.status, 200, r.text);
      }
      assert.equal((await shownTitles()).size, HISTORY, 'the history holds every change');

      const flood = path.join(sd.dir, 'flood.txt');
      const wrong = (i: number) => JSON.stringify({ cmd: 'blank', req: `w${i}`, adminKey: `wrong-key-${i % 100}` });
      writeFileSync(flood, Array.from({ length: FLOOD }, (_, i) => wrong(i)).join('\n') + '\n');
      const floodStart = Date.now();
      const input = openSync(flood, 'r');
      const args = ['-h', '127.0.0.1', '-p', String(broker.port), '-t', 'mlds/f1/admin', '-q', '1', '-l'];
      const pub = spawn('mosquitto_pub', args, { stdio: [input, 'ignore', 'pipe'] });
      closeSync(input);
      let pubErr = '';
      pub.stderr!.on('data', (d: Buffer) => {
        pubErr += d.toString();
      });
      const code = await new Promise((resolve) => pub.once('exit', resolve));
      assert.equal(code, 0, `mosquitto_pub: ${pubErr}`);
      // The broker took every one before this; the unit reads them in order, so this one's result comes last.
      await w.publish('mlds/f1/admin', JSON.stringify({ cmd: 'status', req: 'end', adminKey: ADMIN_KEY }));
      await until(
        () => w.on('mlds/f1/admin/result').some((s) => JSON.parse(s.payload).req === 'end'),
        200_000,
        'the flood worked through',
      );

      const titles = await shownTitles();
      const lost = Array.from({ length: HISTORY }, (_, i) => title(i)).filter((t) => !titles.has(t));
      assert.deepEqual(lost.length, 0, `history entries lost: ${lost.length} of ${HISTORY}`);

      const refused = () => ((svc.api.status().components.fleet as Obj).admin as Obj).refused as number;
      assert.ok(refused() > 0, 'refusals counted on /status');
      // One summary line per second: their counts add up to /status's once the last second is told.
      const lines = () =>
        logFiles(logDir)
          .flatMap((f) => readFileSync(f, 'utf8').split('\n'))
          .filter((l) => l.includes('adminKey missing or wrong'));
      const logged = () => lines().reduce((sum, l) => sum + (JSON.parse(l) as { refused: number }).refused, 0);
      await until(() => logged() === refused(), 5000, 'the last summary line');
      const seconds = Math.ceil((Date.now() - floodStart) / 1000);
      assert.ok(lines().length <= seconds + 1, `${lines().length} log lines for ${refused()} refusals in ${seconds} s`);
      assert.match(
        lines()[0],
        /"topic":"mlds\/f1\/admin".*"example":"cmd blank, req w\d+"/,
        'a line names the topic and one refused command',
      );
      const metrics = (await get(svc, '/metrics')).text;
      assert.match(metrics, new RegExp(`^mlds_broker_admin_refused_total\\{[^}]*\\} ${refused()}$`, 'm'));
      const bytes = logFiles(logDir).reduce((sum, f) => sum + statSync(f).size, 0);
      assert.ok(bytes <= 4 << 20, `the logs take ${bytes} bytes`);
    } finally {
      await svc.close();
      await w.close();
      await broker.cleanup();
      sd.cleanup();
    }
  },
);

/** A change of the title: long enough that 3,000 of them outgrow shown.log's first segment (512 KB at logMaxMB 4). */
function title(i: number): string {
  return `History-entry-${i}-of-the-departure-board-title`;
}

function logFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => /^(mlds|shown)(-[\d.-]+)?\.log$/.test(f))
    .map((f) => path.join(dir, f));
}
