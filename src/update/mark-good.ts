// `mlds mark-good`, run by mlds-mark-good.service after a boot: once the local service has
// answered /status without a fault for `quietSeconds` in a row, the booted slot is marked good
// through RAUC, which ends the bootloader's count of boot attempts. A fault that lasts past the
// deadline leaves the slot unmarked: the bootloader falls back to the other slot once the
// attempts run out. A marker in the state folder (`slot-marked.json`) tells the service. RAUC
// refuses to mark while it installs (an update that came within the quiet time); that refusal
// is asked again until the deadline.
//
// A fault: no answer, a configuration that did not load (`config.status`), an output failing
// (`displays[].output.consecutiveFailures`), or a problem of the service itself in `problems`.
// Problems of the world outside the unit (a broker, a feed, the clock's source, a feedback
// address) are not the new software's fault and do not hold the marking back.
import path from 'node:path';
import type { RaucClient } from './rauc.js';
import { bootId } from './update-record.js';
import { writeFileAtomic } from '../util/atomic-file.js';

/** Problem sources that belong to the world outside the unit. */
const OUTSIDE = new Set(['mqtt', 'clock', 'feeds', 'alerts', 'cap', 'departures', 'feedback', 'request', 'speech']);
/**
 * Reported, not failing: a fell-back update stays listed until the next one, and every later boot must still be marked.
 */
const REPORTED = new Set(['update']);
const POLL_MS = 1000;
const ASK_TIMEOUT_MS = 5000;
/**
 * RAUC's refusal to mark while it does something else (an install the service started within
 * the quiet time): not a verdict on the slot, so it is asked again until the deadline.
 */
const RAUC_BUSY = /already processing a different method/;
const BUSY_RETRY_MS = 2000;

export function markerFile(stateDir: string): string {
  return path.join(stateDir, 'slot-marked.json');
}

export interface MarkGoodOptions {
  /** http://127.0.0.1:<port> of the local service. */
  base: string;
  apiKey?: string;
  quietSeconds: number;
  deadlineSeconds: number;
  stateDir: string;
  rauc: RaucClient;
  say(line: string): void;
}

interface StatusDoc {
  config?: { status?: string };
  displays?: Array<{ id: string; output?: { consecutiveFailures?: number } }>;
  problems?: Array<{ source: string; message: string }>;
}

/** The fault /status shows now, or undefined when there is none. */
export async function faultNow(base: string, apiKey?: string): Promise<string | undefined> {
  let doc: StatusDoc;
  try {
    const res = await fetch(`${base}/status`, {
      headers: apiKey ? { 'X-API-Key': apiKey } : {},
      signal: AbortSignal.timeout(ASK_TIMEOUT_MS),
    });
    if (res.status !== 200) return `/status answered HTTP ${res.status}`;
    doc = (await res.json()) as StatusDoc;
  } catch (err) {
    return `/status does not answer: ${(err as Error).message}`;
  }
  if (doc.config?.status !== 'ok') return 'the configuration did not load (config.status)';
  const failing = doc.displays?.find((d) => (d.output?.consecutiveFailures ?? 0) > 0);
  if (failing) return `display ${failing.id}: its output is failing`;
  const own = doc.problems?.find((p) => !OUTSIDE.has(p.source) && !REPORTED.has(p.source));
  if (own) return `problem (${own.source}): ${own.message}`;
  return undefined;
}

/** Resolves with the exit code: 0 marked good, 1 a fault lasted past the deadline (not marked), 2 RAUC refused. */
export async function markGood(o: MarkGoodOptions): Promise<number> {
  const started = Date.now();
  let quietSince: number | undefined;
  let lastFault = 'no answer yet';
  while (true) {
    const fault = await faultNow(o.base, o.apiKey);
    const now = Date.now();
    if (fault !== undefined) {
      if (fault !== lastFault || quietSince !== undefined) o.say(`fault: ${fault}`);
      lastFault = fault;
      quietSince = undefined;
    } else {
      if (quietSince === undefined) o.say(`no fault; waiting ${o.quietSeconds} s without one`);
      quietSince ??= now;
      if (now - quietSince >= o.quietSeconds * 1000) break;
    }
    if (now - started >= o.deadlineSeconds * 1000) {
      o.say(
        `not marked: a fault after ${o.deadlineSeconds} s (${lastFault}); the bootloader falls back once the ` +
          `boot attempts run out`,
      );
      return 1;
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  let r: { slot: string; message: string };
  for (let said = false; ; said = true) {
    try {
      r = await o.rauc.mark('good', 'booted');
      break;
    } catch (err) {
      const message = (err as Error).message;
      if (!RAUC_BUSY.test(message) || Date.now() - started >= o.deadlineSeconds * 1000) {
        o.say(`RAUC did not mark the slot: ${message}`);
        return 2;
      }
      if (!said) o.say(`RAUC is busy (${message}); asking again every ${BUSY_RETRY_MS / 1000} s`);
      await new Promise((res) => setTimeout(res, BUSY_RETRY_MS));
    }
  }
  try {
    const slot = await o.rauc.bootSlot();
    await writeFileAtomic(
      markerFile(o.stateDir),
      `${JSON.stringify({ slot, raucSlot: r.slot, bootId: await bootId(), at: new Date().toISOString() })}\n`,
    );
  } catch (err) {
    o.say(`the marker for the service cannot be written: ${(err as Error).message}`);
  }
  o.say(`marked good: ${r.message}`);
  return 0;
}
