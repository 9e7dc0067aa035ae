import { escape, MAX_FAULTS, type ConfigFault } from './faults.js';

/** The parts of a JSON schema that say which fields an object may have. */
interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
  discriminator?: { propertyName: string };
  oneOf?: SchemaNode[];
}

interface Const {
  const?: unknown;
}

interface Visit {
  value: unknown;
  schema: SchemaNode;
  at: string;
}

/**
 * Fields the schema does not know, found before ajv runs: with allErrors ajv makes an error
 * object for every one (a million unknown fields took 9.9 s and 767 MB, then overflowed the
 * stack). Lists the first `max` in document order within each object and counts them all, with
 * no allocation per field. `{ "$include": ... }` objects are left to the include expansion.
 */
export function unknownFields(
  value: unknown,
  schema: object,
  max = MAX_FAULTS,
): { faults: ConfigFault[]; total: number } {
  const faults: ConfigFault[] = [];
  let total = 0;
  const stack: Visit[] = [{ value, schema: schema as SchemaNode, at: '' }];
  while (stack.length > 0) {
    const { value: v, schema: s, at } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      if (s.items)
        for (let i = 0; i < v.length; i++)
          if (v[i] !== null && typeof v[i] === 'object') stack.push({ value: v[i], schema: s.items, at: `${at}/${i}` });
      continue;
    }
    const obj = v as Record<string, unknown>;
    if (typeof obj.$include === 'string' && Object.keys(obj).length === 1) continue;
    // A discriminated oneOf (outputs by driver): the variant the object names says which fields it may have.
    const name = s.discriminator?.propertyName;
    const variant =
      name === undefined
        ? undefined
        : s.oneOf?.find((o) => (o.properties?.[name] as Const | undefined)?.const === obj[name]);
    const props = variant ? { ...s.properties, ...variant.properties } : (s.properties ?? {});
    const extra = variant ? variant.additionalProperties : s.additionalProperties;
    for (const key in obj) {
      const child = obj[key];
      const sub = Object.hasOwn(props, key) ? props[key] : typeof extra === 'object' ? extra : undefined;
      if (sub) {
        if (child !== null && typeof child === 'object')
          stack.push({ value: child, schema: sub, at: `${at}/${escape(key)}` });
      } else if (extra === false) {
        total++;
        if (faults.length < max) faults.push({ path: `${at}/${escape(key)}`, message: 'is not a known field' });
      }
    }
  }
  return { faults, total };
}
