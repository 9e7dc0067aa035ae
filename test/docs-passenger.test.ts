// The configurations docs/speech.md and docs/rendering.md give an agency to copy (readout, what is
// said is shown, volume by the hour, pages in step, legibility) are whole and pass `mlds test`
// as written, with no warning; the legibility example warns as the doc says once read from 9 m.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { REPO, mldsTest, serviceDir } from './helpers/service.js';
import { gtfsZip } from './feeds/fixtures.js';
import { schedule } from './feeds/gtfs-sample.js';

type Config = { displays?: Record<string, Record<string, unknown>>; feeds?: unknown; speech?: { chime?: string } };

/** The fenced JSON blocks of `doc` that are whole configurations (objects with `displays`; not an area's fields). */
function configs(doc: string): Array<{ line: number; config: Config }> {
  const text = readFileSync(path.join(REPO, 'docs', doc), 'utf8');
  return [...text.matchAll(/^```json\n(\{[\s\S]*?)^```$/gm)].flatMap((m) => {
    const config = JSON.parse(m[1]) as Config;
    return config.displays ? [{ line: text.slice(0, m.index).split('\n').length, config }] : [];
  });
}

/** A second of 16 kHz mono silence as a WAV: the chime file the agency's own would be. */
function silence(): Buffer {
  const data = Buffer.alloc(32_000);
  const h = Buffer.alloc(44);
  h.write('RIFF', 0);
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVEfmt ', 8);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(16_000, 24);
  h.writeUInt32LE(32_000, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36);
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

/** `mlds test` on `config`, given the files it names that an agency brings: its chime and its GTFS. */
async function check(config: Config): Promise<{ status: number | null; stderr: string }> {
  const sd = serviceDir(config);
  try {
    if (config.speech?.chime && config.speech.chime !== 'none') {
      mkdirSync(path.join(sd.dir, 'sounds'));
      writeFileSync(path.join(sd.dir, 'sounds', config.speech.chime), silence());
    }
    if (config.feeds) {
      mkdirSync(path.join(sd.dir, 'gtfs'));
      await gtfsZip(path.join(sd.dir, 'gtfs', 'city.zip'), schedule());
    }
    const r = mldsTest(sd);
    return { status: r.status, stderr: r.stderr };
  } finally {
    sd.cleanup();
  }
}

for (const doc of ['speech.md', 'rendering.md']) {
  test(`every configuration of docs/${doc} passes \`mlds test\` as written, with no warning`, async () => {
    const found = configs(doc);
    assert.ok(found.length >= 2, `docs/${doc} gives whole configurations`);
    for (const { line, config } of found) {
      const r = await check(config);
      assert.equal(r.status, 0, `docs/${doc}:${line}: ${r.stderr}`);
      assert.doesNotMatch(r.stderr, /warning/, `docs/${doc}:${line}`);
    }
  });
}

test('the legibility example of docs/rendering.md read from 9 m: the warning the doc prints', async () => {
  const doc = readFileSync(path.join(REPO, 'docs', 'rendering.md'), 'utf8');
  const printed = /^mlds: warning: .*capital height.*$/m.exec(doc)?.[0];
  assert.ok(printed, 'docs/rendering.md prints the warning');
  const { config } = configs('rendering.md').find((c) => JSON.stringify(c.config).includes('pitchMm'))!;
  config.displays!.platform1.viewingDistanceM = '9';
  const r = await check(config);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr.trim(), printed);
});
