// The configuration validator as code: ajv compiles configSchema with the schema's own
// keywords (keywords.ts) and writes it out as an ES module, validator.generated.ts, which
// the service imports. Compiling at every start cost about 100 ms of CPU and loaded ajv
// (about 2 MB of heap); the generated module needs neither. Run by `npm run validator`;
// test/config/validator-generated.test.ts fails when the committed file is not what this makes.
import type { Ajv, Options, ValidateFunction } from 'ajv';
import type * as AjvModule from 'ajv';
import { requireCjs } from '../util/require-cjs.js';
import { keywordDefinitions } from './keywords.js';
import { configSchema } from './schema.js';

const OPTIONS: Options = {
  allErrors: true,
  strict: true,
  discriminator: true,
  allowUnionTypes: true,
  validateSchema: false,
};

/** An ajv with the schema's formats and keywords; `source` keeps the code for standaloneCode. */
export function makeAjv(source = false): Ajv {
  const ajv = new (requireCjs('ajv') as typeof AjvModule).Ajv({ ...OPTIONS, code: { source, esm: true } });
  (requireCjs('ajv-formats') as { default: (a: Ajv) => Ajv }).default(ajv);
  for (const def of keywordDefinitions(requireCjs('ajv/dist/compile/codegen'))) ajv.addKeyword(def);
  return ajv;
}

/** configSchema compiled in this process (tests compare it with the generated validator). */
export function compileValidator(): ValidateFunction {
  return makeAjv().compile(configSchema);
}

const HEADER = `// @ts-nocheck
/* eslint-disable */
// Generated from src/config/schema.ts by \`npm run validator\` (src/config/validator-source.ts): do not edit.
import { requireCjs } from '../util/require-cjs.js';
import { keywordChecks } from './keywords.js';
`;

/** The text of validator.generated.ts. */
export function validatorModule(): string {
  const ajv = makeAjv(true);
  const standalone = (requireCjs('ajv/dist/standalone') as { default: (a: Ajv, v: ValidateFunction) => string })
    .default;
  // ajv's runtime helpers through requireCjs, which the bundle (scripts/bundle/build.mjs) takes
  // in: a require of this module's own would leave them to be read and compiled at every start.
  return HEADER + standalone(ajv, ajv.compile(configSchema)).replace(/\brequire\("/g, 'requireCjs("') + '\n';
}
