import { escape } from './faults.js';

/**
 * The deepest nesting of objects and arrays a configuration may have. The deepest real place
 * (a layout's area's params) is 6 levels down; 64 leaves room for any hand-written file while
 * keeping every recursive walk after parsing (includes, ajv, normalize) far from the stack limit.
 */
export const MAX_DEPTH = 64;

interface Node {
  value: unknown;
  depth: number;
  parent?: Node;
  key?: string;
}

/**
 * The JSON pointer (below `base`) of the first object or array nested deeper than `limit`,
 * counting `value` itself as level `depth`; undefined when none is. Walks with an explicit
 * stack: JSON.parse accepts 100,000 levels, and a recursive walk would overflow on them.
 */
export function tooDeep(
  value: unknown,
  limit = MAX_DEPTH,
  depth = 1,
  base = '',
  count?: { values: number },
): string | undefined {
  const stack: Node[] = [{ value, depth }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const v = node.value;
    if (v === null || typeof v !== 'object') continue;
    if (node.depth > limit) return base + pointerOf(node);
    // Member by member: Object.entries() of a million-field object alone took 100 MB.
    const push = (key: string, child: unknown) => {
      if (count) count.values++;
      if (child !== null && typeof child === 'object')
        stack.push({ value: child, depth: node.depth + 1, parent: node, key });
    };
    if (Array.isArray(v)) for (let i = 0; i < v.length; i++) push(String(i), v[i]);
    else for (const key in v) push(key, (v as Record<string, unknown>)[key]);
  }
  return undefined;
}

/**
 * Fields and array items a configuration may hold in all, its includes counted: ajv lists a
 * fault per offending value, so this bounds its work and memory whatever the file holds. The
 * largest real configuration (99 units, layouts of many areas) holds a few tens of thousands.
 */
export const MAX_VALUES = 200_000;
/** Bytes of JSON a configuration may have, its includes counted (checked before reading). */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

export function tooManyValues(values: number, file?: string): { path: string; message: string } {
  const where = file === undefined ? '' : ` (reached in $include "${file}")`;
  return {
    path: '',
    message: `holds ${values} fields and array items${where}; a configuration may hold at most ${MAX_VALUES}`,
  };
}

function pointerOf(node: Node): string {
  const keys: string[] = [];
  for (let n: Node | undefined = node; n?.key !== undefined; n = n.parent) keys.push('/' + escape(n.key));
  return keys.reverse().join('');
}

/** The fault for tooDeep()'s answer; `file` names the $include it was found in. */
export function depthFault(path: string, file?: string): { path: string; message: string } {
  const where = file === undefined ? '' : ` (in $include "${file}")`;
  return {
    path,
    message: `nests objects and arrays more than ${MAX_DEPTH} levels deep${where}; a configuration needs fewer than 10`,
  };
}
