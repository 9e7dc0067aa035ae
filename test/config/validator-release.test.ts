// The compiled configuration schema is let go after a load (memory of a running service) and
// compiled again by the next one, which must then judge exactly as before.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { ConfigError } from '../../src/config/faults.js';
import { loadConfig } from '../../src/config/load.js';
import { validatorHeld, VALIDATOR_KEEP_MS } from '../../src/config/schema.js';
import { baseConfig, serviceDir, until } from '../helpers/service.js';

test('the validator is released after a load and compiled again by the next, with the same verdicts', async () => {
  const good = baseConfig();
  const sd = serviceDir(good);
  try {
    const first = loadConfig(sd.configFile);
    assert.equal(validatorHeld(), true);
    await until(() => !validatorHeld(), VALIDATOR_KEEP_MS * 10, 'the validator to be released');
    const again = loadConfig(sd.configFile);
    assert.equal(validatorHeld(), true);
    assert.deepEqual(again.displays.map((d) => d.id), first.displays.map((d) => d.id));

    await until(() => !validatorHeld(), VALIDATOR_KEEP_MS * 10, 'the validator to be released');
    writeFileSync(sd.configFile, JSON.stringify({ ...good, port: 'not a port', surplus: true }));
    const faults = (() => { try { loadConfig(sd.configFile); return []; } catch (err) { assert.ok(err instanceof ConfigError); return err.faults; } })();
    assert.ok(faults.some((f) => f.path === '/port'), JSON.stringify(faults));
    assert.ok(faults.some((f) => f.path === '/surplus'), JSON.stringify(faults));
  } finally {
    sd.cleanup();
  }
});
