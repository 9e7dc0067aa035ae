// Fetching an `alerts` URL within the house's rules (src/fetch: URL rules, redirects, time and
// a size cap counted as the bytes arrive), then the linked alerts of a feed, one at a time,
// at most MAX_ALERTS in all, each under the same cap. A linked alert already fetched is kept
// by its URL and not fetched again while the feed lists it. A link is fetched as a link read from
// the feed (fetchLimited's linkedFrom): it stays on the feed's host unless `fetch.allowHosts` lists
// its host, and leads nowhere private from a public feed. Documents are parsed in the alerts'
// thread (cap-decoder.ts).
import { fetchLimited } from '../fetch/fetch-limited.js';
import { describeUrl } from '../fetch/url-rules.js';
import { MAX_ALERTS, type CapAlert } from './cap-alert.js';
import type { CapDecoder } from './cap-decoder.js';

export const ALERT_TIMEOUT_MS = 20_000;

export interface FetchFeedOptions {
  maxBytes: number;
  portRange: readonly [number, number];
  signal: AbortSignal;
  field: string;
  cache: ReadonlyMap<string, CapAlert>;
  /** config.json `fetch.allowHosts`: hosts a link may lead to besides the feed's. */
  allowHosts: readonly string[];
  /** Parses off the event loop. */
  decoder: CapDecoder;
}

export interface Fetched {
  alerts: CapAlert[];
  refused: string[];
  /** The feed's linked alerts by URL, for the next fetch. */
  cache: Map<string, CapAlert>;
}

/** Throws (a fetch error or a refused document) when the feed itself cannot be read. */
export async function fetchFeed(url: string, o: FetchFeedOptions): Promise<Fetched> {
  const opts = {
    maxBytes: o.maxBytes,
    timeoutMs: ALERT_TIMEOUT_MS,
    portRange: o.portRange,
    signal: o.signal,
    field: o.field,
  };
  const res = await fetchLimited(url, opts);
  const doc = await o.decoder.document(res.body ?? Buffer.alloc(0));
  const cache = new Map<string, CapAlert>();
  const alerts = [...doc.alerts];
  const refused = [...doc.refused];
  for (const link of doc.links) {
    if (alerts.length >= MAX_ALERTS) {
      refused.push(`more than ${MAX_ALERTS} alerts: ${describeUrl(link)} and later links left out`);
      break;
    }
    let abs: string;
    try {
      abs = new URL(link, res.url).href;
    } catch {
      refused.push(`a link that is not a URL: ${link.slice(0, 80)}`);
      continue;
    }
    let alert = o.cache.get(abs);
    if (!alert) {
      try {
        const r = await fetchLimited(abs, { ...opts, linkedFrom: res, allowHosts: o.allowHosts });
        alert = await o.decoder.linked(r.body ?? Buffer.alloc(0));
      } catch (err) {
        if (o.signal.aborted) throw err;
        refused.push(`${describeUrl(abs)}: ${(err as Error).message}`);
        continue;
      }
    }
    cache.set(abs, alert);
    alerts.push(alert);
  }
  return { alerts, refused, cache };
}
