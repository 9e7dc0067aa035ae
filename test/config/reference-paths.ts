// The dotted paths of every field the configuration schema accepts, as docs/configuration.md
// writes them: `a.b` for a property, `<name>` for a key the user chooses (a map entry), `[]`
// for the elements of a list. A map or list of plain values is one field, not walked into.
import { configSchema } from '../../src/config/schema.js';

type Node = Record<string, unknown>;
const isObj = (v: unknown): v is Node => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Sub-schemas that add properties to the same object: every branch a value may take. */
function branches(n: Node): Node[] {
  const out = [n];
  for (const k of ['oneOf', 'anyOf', 'allOf']) if (Array.isArray(n[k])) out.push(...(n[k] as Node[]).flatMap(branches));
  for (const k of ['then', 'else']) if (isObj(n[k])) out.push(...branches(n[k] as Node));
  return out;
}

/** Whether values of this schema are objects or lists with fields of their own. */
function hasFields(n: Node): boolean {
  return branches(n).some(
    (b) =>
      isObj(b.properties) ||
      (isObj(b.additionalProperties) && hasFields(b.additionalProperties)) ||
      (isObj(b.items) && hasFields(b.items)),
  );
}

function walk(n: Node, at: string, out: Set<string>): void {
  for (const b of branches(n)) {
    if (isObj(b.properties)) {
      for (const [k, child] of Object.entries(b.properties as Record<string, Node>)) {
        const p = at ? `${at}.${k}` : k;
        out.add(p);
        walk(child, p, out);
      }
    }
    if (isObj(b.additionalProperties) && hasFields(b.additionalProperties)) {
      out.add(`${at}.<>`);
      walk(b.additionalProperties, `${at}.<>`, out);
    }
    if (isObj(b.items) && hasFields(b.items)) walk(b.items, `${at}[]`, out);
  }
}

/** Every field path of config.json, with map keys written `<>` (the doc's `<id>`, `<area>`...). */
export function schemaPaths(): Set<string> {
  const out = new Set<string>();
  walk(configSchema as Node, '', out);
  return out;
}

/** A documented path with its placeholders made comparable: `<id>` and `<area>` both become `<>`. */
export const generic = (p: string): string => p.replace(/<[^>]*>/g, '<>');
