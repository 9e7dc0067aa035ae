import { readRegularFile, resolveInclude } from './files.js';
import { escape, type ConfigFault } from './faults.js';
import { depthFault, MAX_CONFIG_BYTES, MAX_DEPTH, MAX_VALUES, tooDeep, tooManyValues } from './depth.js';
import { describeJsonSyntax } from './json-syntax.js';

/** `$include` files within files: more is a mistake (or a loop through many names), not a configuration. */
export const MAX_INCLUDE_NESTING = 16;
/** Expansions in all: a few files that each include the next many times would otherwise multiply. */
export const MAX_INCLUDES = 1000;

/** What the configuration may still read: bytes of JSON and fields and items, config.json's own taken first. */
export interface Budget {
  bytes: number;
  values: number;
}

interface Walk {
  serviceDir: string;
  faults: ConfigFault[];
  expanded: number;
  budget: Budget;
}

/**
 * Replaces every `{ "$include": "file.json" }` with that file's object, recursively.
 * Faults (missing file, bad JSON, a cycle, a file too deep) are collected with the JSON path
 * of the include. The value given must already be checked with tooDeep(): every included
 * document is checked here before it is walked, so the recursion stays within MAX_DEPTH.
 */
export function expandIncludes(
  value: unknown,
  serviceDir: string,
  faults: ConfigFault[],
  budget: Budget = { bytes: MAX_CONFIG_BYTES, values: MAX_VALUES },
): unknown {
  return expand(value, { serviceDir, faults, expanded: 0, budget }, '', 1, []);
}

function expand(value: unknown, w: Walk, at: string, depth: number, chain: string[]): unknown {
  if (Array.isArray(value)) return value.map((v, i) => expand(v, w, `${at}/${i}`, depth + 1, chain));
  if (value === null || typeof value !== 'object') return value;
  const obj = value as Record<string, unknown>;
  if (typeof obj.$include === 'string' && Object.keys(obj).length === 1) {
    const included = load(obj.$include, w, at, depth, chain);
    return included ? expand(included.value, w, at, depth, [...chain, included.file]) : {};
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) out[k] = expand(v, w, `${at}/${escape(k)}`, depth + 1, chain);
  return out;
}

/** Reads and checks one included file; undefined (with a fault recorded) when it cannot be used. */
function load(
  name: string,
  w: Walk,
  at: string,
  depth: number,
  chain: string[],
): { file: string; value: object } | undefined {
  const fault = (message: string, path = at) => {
    w.faults.push({ path, message });
    return undefined;
  };
  const r = resolveInclude(w.serviceDir, name);
  if ('error' in r) return fault(`$include ${r.error}`);
  if (chain.includes(r.file)) return fault(`$include "${name}" includes itself`);
  if (chain.length >= MAX_INCLUDE_NESTING)
    return fault(`$include "${name}" is nested more than ${MAX_INCLUDE_NESTING} files deep`);
  if (++w.expanded > MAX_INCLUDES)
    return fault(`$include "${name}" is one more than the ${MAX_INCLUDES} includes a configuration may expand`);
  const read = readRegularFile(r.file, w.budget.bytes);
  if ('error' in read) return fault(`$include "${name}" ${read.error}`);
  w.budget.bytes -= read.text.length;
  let parsed: unknown;
  try {
    parsed = JSON.parse(read.text);
  } catch {
    return fault(`$include ${describeJsonSyntax(`"${name}"`, read.text)}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return fault(`$include "${name}" must hold a JSON object`);
  const count = { values: 0 };
  const deep = tooDeep(parsed, MAX_DEPTH, depth, at, count);
  if (deep !== undefined) return fault(depthFault(deep, name).message, deep);
  w.budget.values -= count.values;
  if (w.budget.values < 0) return fault(tooManyValues(MAX_VALUES - w.budget.values, name).message);
  return { file: r.file, value: parsed };
}
