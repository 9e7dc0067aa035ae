import { escape } from './faults.js';

/**
 * The deepest nesting of objects and arrays a configuration may have. The deepest real place
 * (a layout's area's params) is 6 levels down; 64 leaves room for any hand-written file while
 * keeping every recursive walk after parsing (includes, ajv, normalize) far from the stack limit.
 */
export const MAX_DEPTH = 64;

interface Node { value: unknown; depth: number; parent?: Node; key?: string }

/**
 * The JSON pointer (below `base`) of the first object or array nested deeper than `limit`,
 * counting `value` itself as level `depth`; undefined when none is. Walks with an explicit
 * stack: JSON.parse accepts 100,000 levels, and a recursive walk would overflow on them.
 */
export function tooDeep(value: unknown, limit = MAX_DEPTH, depth = 1, base = ''): string | undefined {
  const stack: Node[] = [{ value, depth }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const v = node.value;
    if (v === null || typeof v !== 'object') continue;
    if (node.depth > limit) return base + pointerOf(node);
    const entries: Array<[string, unknown]> = Array.isArray(v) ? v.map((x, i) => [String(i), x]) : Object.entries(v);
    for (const [key, child] of entries) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: node.depth + 1, parent: node, key });
    }
  }
  return undefined;
}

function pointerOf(node: Node): string {
  const keys: string[] = [];
  for (let n: Node | undefined = node; n?.key !== undefined; n = n.parent) keys.push('/' + escape(n.key));
  return keys.reverse().join('');
}

/** The fault for tooDeep()'s answer; `file` names the $include it was found in. */
export function depthFault(path: string, file?: string): { path: string; message: string } {
  const where = file === undefined ? '' : ` (in $include "${file}")`;
  return { path, message: `nests objects and arrays more than ${MAX_DEPTH} levels deep${where}; a configuration needs fewer than 10` };
}
