// A FIFO where the service reads its state or appends its log must not hang the start
// (reading state.json used to wait for a writer and opening
// mlds.log for appending blocked the whole process, so the port never opened). The service
// runs as a child process so a hang fails this test instead of blocking it.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { cliStart, REPO, baseConfig, get, serviceDir, until, logText } from '../helpers/service.js';
import { LISTEN_MS } from '../helpers/emulation.js';

test('mkfifo state.json and mlds.log: the service starts, answers, and says it moved both aside', async () => {
  const sd = serviceDir(baseConfig());
  const logDir = path.join(sd.dir, 'logs');
  mkdirSync(sd.stateDir);
  mkdirSync(logDir);
  for (const f of [path.join(sd.stateDir, 'state.json'), path.join(logDir, 'mlds.log')]) {
    assert.equal(spawnSync('mkfifo', [f]).status, 0, `mkfifo ${f}`);
  }
  const child = spawn(process.execPath, cliStart(sd, '--state-dir', sd.stateDir, '--log-dir', logDir), {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    let err = '';
    let out = '';
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    await until(() => /listening on port \d+/.test(err), LISTEN_MS, 'the service to listen');
    const svc = { url: `http://127.0.0.1:${/listening on port (\d+)/.exec(err)![1]}` };
    await until(async () => (await get(svc, '/status')).status === 200, 10_000, 'the service to be ready');
    assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=Shown')).status, 200);

    // Both FIFOs were moved aside (not read, not written) and regular files took their place.
    const asideState = readdirSync(sd.stateDir).filter((f) => f.startsWith('state.json.bad-'));
    const asideLog = readdirSync(logDir).filter((f) => f.startsWith('mlds.log.bad-'));
    assert.equal(asideState.length, 1, readdirSync(sd.stateDir).join(' '));
    assert.equal(asideLog.length, 1, readdirSync(logDir).join(' '));
    assert.ok(statSync(path.join(sd.stateDir, asideState[0])).isFIFO());
    assert.ok(statSync(path.join(logDir, asideLog[0])).isFIFO());
    assert.ok(statSync(path.join(sd.stateDir, 'state.json')).isFile());
    await until(() => logText(logDir).includes('title=Shown'), 5000, 'the request in the new log file');

    // It says what it did: on /status and in the log.
    const problems = (await get(svc, '/status')).json.problems as Array<{ source: string; message: string }>;
    const state = problems.find((p) => p.source === 'state');
    const log = problems.find((p) => p.source === 'log');
    assert.match(
      state?.message ?? '',
      /state\.json cannot be read \(ENOTREG: not a regular file but a named pipe \(FIFO\)\); it was kept as state\.json\.bad-.*; the service started without it/,
    );
    assert.match(
      log?.message ?? '',
      /mlds\.log was a named pipe \(FIFO\), not a regular file; it was moved to .*mlds\.log\.bad-.* and a new file started/,
    );
    const logged = logText(logDir) + out;
    assert.match(logged, /"msg":"[^"]*mlds\.log was a named pipe \(FIFO\)/);
    assert.match(logged, /"msg":"[^"]*state\.json cannot be read/);
  } finally {
    child.kill('SIGKILL');
    sd.cleanup();
  }
});

test('mkfifo shown.log: /history answers, the FIFO is moved aside and /status says so', async () => {
  const sd = serviceDir(baseConfig());
  const logDir = path.join(sd.dir, 'logs');
  mkdirSync(logDir);
  assert.equal(spawnSync('mkfifo', [path.join(logDir, 'shown.log')]).status, 0);
  const child = spawn(process.execPath, cliStart(sd, '--state-dir', sd.stateDir, '--log-dir', logDir), {
    cwd: REPO,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  try {
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    await until(() => /listening on port \d+/.test(err), LISTEN_MS, 'the service to listen');
    const svc = { url: `http://127.0.0.1:${/listening on port (\d+)/.exec(err)![1]}` };
    await until(async () => (await get(svc, '/status')).status === 200, 10_000, 'the service to be ready');
    // Before the fix /history opened the FIFO and waited for a writer: no answer.
    const history = async () => get(svc, '/history?id=main', { signal: AbortSignal.timeout(5000) });
    assert.deepEqual((await history()).json.entries, [], 'nothing shown yet');
    assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=Kept')).status, 200);
    await until(
      async () =>
        ((await history()).json.entries as Array<{ area: string; value: string | null }>).some(
          (e) => e.area === 'title' && e.value === 'Kept',
        ),
      5000,
      'the command in /history',
    );

    const aside = readdirSync(logDir).filter((f) => f.startsWith('shown.log.bad-'));
    assert.equal(aside.length, 1, readdirSync(logDir).join(' '));
    assert.ok(statSync(path.join(logDir, aside[0])).isFIFO());
    assert.ok(statSync(path.join(logDir, 'shown.log')).isFile());
    const problems = (await get(svc, '/status')).json.problems as Array<{ source: string; message: string }>;
    assert.match(
      problems.find((p) => p.source === 'history')?.message ?? '',
      /shown\.log was a named pipe \(FIFO\), not a regular file; it was moved to .*shown\.log\.bad-.* and a new file started/,
      JSON.stringify(problems),
    );
    assert.match(logText(logDir), /"msg":"[^"]*shown\.log was a named pipe \(FIFO\)/);
  } finally {
    child.kill('SIGKILL');
    sd.cleanup();
  }
});
