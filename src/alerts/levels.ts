// The priority levels the alerts set on the displays, one per display and entry priority: the
// alert that ranks first and that the control path takes is set, renewed while it lasts, and
// cleared once no alert of that level is left. An alert the control path refuses (a value its
// area cannot take) is passed over for the next one and reported until it leaves or changes;
// a level that cannot be set for another reason (the state folder, say) is tried again at the
// next fetch and reported meanwhile.
import type { RuntimeContext } from '../capability/component-contract.js';
import type { AlertFeedConfig } from '../config/alert-speech-types.js';
import { MldsError } from '../errors.js';
import type { ServiceProblem } from '../problem.js';
import { isoTime } from '../util/clock.js';
import type { HeldLevel, SavedAlert } from './saved.js';
import { rank } from './select.js';

/** An alert in force that may show at a level: the value it sends is its text made plain for the area. */
export interface Candidate {
  entry: AlertFeedConfig;
  alert: SavedAlert;
  value: string;
}

interface Refusal {
  display: string;
  priority: string;
  identifier: string;
  event: string;
  value: string;
  message: string;
  since: number;
}
interface Fault {
  message: string;
  since: number;
}

/**
 * A level without an alert `expires` lasts this many intervals (at least LEVEL_MIN_S), renewed
 * while the alert is in force.
 */
const LEVEL_INTERVALS = 10;
const LEVEL_MIN_S = 600;
const DAY_S = 86_400;

/** `<display>|<priority>`: how alerts.json names a level. */
export const levelKey = (display: string, priority: number): string => `${display}|${priority}`;

function splitLevel(k: string): [string, string] {
  const at = k.lastIndexOf('|');
  return [k.slice(0, at), k.slice(at + 1)];
}

export class AlertLevels {
  /** By `<level>|<alert key>`. */
  private readonly refused = new Map<string, Refusal>();
  /** By level. */
  private readonly faults = new Map<string, Fault>();

  /**
   * Sets, renews or clears each level of `held` to match `wanted` (candidates by level, in any
   * order); returns whether `held` changed.
   */
  async sync(
    ctx: RuntimeContext,
    now: number,
    wanted: ReadonlyMap<string, Candidate[]>,
    held: Record<string, HeldLevel>,
  ): Promise<boolean> {
    let changed = false;
    const shown = new Set<string>();
    const current = new Set<string>();
    for (const [k, candidates] of wanted) {
      const ranked = [...candidates].sort((a, b) => rank(a.alert, b.alert));
      for (const c of ranked) current.add(`${k}|${c.alert.key}`);
      const r = await this.setLevel(ctx, now, k, ranked, held);
      if (r !== 'none') shown.add(k);
      if (r === 'set') changed = true;
    }
    for (const k of this.refused.keys()) if (!current.has(k)) this.refused.delete(k);
    for (const k of this.faults.keys()) if (!wanted.has(k)) this.faults.delete(k);
    for (const k of Object.keys(held)) {
      if (shown.has(k)) continue;
      const [display, priority] = splitLevel(k);
      try {
        await ctx.apply(new URLSearchParams({ id: display, priority, layout: '' }).toString(), 'cap');
      } catch (err) {
        // A display that left the configuration has no level to clear.
        ctx.log.warn({ display, priority, err: (err as Error).message }, 'alert level could not be cleared');
      }
      delete held[k];
      changed = true;
    }
    return changed;
  }

  /** The first candidate the control path takes: kept as held, or set; 'none' when every one is refused. */
  private async setLevel(
    ctx: RuntimeContext,
    now: number,
    k: string,
    ranked: Candidate[],
    held: Record<string, HeldLevel>,
  ): Promise<'kept' | 'set' | 'none'> {
    const h = held[k];
    const [display, priority] = splitLevel(k);
    for (const c of ranked) {
      const rk = `${k}|${c.alert.key}`;
      if (this.refused.get(rk)?.value === c.value) continue;
      const window = Math.min(Math.max(LEVEL_INTERVALS * c.entry.interval, LEVEL_MIN_S), DAY_S) * 1000;
      const end = Math.min(c.alert.expiresAt ?? now + window, now + DAY_S * 1000);
      const renewDue =
        !!h && h.levelUntil < end && h.levelUntil - now < Math.max(3 * c.entry.interval * 1000, window / 2);
      const show = `${c.entry.show.layout}/${c.entry.show.area}`;
      if (h && h.key === c.alert.key && h.text === c.value && h.show === show && !renewDue) return 'kept';
      const seconds = Math.max(1, Math.ceil((end - now) / 1000));
      const q = new URLSearchParams({
        id: display,
        layout: c.entry.show.layout,
        [c.entry.show.area]: c.value,
        priority,
        expires: String(seconds),
        inumber: `cap:${c.alert.identifier}`.slice(0, 255),
      });
      try {
        await ctx.apply(q.toString(), 'cap');
        this.faults.delete(k);
        held[k] = { key: c.alert.key, text: c.value, show, levelUntil: now + seconds * 1000 };
        return 'set';
      } catch (err) {
        const message = (err as Error).message;
        if (err instanceof MldsError && err.status === 400) {
          // The alert's own fault: the next one in rank may show instead.
          const { identifier, event } = c.alert;
          this.refused.set(rk, { display, priority, identifier, event, value: c.value, message, since: now });
          const why = 'alert refused by the control path; the next in rank is tried';
          ctx.log.warn({ display, identifier, code: err.code, err: message }, why);
          continue;
        }
        this.faults.set(k, { message, since: this.faults.get(k)?.since ?? now });
        // Tried again at the next fetch; a level already set stays meanwhile.
        return h ? 'kept' : 'none';
      }
    }
    return 'none';
  }

  /** The refusal of this alert at this level, for /status. */
  refusal(display: string, priority: number, key: string): string | undefined {
    return this.refused.get(`${levelKey(display, priority)}|${key}`)?.message;
  }

  /** What cannot be set, by level, for /status. */
  faultsByLevel(): Record<string, string> {
    return Object.fromEntries([...this.faults].map(([k, f]) => [k, f.message]));
  }

  problems(): ServiceProblem[] {
    const refused = [...this.refused.values()].map((r): ServiceProblem => ({
      source: 'alerts',
      message:
        `alert ${r.identifier} (${r.event}) is not shown on ${r.display} at priority ${r.priority}: ` + r.message,
      since: isoTime(r.since),
    }));
    const faults = [...this.faults].map(([k, f]): ServiceProblem => {
      const [display, priority] = splitLevel(k);
      const message =
        `the alert level ${priority} of ${display} cannot be set: ${f.message}; ` + 'tried again at the next fetch';
      return { source: 'alerts', message, since: isoTime(f.since) };
    });
    return [...refused, ...faults];
  }

  /** After a reload the areas' rules may differ: refused alerts are tried again. */
  forget(): void {
    this.refused.clear();
    this.faults.clear();
  }
}
