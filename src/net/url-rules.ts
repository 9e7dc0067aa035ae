import { MldsError } from '../errors.js';

/** The specification's default range for a port written in a URL; `urlPortRange` widens it. */
export const DEFAULT_PORT_RANGE: readonly [number, number] = [1025, 65535];

/**
 * Checks a URL against the rules for every URL the service fetches (DECISIONS.md, "URLs the
 * service fetches") and returns it parsed. Throws MLDS_BAD_URL naming `field`.
 */
export function checkUrl(raw: string, portRange: readonly [number, number] = DEFAULT_PORT_RANGE, field = 'url'): URL {
  const [min, max] = portRange;
  // URL() erases a default port written out (http://h:80/), so the written text is read instead.
  const port = writtenPort(raw);
  const badPort = port !== undefined && (!/^\d{1,5}$/.test(port) || Number(port) < min || Number(port) > max)
    ? new MldsError('MLDS_BAD_URL', `names port ${port}: the written-port rule accepts a port written in a URL only within ${min}..${max} (even the scheme's own, such as :80); leave the port out, or widen "urlPortRange" in config.json`, field)
    : undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badPort ?? new MldsError('MLDS_BAD_URL', 'is not a valid absolute URL', field);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new MldsError('MLDS_BAD_URL', `must be an http:// or https:// URL, not ${url.protocol}//`, field);
  }
  // A credential in a URL would end up in logs and error messages; never accepted.
  if (url.username !== '' || url.password !== '') throw new MldsError('MLDS_BAD_URL', 'must not carry a user name or password', field);
  if (badPort) throw badPort;
  return url;
}

/** The port as written in the URL's authority, or undefined when none is written. */
export function writtenPort(raw: string): string | undefined {
  // As URL() does: tabs and newlines vanish, and "\\" counts as "/" in http(s) URLs.
  const m = /^[a-z][a-z0-9+.-]*:[\\/]{2}([^\\/?#]*)/i.exec(raw.replace(/[\t\n\r]/g, '').trim());
  if (!m) return undefined;
  const hostPort = m[1].slice(m[1].lastIndexOf('@') + 1);
  const afterHost = hostPort.startsWith('[') ? hostPort.slice(hostPort.indexOf(']') + 1) : hostPort;
  const colon = afterHost.indexOf(':');
  if (colon < 0) return undefined;
  // "http://host:/" writes an empty port, which URL() treats as none.
  const port = afterHost.slice(colon + 1);
  return port === '' ? undefined : port;
}

/** A URL as it may appear in a log line or an error: no credentials, no query values (they may carry keys). */
export function describeUrl(url: URL | string): string {
  let u: URL;
  try { u = typeof url === 'string' ? new URL(url) : url; } catch { return '(not a URL)'; }
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
