// Content hashes kept in the unit's cache folder (src/util/file-hash.ts): a start takes the hash
// an earlier start made while the file is the same file, unchanged, without reading it again;
// a file written since, even with the same bytes, is hashed again. Each start is a process of
// its own, as the service's are.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { REPO } from '../helpers/service.js';

const SCRIPT = `
import { fileHash, keepFileHashes } from './src/util/file-hash.ts';
const files = JSON.parse(process.argv.at(-1));
console.log(JSON.stringify(files.map((f) => fileHash(f))));
keepFileHashes();
`;

const dir = mkdtempSync(path.join(tmpdir(), 'mlds-file-hash-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const cache = path.join(dir, 'cache');
const kept = path.join(cache, 'file-hashes.json');
const video = path.join(dir, 'clip.mp4'),
  logo = path.join(dir, 'logo.png');
const bytes = randomBytes(1 << 20);
writeFileSync(video, bytes);
writeFileSync(logo, 'a logo');
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('base64');

function start(env: Record<string, string> = { CACHE_DIRECTORY: cache }): string[] {
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', SCRIPT, JSON.stringify([video, logo])],
    {
      cwd: REPO,
      encoding: 'utf8',
      env: { ...process.env, ...env },
    },
  );
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!);
}

test(
  'a start takes the hashes an earlier one kept while each file is ' + 'unchanged, and hashes a file written since',
  () => {
    assert.deepEqual(start(), [sha(bytes), sha('a logo')]);
    const saved = JSON.parse(readFileSync(kept, 'utf8')) as Record<string, { key: string; hash: string }>;
    assert.deepEqual(Object.keys(saved).sort(), [video, logo].sort());

    // What the next start answers for the video is what was kept, not a new reading of it.
    saved[video].hash = 'as kept';
    writeFileSync(kept, JSON.stringify(saved));
    assert.deepEqual(start(), ['as kept', sha('a logo')]);

    // The same bytes written again: another file as far as anyone can tell without reading it.
    writeFileSync(video, bytes);
    assert.deepEqual(start(), [sha(bytes), sha('a logo')]);
    assert.equal((JSON.parse(readFileSync(kept, 'utf8')) as Record<string, { hash: string }>)[video].hash, sha(bytes));
  },
);

test('without a cache folder nothing is kept; a damaged file of hashes is hashed past', () => {
  const other = path.join(dir, 'other-cache');
  assert.deepEqual(start({ CACHE_DIRECTORY: '' }), [sha(bytes), sha('a logo')]);
  writeFileSync(kept, '{"not json');
  assert.deepEqual(start(), [sha(bytes), sha('a logo')]);
  assert.deepEqual(start({ CACHE_DIRECTORY: other }), [sha(bytes), sha('a logo')]);
  assert.ok(readFileSync(path.join(other, 'file-hashes.json'), 'utf8').includes(sha(bytes)));
});
