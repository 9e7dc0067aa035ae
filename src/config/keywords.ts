// The schema's own keywords: numbers and booleans written as JSON values or as strings, and
// colours "R G B [A]". Each is a check that returns the fault's message (undefined: valid),
// and a code-generating ajv keyword that calls it, so that the validator generated at build
// time (validator.generated.ts) holds only a reference to these functions, not ajv.
import type { CodeKeywordDefinition, KeywordCxt } from 'ajv';
import { parseBoolLike, parseColorParts, parseIntLike, parseNumLike } from './scalars.js';

type Check = (data: unknown, schema: never) => string | undefined;

const range =
  (parse: (v: unknown) => number | undefined, what: string) =>
  (data: unknown, [min, max]: [number, number]): string | undefined => {
    const v = parse(data);
    return v === undefined
      ? `must be ${what} (a JSON number or a string such as "${min}")`
      : v < min || v > max
        ? `must be between ${min} and ${max}`
        : undefined;
  };

function color(data: unknown, withAlpha: boolean): string | undefined {
  const parts = parseColorParts(data);
  const shape = withAlpha
    ? 'three values R G B 0..255 and an optional alpha 0..127'
    : 'three values R G B, each 0..255';
  if (!parts || parts.length < 3 || parts.length > (withAlpha ? 4 : 3)) return `must be ${shape}, separated by spaces`;
  if (parts.slice(0, 3).some((p) => p > 255)) return 'colour values must be between 0 and 255';
  if (parts.length === 4 && parts[3] > 127) return 'alpha must be between 0 (opaque) and 127 (transparent)';
  return undefined;
}

/** Keyword name to its check; the generated validator imports this object. */
export const keywordChecks = {
  xInt: range(parseIntLike, 'an integer'),
  xNum: range(parseNumLike, 'a number'),
  xBool: (data: unknown) =>
    parseBoolLike(data) === undefined ? 'must be true or false (or "true"/"false")' : undefined,
  xColor: color,
} satisfies Record<string, Check>;

export type KeywordName = keyof typeof keywordChecks;

/**
 * ajv keyword definitions. `codegen` is ajv's code generator module (`ajv/dist/compile/codegen`),
 * passed in so that this module loads without ajv. The generated code reads
 * `keywordChecks.<name>` (the scope value's `code`), which the generated module imports.
 */
export function keywordDefinitions(
  codegen: typeof import('ajv/dist/compile/codegen/index.js'),
): CodeKeywordDefinition[] {
  const { _ } = codegen;
  return (Object.keys(keywordChecks) as KeywordName[]).map((keyword) => ({
    keyword,
    schemaType: keyword === 'xInt' || keyword === 'xNum' ? 'array' : 'boolean',
    error: { message: ({ params }) => params.message as import('ajv').Code, params: () => _`{}` },
    code(cxt: KeywordCxt) {
      const { gen, data, schema } = cxt;
      const check = gen.scopeValue('func', {
        ref: keywordChecks[keyword],
        code: _`keywordChecks${codegen.getProperty(keyword)}`,
      });
      const message = gen.const('message', _`${check}(${data}, ${codegen.stringify(schema)})`);
      cxt.setParams({ message });
      cxt.fail(_`${message} !== undefined`);
    },
  }));
}
