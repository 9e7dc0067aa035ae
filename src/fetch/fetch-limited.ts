import { open, unlink, type FileHandle } from 'node:fs/promises';
import { isIP } from 'node:net';
import { MldsError } from '../errors.js';
import { addressClass } from './addresses.js';
import { checkAddress, checkHost, guardedLookup, hostKey, type FetchTrail } from './address-rules.js';
import { requestHop, type Hop } from './http-hop.js';
import { checkUrl, describeUrl, DEFAULT_PORT_RANGE, redirectTarget } from './url-rules.js';
import { userAgent } from './user-agent.js';

/** Limits of a configuration archive download; other callers pass their own. */
export const ARCHIVE_FETCH_LIMITS = { maxBytes: 20 * 1024 * 1024, timeoutMs: 30_000, maxRedirects: 3 } as const;

export interface FetchProgress {
  /** Body bytes received so far (after any Content-Encoding was undone). */
  received: number;
  /** From Content-Length when the server sent one and no Content-Encoding; a hint only. */
  total?: number;
  done: boolean;
}

export interface FetchLimitedOptions {
  /** Largest body accepted, in bytes; counted as it arrives, whatever Content-Length says. */
  maxBytes?: number;
  /** For the whole fetch: connecting, every redirect and the body. */
  timeoutMs?: number;
  maxRedirects?: number;
  /** Range a port written in the URL (and in every redirect) must fall in; default 1025..65535. */
  portRange?: readonly [number, number];
  /** Stream the body into this file, created with O_EXCL (it must not exist); removed on failure. */
  toFile?: string;
  method?: 'GET' | 'HEAD' | 'POST';
  body?: string;
  /** Sent on the first request and on redirects to the same origin only. */
  headers?: Record<string, string>;
  /** Called every `progressStep` bytes (default 1 MiB) and once at the end, for a log line. */
  onProgress?: (p: FetchProgress) => void;
  progressStep?: number;
  /** Aborts the fetch from outside (shutdown); it then fails as MLDS_FETCH_FAILED. */
  signal?: AbortSignal;
  /** Names the request field in errors (default `url`). */
  field?: string;
  /**
   * The URL was read from a fetched document (a feed entry's link): that document's fetch. The
   * link must stay on the host that served it (or the host of the URL asked for) unless
   * `allowHosts` names its host, and may not reach a non-public address if a public one served the document.
   */
  linkedFrom?: Pick<FetchLimitedResult, 'url' | 'firstUrl' | 'reachedPublic'>;
  /** Hosts a link may lead to besides its document's (config.json `fetch.allowHosts`). */
  allowHosts?: readonly string[];
}

