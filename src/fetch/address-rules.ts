// The rules on where a fetch may go, checked on the address actually connected to: inside the
// connection's own DNS lookup (so a name that answers one address to a check and another to the
// connection cannot slip past), on an IP written in the URL, and again at every redirect.
//   own-api            never the unit's own API, whoever asked (src/fetch/own-api.ts);
//   public-to-private  once a public address has served a step of a fetch (or the document a
//                      link was read from), no later step may reach a non-public address;
//   other-host         a link read from a document stays on the host that served it (or the
//                      one configured), unless `fetch.allowHosts` names the other host.
// A URL the operator configured may point anywhere else, the local network included.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { MldsError } from '../errors.js';
import { addressClass, plainAddress } from './addresses.js';
import { isOwnApi } from './own-api.js';
import { describeUrl } from './url-rules.js';

export type UrlRule = 'own-api' | 'public-to-private' | 'other-host';

/** What a fetch has gone through so far, for the rules of its next step. */
export interface FetchTrail {
  /** A public address served an earlier step (or the document a link was read from). */
  reachedPublic: boolean;
  /** For a link read from a document: the hosts it may lead to, as URL.hostname spells them. */
  hosts?: ReadonlySet<string>;
  /** How the URL at hand was reached: the message says it. */
  via: 'configured' | 'redirect' | 'link';
  /** Names the request field in errors. */
  field: string;
}

/** A host name as URL.hostname spells it, without brackets or a trailing dot, for comparing hosts. */
export function hostKey(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
}

const HOW: Record<FetchTrail['via'], string> = {
  configured: '',
  redirect: ' (reached by a redirect)',
  link: ' (a link read from a fetched document)',
};

function refused(rule: UrlRule, url: URL, trail: FetchTrail, why: string, address?: string): MldsError {
  const text = `${describeUrl(url)}${HOW[trail.via]} is refused by the rule "${rule}" (MLDS_URL_REFUSED): ${why}`;
  const details = { rule, url: describeUrl(url), ...(address === undefined ? {} : { address }) };
  return new MldsError('MLDS_URL_REFUSED', text, trail.field, details);
}

export function urlPort(url: URL): number {
  return url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
}

/** The host rule, before anything is resolved: a link's step must stay on the hosts its trail allows. */
export function checkHost(url: URL, trail: FetchTrail): void {
  if (!trail.hosts || trail.hosts.has(hostKey(url.hostname))) return;
  const from = [...trail.hosts].join(', ');
  const why =
    `a link read from a document served by ${from} may lead only there, ` +
    'or to a host "fetch.allowHosts" lists in config.json';
  throw refused('other-host', url, trail, why);
}

/** Throws MLDS_URL_REFUSED when a step to `url` may not connect to `address`. */
export function checkAddress(address: string, url: URL, trail: FetchTrail): void {
  const port = urlPort(url);
  const plain = plainAddress(address);
  if (isOwnApi(plain, port)) {
    const why = `${plain} port ${port} is this unit's own API, which the service never fetches`;
    throw refused('own-api', url, trail, why, plain);
  }
  const cls = addressClass(plain);
  if (trail.reachedPublic && cls !== 'public') {
    const why =
      `it leads to ${plain}, a ${cls} address, after a public address served this fetch; ` +
      'a public URL may not lead into the local network';
    throw refused('public-to-private', url, trail, why, plain);
  }
}

type Resolved = (err: NodeJS.ErrnoException | null, list: LookupAddress[]) => void;
type Resolve = (host: string, options: LookupOptions & { all: true }, cb: Resolved) => void;

/**
 * The lookup a connection to `url` uses: the system's resolver, then every address it gave is
 * checked; one refused address refuses the step (the connection could pick any of them).
 */
export function guardedLookup(url: URL, trail: FetchTrail, resolve: Resolve = dnsLookup): LookupFunction {
  return (host, options, callback) => {
    resolve(host, { ...options, all: true }, (err, list) => {
      if (err) return callback(err, '', 0);
      try {
        if (list.length === 0) throw Object.assign(new Error(`${host} has no address`), { code: 'ENOTFOUND' });
        for (const a of list) checkAddress(a.address, url, trail);
      } catch (e) {
        return callback(e as NodeJS.ErrnoException, '', 0);
      }
      if (options.all) callback(null, list);
      else callback(null, list[0].address, list[0].family);
    });
  };
}
