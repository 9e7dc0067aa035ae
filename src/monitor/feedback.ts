import type { DisplayConfig } from '../config/types.js';
import type { StateStore } from '../control/store.js';
import type { Clock } from '../util/clock.js';

export interface FeedbackLog { info(obj: object, msg: string): void; warn(obj: object, msg: string): void }

export interface FeedbackOptions {
  attempts: number;
  firstDelayMs: number;
  timeoutMs: number;
}

const DEFAULTS: FeedbackOptions = { attempts: 5, firstDelayMs: 1000, timeoutMs: 3000 };
/** How many recent confirmations are kept for status and tests: a unit runs for years. */
const KEEP_SENT = 100;
/** The longest inumber a command may carry (src/control/command.ts); a faulty one may be longer. */
const MAX_INUMBER = 255;

/**
 * A faulty command's inumber cut to the limit, so a hostile one is not echoed whole to the
 * feedback server (and into its log). No surrogate pair is split and a lone half (a cron's
 * JSON can hold one) becomes U+FFFD: encodeURIComponent throws on it.
 */
function bounded(inumber: string): string {
  let cut = inumber.length <= MAX_INUMBER ? inumber : inumber.slice(0, MAX_INUMBER);
  if (cut.length < inumber.length && /[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return cut.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/**
 * Confirmations to the feedback server: GET http://confirmIp:confirmPort/mlds?confirm=N&inumber=X.
 * Never awaited by the request that caused it; an equal confirmation to the last one sent for
 * the display is dropped; failed sends retry with doubling delays a bounded number of times.
 */
export class FeedbackSender {
  private readonly opts: FeedbackOptions;
  private inFlight = new Map<string, string>();
  readonly sent: Array<{ id: string; confirm: number; inumber: string; at: number; ok: boolean }> = [];

  constructor(private readonly store: StateStore, private readonly clock: Clock, private readonly log: FeedbackLog, opts: Partial<FeedbackOptions> = {}) {
    this.opts = { ...DEFAULTS, ...opts };
  }

  confirm(display: DisplayConfig, confirm: 0 | 1 | 2, whole: string): void {
    if (!display.confirmIp || !display.confirmPort) return;
    const inumber = bounded(whole);
    const key = `${confirm}\u0000${inumber}`;
    const last = this.store.get().lastFeedback[display.id];
    if ((last && last.confirm === confirm && last.inumber === inumber) || this.inFlight.get(display.id) === key) return;
    this.inFlight.set(display.id, key);
    const url = `http://${display.confirmIp}:${display.confirmPort}/mlds?confirm=${confirm}&inumber=${encodeURIComponent(inumber)}`;
    void this.send(display.id, url, confirm, inumber, key);
  }

  private record(entry: FeedbackSender['sent'][number]): void {
    this.sent.push(entry);
    if (this.sent.length > KEEP_SENT) this.sent.splice(0, this.sent.length - KEEP_SENT);
  }

  private async send(id: string, url: string, confirm: number, inumber: string, key: string): Promise<void> {
    let delay = this.opts.firstDelayMs;
    for (let attempt = 1; attempt <= this.opts.attempts; attempt++) {
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(this.opts.timeoutMs) });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        this.log.info({ id, confirm, inumber, attempt }, 'confirmation sent');
        this.record({ id, confirm, inumber, at: this.clock.now(), ok: true });
        await this.store.setLastFeedback(id, { confirm, inumber });
        break;
      } catch (err) {
        this.log.warn({ id, confirm, inumber, attempt, err: (err as Error).message }, 'confirmation failed');
        if (attempt === this.opts.attempts) { this.record({ id, confirm, inumber, at: this.clock.now(), ok: false }); break; }
        await new Promise((r) => this.clock.setTimeout(() => r(undefined), delay));
        delay *= 2;
      }
    }
    if (this.inFlight.get(id) === key) this.inFlight.delete(id);
  }
}