export interface FetchLimitedResult {
  /** The URL that finally answered (after redirects). */
  url: string;
  /** The URL asked for. */
  firstUrl: string;
  /** A public address answered a step of this fetch: a link read from the body may not lead into the local network. */
  reachedPublic: boolean;
  status: number;
  headers: Headers;
  contentType: string | undefined;
  bytes: number;
  redirects: number;
  /** The body, unless `toFile` was given. */
  body?: Buffer;
  file?: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * A bounded HTTP(S) fetch for every URL the service fetches: the URL rules on the first URL
 * and on each redirect (followed here), the rules on addresses (address-rules.ts) on every
 * address connected to, a total time limit, and a size limit enforced on the bytes as they
 * arrive. Failures are MldsErrors: MLDS_BAD_URL (400), MLDS_URL_REFUSED (400),
 * MLDS_FETCH_FAILED (502), MLDS_FETCH_TOO_LARGE (502), MLDS_FETCH_TIMEOUT (504).
 */
export async function fetchLimited(rawUrl: string, opts: FetchLimitedOptions = {}): Promise<FetchLimitedResult> {
  const field = opts.field ?? 'url';
  const maxBytes = opts.maxBytes ?? ARCHIVE_FETCH_LIMITS.maxBytes;
  const timeoutMs = opts.timeoutMs ?? ARCHIVE_FETCH_LIMITS.timeoutMs;
  const maxRedirects = opts.maxRedirects ?? ARCHIVE_FETCH_LIMITS.maxRedirects;
  const portRange = opts.portRange ?? DEFAULT_PORT_RANGE;
  let url = checkUrl(rawUrl, portRange, field);
  const first = url;
  const trail = trailOf(opts, field);

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onOuterAbort = () => controller.abort();
  opts.signal?.addEventListener('abort', onOuterAbort, { once: true });
  if (opts.signal?.aborted) controller.abort();

  // Errors of the local file, told apart from the network's.
  const local = new WeakSet<object>();
  const onFile = async <T>(p: Promise<T>): Promise<T> => {
    try {
      return await p;
    } catch (err) {
      local.add(err as object);
      throw err;
    }
  };
  const fail = (err: unknown): Error => {
    if (err instanceof MldsError) return err;
    // A local file error (EEXIST, ENOSPC) is the service's problem, not the URL's.
    if (local.has(err as object)) return err as Error;
    if (timedOut) {
      return new MldsError(
        'MLDS_FETCH_TIMEOUT',
        `${describeUrl(url)} did not finish within ${timeoutMs / 1000} s`,
        field,
        { reason: 'timeout', url: describeUrl(url) },
      );
    }
    const code = (err as NodeJS.ErrnoException).code;
    const why = code && code !== 'ABORT_ERR' ? code : (err as Error).message;
    return new MldsError('MLDS_FETCH_FAILED', `${describeUrl(url)} could not be fetched: ${why}`, field, {
      reason: 'network',
      url: describeUrl(url),
    });
  };

  let out: FileHandle | undefined;
  let res: Hop | undefined;
  try {
    let method = opts.method ?? 'GET';
    let body = opts.body;
    let redirects = 0;
    while (true) {
      checkHost(url, trail);
      // The lookup is skipped for an IP written in the URL: checked here instead.
      const literal = url.hostname.replace(/^\[|\]$/g, '');
      if (isIP(literal)) checkAddress(literal, url, trail);
      const sameOrigin = url.origin === first.origin;
      res = await requestHop(url, {
        method,
        body,
        signal: controller.signal,
        lookup: guardedLookup(url, trail),
        headers: { ...(sameOrigin ? opts.headers : undefined), 'user-agent': userAgent() },
      });
      if (res.remoteAddress !== undefined && addressClass(res.remoteAddress) === 'public') trail.reachedPublic = true;
      if (!REDIRECTS.has(res.status)) break;
      res.close();
      const location = res.headers.get('location');
      if (!location) throw fetchFailed(url, field, 'redirect', `answered ${res.status} without a Location`);
      if (++redirects > maxRedirects)
        throw fetchFailed(url, field, 'redirects', `redirected more than ${maxRedirects} times`);
      let next: URL;
      try {
        next = checkUrl(redirectTarget(location, url), portRange, field);
      } catch (err) {
        const why = err instanceof MldsError ? `a URL that ${err.message}` : 'an invalid URL';
        throw fetchFailed(url, field, 'redirect-refused', `redirected to ${describeUrl(location)}: ${why}`);
      }
      // As browsers do: 303, and 301/302 after a POST, continue as a GET without the body.
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
        method = method === 'HEAD' ? 'HEAD' : 'GET';
        body = undefined;
      }
      url = next;
      trail.via = 'redirect';
    }
    if (res.status < 200 || res.status > 299) {
      res.close();
      throw new MldsError('MLDS_FETCH_FAILED', `${describeUrl(url)} answered HTTP ${res.status}`, field, {
        reason: 'status',
        httpStatus: res.status,
        url: describeUrl(url),
      });
    }
    const declared = res.headers.get('content-encoding') ? undefined : lengthOf(res.headers.get('content-length'));
    if (declared !== undefined && declared > maxBytes) {
      res.close();
      throw tooLarge(url, field, maxBytes, `declares ${declared} bytes`);
    }

    if (opts.toFile) out = await onFile(open(opts.toFile, 'wx', 0o600));
    const chunks: Buffer[] = [];
    const step = opts.progressStep ?? 1024 * 1024;
    let received = 0;
    let reported = 0;
    if (res.body) {
      for await (const chunk of res.body) {
        const value = chunk as Buffer;
        received += value.byteLength;
        if (received > maxBytes) {
          res.close();
          throw tooLarge(url, field, maxBytes, `sent more than ${maxBytes} bytes`);
        }
        if (out) await onFile(out.write(value));
        else chunks.push(value);
        if (opts.onProgress && received - reported >= step) {
          reported = received;
          opts.onProgress({ received, total: declared, done: false });
        }
      }
    }
    if (out) {
      await onFile(out.sync());
      await onFile(out.close());
      out = undefined;
    }
    opts.onProgress?.({ received, total: declared, done: true });
    return {
      url: url.href,
      firstUrl: first.href,
      reachedPublic: trail.reachedPublic,
      status: res.status,
      headers: res.headers,
      contentType: res.headers.get('content-type') ?? undefined,
      bytes: received,
      redirects,
      body: opts.toFile ? undefined : Buffer.concat(chunks, received),
      file: opts.toFile,
    };
  } catch (err) {
    res?.close();
    const failure = fail(err);
    if (out) {
      await out.close().catch(() => undefined);
      await unlink(opts.toFile as string).catch(() => undefined);
    }
    throw failure;
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onOuterAbort);
  }
}

/** The rules' starting point: a URL asked for directly, or a link read from a fetched document. */
function trailOf(opts: FetchLimitedOptions, field: string): FetchTrail {
  const from = opts.linkedFrom;
  if (!from) return { reachedPublic: false, via: 'configured', field };
  const hosts = new Set([from.url, from.firstUrl].map((u) => hostKey(new URL(u).hostname)));
  for (const h of opts.allowHosts ?? []) hosts.add(hostKey(h));
  return { reachedPublic: from.reachedPublic, hosts, via: 'link', field };
}

function fetchFailed(url: URL, field: string, reason: string, what: string): MldsError {
  return new MldsError('MLDS_FETCH_FAILED', `${describeUrl(url)} ${what}`, field, { reason, url: describeUrl(url) });
}

function tooLarge(url: URL, field: string, maxBytes: number, what: string): MldsError {
  return new MldsError('MLDS_FETCH_TOO_LARGE', `${describeUrl(url)} ${what}; the limit is ${maxBytes} bytes`, field, {
    reason: 'size',
    limit: maxBytes,
    url: describeUrl(url),
  });
}

function lengthOf(v: string | null): number | undefined {
  return v !== null && /^\d+$/.test(v) ? Number(v) : undefined;
}
