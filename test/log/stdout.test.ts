import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { test } from 'node:test';
import { emulated } from '../helpers/emulation.js';
import { within } from '../helpers/wait.js';

const REPO = path.resolve(import.meta.dirname, '../..');

/** Runs `body` in a child with the service logger on stdout; returns the lines it wrote. */
function linesOf(body: string): Array<{ msg: string; n: number; time: string; level: number }> {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script(body)], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: TIMEOUT_MS,
  });
  assert.equal(r.status, 0, r.error ? `${r.error.message} (a hang or a slow start)` : r.stderr);
  return parse(r.stdout);
}

const TIMEOUT_MS = emulated ? 120_000 : 30_000;
const script = (body: string) =>
  `import { createLogger } from ${JSON.stringify(path.join(REPO, 'src/log/logger.ts'))};\nconst { log, close } = ` +
  `createLogger({ retentionDays: 1, stdout: true });\nconst cue = () => new Promise((r) => ` +
  `process.stdin.once('data', r));\n${body}`;
const parse = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { msg: string; n: number; time: string; level: number });

/** As linesOf, with `await cue()` in `body` going on once `lines` lines have come out of the child. */
async function linesOfCued(
  body: string,
  lines: number,
): Promise<Array<{ msg: string; n: number; time: string; level: number }>> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script(body)], {
    cwd: REPO,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '',
    err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    const before = out.split('\n').length - 1;
    out += d;
    if (before < lines && out.split('\n').length - 1 >= lines) child.stdin.end('go\n');
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    err += d;
  });
  try {
    const [code] = await within(once(child, 'close'), TIMEOUT_MS, 'the child to exit (a hang or a slow start)');
    assert.equal(code, 0, err);
  } finally {
    child.kill();
  }
  return parse(out);
}

test('stdout lines gathered for one write all come out, in order, at exit and after close', async () => {
  // More than one gathering (16 K characters), written (they came out); then a rest still
  // waiting when the process exits. (A write still in flight at exit can land after the rest:
  // it is not waited for.)
  const atExit = await linesOfCued(
    `for (let n = 0; n < 500; n++) log.info({ n }, 'line');\nawait cue();\nfor (let n = 500; n < 505; n++) ` +
      `log.info({ n }, 'line');\nprocess.exit(0);`,
    500,
  );
  assert.deepEqual(
    atExit.map((l) => l.n),
    [...Array(505).keys()],
  );
  assert.ok(
    atExit.every((l) => l.msg === 'line' && l.level === 30 && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(l.time)),
  );
  const closed = linesOf(
    `for (let n = 0; n < 3; n++) log.info({ n }, 'line');\nawait close();\nconsole.log(JSON.stringify({ msg: ` +
      `'after close', n: 3, time: '', level: 0 }));`,
  );
  assert.deepEqual(
    closed.map((l) => l.n),
    [0, 1, 2, 3],
    'close() writes the gathered lines before it resolves',
  );
});
