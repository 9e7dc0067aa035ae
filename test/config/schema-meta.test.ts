// The service compiles the configuration schema without checking it against the JSON Schema
// meta-schema (that check compiled the meta-schema at every start); this test makes the check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import { configSchema } from '../../src/config/schema.js';

test('the configuration schema is a valid draft-07 schema', () => {
  // Our own keywords (xInt, xNum, xBool, xColor) are checked by the service's compile, not here.
  const ajv = new Ajv({ strict: false, validateSchema: true });
  assert.equal(ajv.validateSchema(configSchema), true, JSON.stringify(ajv.errors));
});

test('a schema fault the meta-schema check catches is caught by that check', () => {
  const ajv = new Ajv({ strict: false });
  assert.equal(ajv.validateSchema({ type: 'object', properties: { a: { type: 'integr' } } }), false);
});
