// releaseMemory() drops the clean pages of node's and the libraries' code and read-only data
// (native/src/loaded-objects.cc): they leave the process, what the dynamic linker wrote stays,
// and the process runs on, reading back from the page cache the code it uses next.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { NATIVE_PATH, nativeHelperProblem } from '../../src/native/helper.js';
import { underEmulation } from '../helpers/emulation.js';
import { skipReason } from '../helpers/skip.js';

const skip = skipReason(nativeHelperProblem()) ?? underEmulation('qemu-user passes the host\'s /proc/self/smaps through under its own maps, so the helper drops nothing there');

interface Seen { exeClean: number; relro: Record<string, number>; }
interface Out { before: Seen; after: Seen; dropped: number; gunzipped: string; number: string; digest: string }

test('releaseMemory() drops node\'s clean code pages, keeps the pages the dynamic linker relocated, and the process runs on', { skip }, () => {
  const out = JSON.parse(execFileSync(process.execPath, ['-e', `
    const fs = require('node:fs');
    const n = require(${JSON.stringify(NATIVE_PATH)});
    const exe = fs.realpathSync(process.execPath);
    // Resident kB of the executable's clean read-only mappings, and the anonymous kB of every
    // read-only private mapping that has some (the relocated, then protected, RELRO pages).
    function seen() {
      const out = { exeClean: 0, relro: {} };
      let head;
      for (const line of fs.readFileSync('/proc/self/smaps', 'utf8').split('\\n')) {
        const m = /^([0-9a-f]+)-[0-9a-f]+ (\\S+) \\S+ \\S+ \\S+\\s*(.*)$/.exec(line);
        if (m) { head = { start: m[1], perms: m[2], path: m[3] }; continue; }
        const r = /^Rss:\\s+(\\d+) kB/.exec(line);
        if (r) head.rss = +r[1];
        const a = /^Anonymous:\\s+(\\d+) kB/.exec(line);
        if (!a || !head.path.startsWith('/') || head.perms[1] === 'w') continue;
        if (+a[1] > 0) out.relro[head.start + ' ' + head.path] = +a[1];
        else if (head.path === exe) out.exeClean += head.rss;
      }
      return out;
    }
    const before = seen();
    const dropped = n.releaseMemory();
    const after = seen();
    const zlib = require('node:zlib'), crypto = require('node:crypto');
    const gunzipped = zlib.gunzipSync(zlib.gzipSync(Buffer.from('x'.repeat(1000) + 'end'))).toString().slice(-6);
    const number = new Intl.NumberFormat('de-DE').format(1234.5);
    const digest = crypto.createHash('sha256').update('mlds').digest('hex').slice(0, 8);
    console.log(JSON.stringify({ before, after, dropped, gunzipped, number, digest }));`], { encoding: 'utf8' })) as Out;
  assert.ok(out.before.exeClean > 8000, `node's code was resident before (${out.before.exeClean} kB)`);
  assert.ok(out.after.exeClean < out.before.exeClean / 4, `node's clean pages left: ${out.before.exeClean} -> ${out.after.exeClean} kB`);
  assert.ok(out.dropped >= (out.before.exeClean - out.after.exeClean) * 1024, `the helper says what it dropped (${(out.dropped / 1e6).toFixed(1)} MB)`);
  assert.ok(Object.keys(out.before.relro).length > 0, 'there are relocated read-only pages to keep');
  assert.deepEqual(out.after.relro, out.before.relro, 'every relocated page stayed');
  assert.equal(out.gunzipped, 'xxxend', 'code not yet run (zlib) came back from the file');
  assert.equal(out.number, '1.234,5', "ICU's tables came back from the file");
  assert.equal(out.digest, createHash('sha256').update('mlds').digest('hex').slice(0, 8), 'OpenSSL runs');
});
