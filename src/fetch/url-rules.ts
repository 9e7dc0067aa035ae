import { MldsError } from '../errors.js';

/** The specification's default range for a port written in a URL; `urlPortRange` widens it. */
export const DEFAULT_PORT_RANGE: readonly [number, number] = [1025, 65535];

/**
 * The only form accepted: `http(s)://host[:port]/path?query#fragment`, written plainly. URL()
 * forgives much more (`http:host:1000/`, `http:/host/`, leading control characters, `\\` for
 * `/`, tabs inside), and a rule that read the port from the text in one way while the fetcher
 * parsed it another way let a forbidden port through; so anything else is refused outright.
 */
const PLAIN_URL = /^(https?):\/\/([^/?#@]*)(?:[/?#]|$)/i;
/** Control characters, spaces, DEL and backslashes: never part of a plainly written URL. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const NOT_PLAIN = /[\u0000-\u0020\u007f\\]/;

/**
 * Checks a URL against the rules for every URL the service fetches (docs/security.md) and returns it parsed. Throws
 * MLDS_BAD_URL naming `field`.
 */
export function checkUrl(raw: string, portRange: readonly [number, number] = DEFAULT_PORT_RANGE, field = 'url'): URL {
  const [min, max] = portRange;
  const m = NOT_PLAIN.test(raw) ? null : PLAIN_URL.exec(raw);
  const port = m ? portOf(m[2]) : undefined;
  const outOfRange = () =>
    new MldsError(
      'MLDS_BAD_URL',
      `names port ${port!.slice(0, 12)}: the written-port rule accepts a port written in a URL only within ` +
        `${min}..${max} (even the scheme's own, such as :80); leave the port out, or widen "urlPortRange" in ` +
        `config.json`,
      field,
    );
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // http://h:70000/: URL() refuses it, and the port is the better reason to give.
    throw port !== undefined && /^\d+$/.test(port)
      ? outOfRange()
      : new MldsError('MLDS_BAD_URL', 'is not a valid absolute URL', field);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new MldsError('MLDS_BAD_URL', `must be an http:// or https:// URL, not ${url.protocol}//`, field);
  }
  // A credential in a URL would end up in logs and error messages; never accepted.
  if (url.username !== '' || url.password !== '')
    throw new MldsError('MLDS_BAD_URL', 'must not carry a user name or password', field);
  if (!m)
    throw new MldsError(
      'MLDS_BAD_URL',
      'must be written plainly as http://host[:port]/path or https://host[:port]/path (no spaces, control ' +
        'characters or backslashes)',
      field,
    );
  // URL() erases a default port written out (http://h:80/), so the written text is read too;
  // both must agree on the port the fetch will use.
  const effective = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  if (port !== undefined && (!/^\d{1,5}$/.test(port) || Number(port) !== effective))
    throw new MldsError('MLDS_BAD_URL', `names port ${port.slice(0, 12)}, which is not a port number`, field);
  if (port !== undefined && (effective < min || effective > max)) throw outOfRange();
  return url;
}

/** The port written in an authority (`host:port`, `[v6]:port`), or undefined when none is written. */
function portOf(authority: string): string | undefined {
  const afterHost = authority.startsWith('[') ? authority.slice(authority.indexOf(']') + 1) : authority;
  const colon = afterHost.indexOf(':');
  // "http://host:/" writes an empty port, which URL() treats as none.
  if (colon < 0 || colon === afterHost.length - 1) return undefined;
  return afterHost.slice(colon + 1);
}

/** A URL as it may appear in a log line or an error: no credentials, no query values (they may carry keys). */
export function describeUrl(url: URL | string): string {
  let u: URL;
  try {
    u = typeof url === 'string' ? new URL(url) : url;
  } catch {
    return '(not a URL)';
  }
  return `${u.protocol}//${u.host}${u.pathname}${u.search ? '?…' : ''}`;
}

/**
 * A redirect's Location as an absolute URL whose authority is written as the server wrote it,
 * so checkUrl() sees a port written there even when it is the scheme's default.
 */
export function redirectTarget(location: string, base: URL): string {
  const l = location.replace(/[\t\n\r]/g, '').trim();
  if (/^[a-z][a-z0-9+.-]*:[\\/]{2}/i.test(l)) return l;
  if (/^[\\/]{2}/.test(l)) return base.protocol + l;
  return new URL(l, base).href;
}
