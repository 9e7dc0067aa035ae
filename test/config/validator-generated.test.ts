// The service validates with the module ajv generated from the schema at build time
// (src/config/validator.generated.ts). It must be what the schema makes now, judge every
// configuration as a validator compiled in the process does, and load without ajv.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { schemaValidator } from '../../src/config/schema.js';
import { compileValidator, validatorModule } from '../../src/config/validator-source.js';
import { baseConfig, exampleConfig, REPO } from '../helpers/service.js';

test(
  'the committed validator is the one the schema generates ' + '(run `npm run validator` after changing the schema)',
  () => {
    const committed = readFileSync(path.join(REPO, 'src/config/validator.generated.ts'), 'utf8');
    assert.ok(
      committed === validatorModule(),
      'src/config/validator.generated.ts is out of date: run `npm run validator`',
    );
  },
);

/** Configurations with a fault in each of the schema's kinds of check. */
function cases(): unknown[] {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a configuration taken apart by hand
  const base = baseConfig() as Record<string, any>;
  const id = Object.keys(base.displays)[0];
  const withDisplay = (patch: Record<string, unknown>) => ({
    ...base,
    displays: { ...base.displays, [id]: { ...base.displays[id], ...patch } },
  });
  const layout = base.displays[id].layout;
  const lname = Object.keys(layout)[0];
  const aname = Object.keys(layout[lname])[0];
  const withArea = (patch: Record<string, unknown>) =>
    withDisplay({
      layout: { ...layout, [lname]: { ...layout[lname], [aname]: { ...layout[lname][aname], ...patch } } },
    });
  return [
    base,
    exampleConfig(),
    { ...base, port: 'not a port', surplus: true },
    { ...base, port: 80 },
    { ...base, port: '9199' },
    { ...base, port: 9199.5 },
    { ...base, latitude: '91' },
    { ...base, latitude: '1.5e3' },
    withDisplay({ sensorBrightness: 'yes', displayIp: '300.1.1.1', brightnessUrl: 'ftp://x', displayWidth: 0 }),
    withDisplay({ output: { driver: 'fbdev' } }),
    withDisplay({ output: { driver: 'nope' } }),
    withDisplay({ output: { driver: 'ddp', device: '/dev/fb0' } }),
    withArea({ fontColor: '256 0 0', backgroundColor: '0 0 0 128', coordinates: '1 2 3', type: 'movie', wrap: 1 }),
    withArea({ fontColor: 'red', backgroundColor: '1 2', align: 'middle', fonts: ['a'.repeat(300)], ttl: -1 }),
    withArea({ fontColor: '1 2 3 4', backgroundColor: '1 2 3 4 5', dateOffset: 'x', pageSeconds: 0 }),
    {
      ...base,
      security: { apiKey: 'short', other: 1 },
      crons: [{ type: 'data' }],
      sensors: [{ protocol: 'ascii', displays: [] }],
    },
    { ...base, displays: {} },
    { ...base, displays: { ['x'.repeat(300)]: {} } },
    [],
    'text',
    null,
  ];
}

test(
  'the generated validator judges as a validator compiled from the schema in this process: same verdicts, ' +
    'same errors',
  () => {
    const generated = schemaValidator();
    const compiled = compileValidator();
    let invalid = 0;
    for (const config of cases()) {
      const a = generated(config),
        b = compiled(config);
      assert.equal(a, b, JSON.stringify(config).slice(0, 200));
      assert.deepEqual(generated.errors ?? null, compiled.errors ?? null, JSON.stringify(config).slice(0, 200));
      if (!a) invalid++;
    }
    assert.ok(invalid >= 15, `only ${invalid} of the cases were refused`);
    // The schema's own keywords give their own messages through the generated code.
    assert.equal(generated({ ...baseConfig(), port: 80 }), false);
    assert.deepEqual(
      generated.errors?.map((e) => [e.instancePath, e.keyword, e.message]),
      [['/port', 'xInt', 'must be between 1025 and 65535']],
    );
  },
);

test('checking a configuration loads no part of ajv but its two small runtime helpers', () => {
  const script = `
    const { loadConfig } = await import('./src/config/load.ts');
    const { serviceDir, exampleConfig } = await import('./test/helpers/service.ts');
    const sd = serviceDir(exampleConfig());
    try { loadConfig(sd.configFile); } finally { sd.cleanup(); }
    const { createRequire } = await import('node:module');
    const cache = Object.keys(createRequire(import.meta.url)('node:module')._cache);
    const loaded = cache.filter((k) => /node_modules\\/ajv/.test(k));
    console.log(JSON.stringify(loaded.map((k) => k.slice(k.indexOf('node_modules/') + 13))));`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: REPO,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  const loaded = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as string[];
  assert.deepEqual(loaded.sort(), ['ajv-formats/dist/formats.js', 'ajv/dist/runtime/ucs2length.js']);
});
