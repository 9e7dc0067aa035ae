// The `fetch` section (where fetched links may lead, docs/security.md): its schema fragment and
// its normalization, so schema.ts, normalize.ts and types.ts each carry one line.
import { isIP } from 'node:net';
import { hostKey } from '../fetch/address-rules.js';

type Fault = (path: string, message: string) => void;

export interface FetchSettings {
  /** Hosts a link read from a fetched document may lead to besides its own (spelt as URL.hostname spells them). */
  allowHosts: string[];
}

const HOST_TEXT = '^[^\\s/?#@\\\\]+$';

export const fetchSchema = {
  fetch: {
    type: 'object',
    additionalProperties: false,
    properties: {
      // A host name or an IP address: no scheme, port, path or user.
      allowHosts: {
        type: 'array',
        maxItems: 64,
        items: { type: 'string', minLength: 1, maxLength: 253, pattern: HOST_TEXT },
      },
    },
  },
};

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function fetchSettingsOf(raw: unknown, fault: Fault): FetchSettings {
  const allowHosts: string[] = [];
  const list = isObj(raw) && Array.isArray(raw.allowHosts) ? raw.allowHosts : [];
  list.forEach((h: unknown, i) => {
    // What the schema refuses is its fault already.
    if (typeof h !== 'string' || !new RegExp(HOST_TEXT).test(h) || h.length > 253) return;
    const bare = h.replace(/^\[|\]$/g, '');
    let host: URL | undefined;
    // Spelt as a URL spells it (lower case, punycode, IPv4 in dots), so it compares with a link's host.
    try {
      host = new URL(`http://${isIP(bare) === 6 ? `[${bare}]` : h}/`);
    } catch {
      /* a fault below */
    }
    if (!host || host.port !== '' || host.pathname !== '/' || host.host.endsWith(':')) {
      const why = `"${h.slice(0, 80)}" is not a host name or IP address (write it without a scheme, port or path)`;
      fault(`/fetch/allowHosts/${i}`, why);
      return;
    }
    allowHosts.push(hostKey(host.hostname));
  });
  return { allowHosts };
}
