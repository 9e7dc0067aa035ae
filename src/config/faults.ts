import type { ErrorObject } from 'ajv';

/** One thing wrong with the configuration: where (a JSON pointer into config.json) and what. */
export interface ConfigFault {
  path: string;
  message: string;
}

/**
 * Faults listed at most: a file of a million unknown fields must not answer a million lines
 * (nor hold them); checking stops once this many are found, and the rest are counted.
 */
export const MAX_FAULTS = 100;

/** A configuration that cannot run; carries the faults found (the first MAX_FAULTS, then a line counting the rest). */
export class ConfigError extends Error {
  readonly faults: ConfigFault[];
  /** Every fault found, listed or not. */
  readonly total: number;

  /** `total`: when the caller stopped listing faults early, how many it found in all. */
  constructor(found: ConfigFault[], total = found.length) {
    const listed = found.slice(0, MAX_FAULTS);
    const count = Math.max(total, found.length);
    const rest = count - listed.length;
    const faults =
      rest > 0
        ? [
            ...listed,
            {
              path: '',
              message: `and ${rest} more fault${rest === 1 ? '' : 's'} not listed (the first ${MAX_FAULTS} are)`,
            },
          ]
        : listed;
    super(
      `configuration has ${count} fault${count === 1 ? '' : 's'}:\n` +
        faults.map((f) => `  ${f.path || '/'}: ${f.message}`).join('\n'),
    );
    this.name = 'ConfigError';
    this.faults = faults;
    this.total = count;
  }
}

const SECURITY_FIELDS = ['apiKey', 'adminKey'];

/** ajv's errors as plain faults: the path names the offending field itself, not its parent. */
export function faultsFromAjv(errors: ErrorObject[] | null | undefined, max = MAX_FAULTS): ConfigFault[] {
  const out: ConfigFault[] = [];
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    if (out.length >= max) break;
    let path = e.instancePath;
    let message = e.message ?? 'is invalid';
    const p = e.params as Record<string, unknown>;
    if (e.keyword === 'required') {
      path += '/' + escape(String(p.missingProperty));
      message = 'is required';
    } else if (e.keyword === 'additionalProperties') {
      path += '/' + escape(String(p.additionalProperty));
      message = 'is not a known field';
    } else if (e.keyword === 'propertyNames') {
      message = `has a name that is empty or longer than 255 characters: "${String(p.propertyName).slice(0, 40)}"`;
    } else if (e.keyword === 'maxLength') {
      message = `must be at most ${String(p.limit)} characters`;
    } else if (e.keyword === 'enum') {
      message = `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    } else if (e.keyword === 'pattern' && path.endsWith('/coordinates')) {
      message = 'must be four integers "x y X Y"';
    } else if (e.keyword === 'pattern' && path.endsWith('/xy')) {
      message = 'must be two integers "x y"';
    } else if (e.keyword === 'format' && p.format === 'ipv4') {
      message = 'must be an IPv4 address such as 192.168.1.20';
    } else if (e.keyword === 'format' && p.format === 'uri') {
      message = 'must be an http:// or https:// URL';
    } else if (e.keyword === 'pattern' && (e.schemaPath.includes('url') || /Url|url|completeUrls/.test(path))) {
      message = 'must be an http:// or https:// URL';
    }
    // A field name inside "security" may be a key written in the wrong place: never quoted.
    if (path.startsWith('/security/') && !SECURITY_FIELDS.includes(path.slice(10)))
      ({ path, message } = {
        path: '/security',
        message: 'has a field other than apiKey and adminKey (its name is not shown)',
      });
    // propertyNames errors repeat once per subschema keyword; keep one per place.
    const key = path + '\u0000' + message;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path, message });
  }
  return out;
}

export function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointer(...segments: Array<string | number>): string {
  return segments.map((s) => '/' + escape(String(s))).join('');
}
