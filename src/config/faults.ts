import type { ErrorObject } from 'ajv';

/** One thing wrong with the configuration: where (a JSON pointer into config.json) and what. */
export interface ConfigFault {
  path: string;
  message: string;
}

/** A configuration that cannot run; carries every fault found, not only the first. */
export class ConfigError extends Error {
  constructor(readonly faults: ConfigFault[]) {
    super(`configuration has ${faults.length} fault${faults.length === 1 ? '' : 's'}:\n` + faults.map((f) => `  ${f.path || '/'}: ${f.message}`).join('\n'));
    this.name = 'ConfigError';
  }
}

const SECURITY_FIELDS = ['apiKey', 'adminKey'];

/** ajv's errors as plain faults: the path names the offending field itself, not its parent. */
export function faultsFromAjv(errors: ErrorObject[] | null | undefined): ConfigFault[] {
  const out: ConfigFault[] = [];
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    let path = e.instancePath;
    let message = e.message ?? 'is invalid';
    const p = e.params as Record<string, unknown>;
    if (e.keyword === 'required') { path += '/' + escape(String(p.missingProperty)); message = 'is required'; }
    else if (e.keyword === 'additionalProperties') { path += '/' + escape(String(p.additionalProperty)); message = 'is not a known field'; }
    else if (e.keyword === 'propertyNames') { message = `has a name that is empty or longer than 255 characters: "${String(p.propertyName).slice(0, 40)}"`; }
    else if (e.keyword === 'maxLength') { message = `must be at most ${String(p.limit)} characters`; }
    else if (e.keyword === 'enum') { message = `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`; }
    else if (e.keyword === 'pattern' && path.endsWith('/coordinates')) { message = 'must be four integers "x y X Y"'; }
    else if (e.keyword === 'pattern' && path.endsWith('/xy')) { message = 'must be two integers "x y"'; }
    else if (e.keyword === 'format' && p.format === 'ipv4') { message = 'must be an IPv4 address such as 192.168.1.20'; }
    else if (e.keyword === 'format' && p.format === 'uri') { message = 'must be an http:// or https:// URL'; }
    else if (e.keyword === 'pattern' && (e.schemaPath.includes('url') || /Url|url|completeUrls/.test(path))) { message = 'must be an http:// or https:// URL'; }
    // A field name inside "security" may be a key written in the wrong place: never quoted.
    if (path.startsWith('/security/') && !SECURITY_FIELDS.includes(path.slice(10))) ({ path, message } = { path: '/security', message: 'has a field other than apiKey and adminKey (its name is not shown)' });
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
