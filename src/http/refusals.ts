import type { ErrorCode } from '../errors.js';
import { refusalLog, type WarnLog } from '../log/refusal-log.js';

/**
 * Answers koa gives to requests no handler takes: logged as counts, not one line each. A
 * faulty control message (400) and a wrong key (401, 403) stay one line each: the TPCM's
 * faults and the audit trail of keys tried (the rate limit bounds both).
 */
const REFUSED: ReadonlySet<string> = new Set<ErrorCode>([
  'MLDS_NOT_FOUND',
  'MLDS_METHOD_NOT_ALLOWED',
  'MLDS_TOO_MANY_STREAMS',
]);

export function isRefusal(code: unknown): boolean {
  return typeof code === 'string' && REFUSED.has(code);
}

/**
 * Every refusal of one app (koa's and the servers' around it: 404, 405, 414, 431, parser
 * errors, CONNECT) counts against the client's rate like a served request, and is logged
 * as one line per client per second: `refused: N requests from <ip>`, with the count per
 * status and the first refused URL. 429s keep their own line (rateLimit in middleware.ts).
 */
export class Refusals {
  private readonly count: (ip: string, kind?: string, example?: string) => void;

  /** `take` counts a request of `ip` in its rate window (RateLimiter.take). */
  constructor(
    private readonly take: (ip: string) => boolean,
    log?: WarnLog,
  ) {
    this.count = refusalLog(log, (ip, n, { kinds, example }) => [
      { ip, refused: n, statuses: kinds, ...(example ? { example } : {}) },
      `refused: ${n} requests from ${ip} (${Object.entries(kinds)
        .map(([s, k]) => `${s} x${k}`)
        .join(', ')})`,
    ]);
  }

  /** A request refused before koa (it never passed the rate limit): counted in the rate and the log. */
  refused(ip: string, status: number, example?: string): void {
    this.take(ip);
    this.count(ip, String(status), example);
  }

  /** A refusal koa answered (the request already passed the rate limit): counted in the log. */
  logged(ip: string, status: number, example?: string): void {
    this.count(ip, String(status), example);
  }
}
