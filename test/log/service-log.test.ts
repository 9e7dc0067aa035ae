import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { cliStart, REPO, baseConfig, get, serviceDir, start, until, type Reply, logText } from '../helpers/service.js';
import { mountTmpfs, sub, tmpfsUnavailable } from '../helpers/tmpfs.js';
import { emulated } from '../helpers/emulation.js';

type Problem = { source: string; message: string; since: string };
const problems = (r: Reply) => (r.json.problems as Problem[]).filter((p) => p.source === 'log');

test(
  'a log disk that fills up: the display keeps answering, /status shows the problem, the file resumes when space ' +
    'returns',
  { skip: tmpfsUnavailable() },
  async () => {
    const fs = mountTmpfs('1m');
    const sd = serviceDir(baseConfig());
    try {
      const logDir = sub(fs, 'logs');
      const svc = await start(sd, { logDir });
      try {
        assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=Before')).status, 200);
        await until(() => logText(logDir).includes('title=Before'), 3000, 'the first line');
        fs.fill();
        // Before the fix the process died after about 13 of these (an unhandled ENOSPC 'error').
        for (let i = 0; i < 60; i++)
          assert.equal((await get(svc, `/mlds?id=main&layout=l1&title=Full${i}`)).status, 200);
        let st = await get(svc, '/status');
        await until(
          async () => problems((st = await get(svc, '/status'))).length === 1,
          3000,
          'the log problem on /status',
        );
        assert.match(problems(st)[0].message, /ENOSPC.*line\(s\) dropped, \d+ waiting/);
        assert.equal(svc.controller().state('main').areas.get('title')!.text, 'Full59', 'commands still applied');

        fs.free();
        assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=AfterSpace')).status, 200);
        await until(() => logText(logDir).includes('title=AfterSpace'), 8000, 'new lines in the file');
        await until(async () => problems(await get(svc, '/status')).length === 0, 3000, 'the problem to clear');
        const log = logText(logDir);
        assert.match(log, /"msg":"the log file is written again"/);
      } finally {
        await svc.close();
      }
    } finally {
      sd.cleanup();
      fs.cleanup();
    }
  },
);

test(
  'starting on a full log disk, or on a read-only log folder, starts and says so on /status',
  { skip: tmpfsUnavailable() },
  async () => {
    for (const how of ['full', 'read-only'] as const) {
      const fs = mountTmpfs('1m');
      const sd = serviceDir(baseConfig());
      try {
        const logDir = sub(fs, 'logs');
        writeFileSync(path.join(logDir, 'mlds.log'), '');
        if (how === 'full') fs.fill();
        else fs.readOnly(true);
        const svc = await start(sd, { logDir });
        try {
          assert.equal((await get(svc, '/mlds?id=main&layout=l1&title=Shown')).status, 200, how);
          await until(async () => problems(await get(svc, '/status')).length === 1, 3000, `the ${how} problem`);
          const [p] = problems(await get(svc, '/status'));
          assert.match(p.message, how === 'full' ? /ENOSPC/ : /EROFS/);
          assert.equal(svc.controller().state('main').areas.get('title')!.text, 'Shown');
        } finally {
          await svc.close();
        }
      } finally {
        sd.cleanup();
        fs.cleanup();
      }
    }
  },
);

test('mlds start: a log folder that cannot be created exits 78 with one line, no stack', () => {
  const sd = serviceDir(baseConfig());
  try {
    const notADir = path.join(sd.dir, 'file');
    writeFileSync(notADir, '');
    const r = spawnSync(
      process.execPath,
      cliStart(sd, '--state-dir', sd.stateDir, '--log-dir', path.join(notADir, 'logs')),
      { encoding: 'utf8', timeout: emulated ? 120_000 : 30_000, cwd: REPO },
    );
    assert.equal(r.status, 78, r.stderr);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /^mlds: the log folder .*file\/logs cannot be created \(ENOTDIR/);
    assert.equal(existsSync(sd.stateDir), false, 'stopped before anything else');
  } finally {
    sd.cleanup();
  }
});
