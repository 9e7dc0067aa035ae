import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { emulated } from '../helpers/emulation.js';

const REPO = path.resolve(import.meta.dirname, '../..');

/** Runs `body` in a child with the service logger on stdout; returns the lines it wrote. */
function linesOf(body: string): Array<{ msg: string; n: number; time: string; level: number }> {
  const script = `import { createLogger } from ${JSON.stringify(path.join(REPO, 'src/log/logger.ts'))};\nconst { log, close } = createLogger({ retentionDays: 1, stdout: true });\n${body}`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO, encoding: 'utf8', timeout: emulated ? 120_000 : 30_000 });
  assert.equal(r.status, 0, r.error ? `${r.error.message} (a hang or a slow start)` : r.stderr);
  return r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

test('stdout lines gathered for one write all come out, in order, at exit and after close', () => {
  // More than one gathering (16 K characters), written; then a rest still waiting when the process
  // exits. (A write still in flight at exit can land after the rest: it is not waited for.)
  const atExit = linesOf(`for (let n = 0; n < 500; n++) log.info({ n }, 'line');\nawait new Promise((r) => setTimeout(r, 500));\nfor (let n = 500; n < 505; n++) log.info({ n }, 'line');\nprocess.exit(0);`);
  assert.deepEqual(atExit.map((l) => l.n), [...Array(505).keys()]);
  assert.ok(atExit.every((l) => l.msg === 'line' && l.level === 30 && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(l.time)));
  const closed = linesOf(`for (let n = 0; n < 3; n++) log.info({ n }, 'line');\nawait close();\nconsole.log(JSON.stringify({ msg: 'after close', n: 3, time: '', level: 0 }));`);
  assert.deepEqual(closed.map((l) => l.n), [0, 1, 2, 3], 'close() writes the gathered lines before it resolves');
});
