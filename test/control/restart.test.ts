import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import {
  baseConfig,
  decode,
  get,
  near,
  nextFrame,
  serviceDir,
  start,
  until,
  type ServiceDir,
} from '../helpers/service.js';
import { startCli } from '../helpers/cli-child.js';
import { underEmulation } from '../helpers/emulation.js';
import { mountTmpfs, sub, tmpfsUnavailable } from '../helpers/tmpfs.js';

test('the last request per display survives a restart and is replayed at boot', async () => {
  const c = baseConfig();
  c.displays.main.layout.l1.title.backgroundColor = '0 128 0';
  c.displays.quiet = { ...c.displays.main, displayPort: '9002', startScreen: { loadLastRequest: 'false' } };
  const sd = serviceDir(c);
  try {
    let svc = await start(sd);
    assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=Persisted&sign=a&inumber=77')).status, 200);
    assert.equal((await get(svc, '/mlds?id=quiet&layout=l2&other=Hidden')).status, 200);
    await svc.close();

    const saved = JSON.parse(readFileSync(`${sd.stateDir}/state.json`, 'utf8'));
    assert.match(saved.lastRequest.main.query, /title=Persisted/);
    assert.deepEqual(
      readdirSync(sd.stateDir).filter((f) => f.endsWith('.tmp')),
      [],
      'no temporary files left behind',
    );

    svc = await start(sd);
    try {
      const st = svc.controller().state('main');
      assert.equal(st.layout, 'l1');
      assert.equal(st.areas.get('title')!.text, 'Persisted');
      assert.equal(st.lastCommand!.source, 'replay');
      assert.equal(svc.controller().state('quiet').layout, undefined, 'loadLastRequest false: stays black');
      // The replayed content is the unit's first picture: nothing is painted before it.
      await until(() => svc.api.frame('main')!.seq > 0);
      await nextFrame(svc, 'main', 0);
      const px = await decode((await get(svc, '/screenshot?id=main&format=png')).bytes);
      assert.ok(near(px.at(199, 2), [0, 128, 0]), `replayed layout drawn: ${px.at(199, 2)}`);
    } finally {
      await svc.close();
    }
  } finally {
    sd.cleanup();
  }
});

test('a saved request that no longer fits the configuration leaves the display black', async () => {
  const c = baseConfig();
  const sd = serviceDir(c);
  try {
    let svc = await start(sd);
    await get(svc, '/mlds?id=main&layout=l2&other=Gone');
    await svc.close();
    delete c.displays.main.layout.l2;
    writeFileSync(sd.configFile, JSON.stringify(c));
    svc = await start(sd);
    try {
      assert.equal(svc.controller().state('main').layout, undefined);
    } finally {
      await svc.close();
    }
  } finally {
    sd.cleanup();
  }
});

test(
  'a bad state file never stops the service: it is set ' + 'aside, the service starts empty, /status says so',
  async () => {
    for (const [what, content] of [
      ['garbage', '{"lastRequest":{"main":'],
      ['wrong types', '{"lastRequest":"x","lastFeedback":5}'],
    ]) {
      const sd = serviceDir(baseConfig());
      try {
        mkdirSync(sd.stateDir);
        writeFileSync(`${sd.stateDir}/state.json`, content);
        const svc = await start(sd);
        try {
          // Before the fix: garbage was a SyntaxError at start, wrong types a 500 for every command.
          assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=Fine')).status, 200, what);
          const problems = (await get(svc, '/status')).json.problems as Array<{ source: string; message: string }>;
          assert.equal(problems.length, 1, what);
          assert.equal(problems[0].source, 'state');
          assert.match(
            problems[0].message,
            /state\.json (is not valid JSON|has 2 entries of the wrong form).*kept as state\.json\.bad-/,
            what,
          );
          assert.ok(
            readdirSync(sd.stateDir).some((f) => f.startsWith('state.json.bad-')),
            'kept for inspection',
          );
        } finally {
          await svc.close();
        }
      } finally {
        sd.cleanup();
      }
    }
  },
);

test(
  'a read-only state folder is shown on /status; commands are refused with 503 (a restart would not show them)',
  { skip: tmpfsUnavailable() },
  async () => {
    const fs = mountTmpfs('1m');
    const sd = serviceDir(baseConfig());
    try {
      const stateDir = sub(fs, 'state');
      fs.readOnly(true);
      const svc = await start(sd, { stateDir });
      try {
        const r = await get(svc, '/mlds?id=main&layout=l1&title=Unsaved');
        assert.equal(r.status, 503);
        assert.equal(r.json.code, 'MLDS_STATE_UNWRITABLE');
        assert.equal(svc.controller().state('main').layout, undefined, 'nothing shown');
        const problems = (await get(svc, '/status')).json.problems as Array<{ source: string; message: string }>;
        assert.deepEqual(
          problems.map((p) => p.source),
          ['state'],
        );
        assert.match(problems[0].message, /EROFS.*commands are refused/);
      } finally {
        await svc.close();
      }
    } finally {
      sd.cleanup();
      fs.cleanup();
    }
  },
);

