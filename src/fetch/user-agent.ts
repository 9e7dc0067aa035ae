// The User-Agent every fetch sends: the software, its version and the unit, so a feed's or an
// archive server's operator can tell which unit asks (`mlds/1.4.0 (sign-031)`).
import { hostname } from 'node:os';
import { VERSION } from '../version.js';

let unit = hostname();

/** The unit's name (the MQTT unit name, else the hostname); the runtime sets it with each configuration. */
export function setFetchUnitName(name: string): void {
  unit = name;
}

export function userAgent(): string {
  // A header value is visible ASCII; parentheses and backslashes would end or escape the comment.
  const name = unit.replace(/[^\x20-\x7e]|[()\\]/g, '_').trim() || 'mlds';
  return `mlds/${VERSION} (${name})`;
}