/** The real CLI in a child process; resolves with its port once it listens (after the boot replay). */
/**
 * Runs of: start, check the replay of the previous run's last acknowledged command, send
 * three commands, kill -9 `run % 10` ms after the last 200 (before the fix the reply came up
 * to 200 ms before the write).
 */
async function killRuns(sd: ServiceDir, runs: number, firstDelay: number): Promise<void> {
  let svc = await startCli(sd);
  try {
    let acked: string | undefined;
    for (let run = 0; run <= runs; run++) {
      const url = `http://127.0.0.1:${svc.port}`;
      if (acked !== undefined) {
        const main = (
          (await (await fetch(`${url}/status`)).json()) as {
            displays: Array<{
              id: string;
              lastCommand: { query: string; source: string } | null;
              areas: Array<{ id: string; text?: string }>;
            }>;
          }
        ).displays.find((d) => d.id === 'main')!;
        assert.equal(main.lastCommand?.query, acked, `run ${run}: the last acknowledged command is replayed`);
        assert.equal(main.lastCommand?.source, 'replay');
        assert.equal(main.areas.find((a) => a.id === 'title')?.text, `Run${run - 1}c2`, `run ${run}: on screen`);
      }
      if (run === runs) break;
      for (let c = 0; c < 3; c++) {
        const query = `id=main&layout=l1&title=Run${run}c${c}&sign=${c % 2 ? 'a' : 'b'}`;
        const res = await fetch(`${url}/mlds?${query}`);
        await res.arrayBuffer();
        assert.equal(res.status, 200);
        acked = query;
      }
      const delay = (firstDelay + run) % 10;
      if (delay === 0) svc.child.kill('SIGKILL');
      else setTimeout(() => svc.child.kill('SIGKILL'), delay);
      await svc.exited;
      svc = await startCli(sd);
    }
  } finally {
    svc.child.kill('SIGKILL');
    await svc.exited;
  }
}

test(
  'kill -9 right after a 200: the acknowledged command is what the restarted service shows (20 kills, 0-9 ms)',
  {
    timeout: 120_000,
    skip: underEmulation(
      '22 starts of the CLI in child processes, two at a time, take ~10 s each on 2 emulated cores: more than ' +
        'the 120 s bound',
    ),
  },
  async () => {
    // Two services side by side, each with its own state folder: half the wall time.
    const dirs = [serviceDir(baseConfig()), serviceDir(baseConfig())];
    try {
      await Promise.all([killRuns(dirs[0], 10, 0), killRuns(dirs[1], 10, 5)]);
    } finally {
      for (const d of dirs) d.cleanup();
    }
  },
);

test(
  'kill -9 amid 40 connections: every command acknowledged before the kill is in the state folder',
  {
    timeout: 60_000,
    skip: underEmulation('a CLI start takes ~10 s on 2 emulated cores'),
  },
  async () => {
    // Commands that arrive in one turn of the event loop share one journal write (src/control/turn-batch.ts);
    // their 200s must still wait for it.
    const sd = serviceDir(baseConfig());
    const svc = await startCli(sd);
    try {
      const acked: string[] = [];
      let killed = false;
      await Promise.all(
        Array.from(
          { length: 40 },
          (_, i) =>
            new Promise<void>((resolve) => {
              // A connection each (no agent), all sent at once.
              http
                .get(`http://127.0.0.1:${svc.port}/mlds?id=main&layout=l1&title=Burst${i}`, { agent: false }, (res) => {
                  res.resume();
                  if (res.statusCode === 200 && !killed) {
                    acked.push(`Burst${i}`);
                    if (acked.length === 20) {
                      killed = true;
                      svc.child.kill('SIGKILL');
                    }
                  }
                  resolve();
                })
                .on('error', () => resolve());
            }),
        ),
      );
      await svc.exited;
      assert.equal(acked.length, 20);
      const saved = readdirSync(sd.stateDir)
        .filter((f) => /^state\.(json|journal\.\d+)$/.test(f))
        .map((f) => readFileSync(path.join(sd.stateDir, f), 'utf8'))
        .join('\n');
      for (const title of acked)
        assert.ok(saved.includes(`title=${title}"`), `${title} was acknowledged, so it is stored`);
    } finally {
      svc.child.kill('SIGKILL');
      sd.cleanup();
    }
  },
);
