// The status a unit keeps retained on `<prefix>/<unit>/status`: a summary that stays under
// STATUS_MAX_BYTES whatever the configuration, so a broker holding 500 units holds 1 MB. The
// whole /status document goes out on request (the `status` admin command).
//
//   {"v":1,"version","generation","state":"ok"|"problems","startedAt","at","uptimeSeconds",
//    "displays":[{"id","layout","text","blanked"?}],"brightness":[{"id","percent","mode"}],
//    "problems":[{"source","message"}],"problemCount", "update"?,
//    "host":{"hostname","addresses":[{"interface","address","mac"}]},"groups":[...],"digest"?,
//    "clock":{"synchronized","offsetMs","source"}}
//   "update" (with RAUC): {"state","percent"?,"slot": the booted slot,"outcome"?,"version"?: the last update's}
import type { Status } from '../capability/status-types.js';
import { UPDATE, type UpdateStatus } from '../capability/update-status.js';
import { inventory } from './inventory.js';

export const STATUS_MAX_BYTES = 2048;
const TEXT_CHARS = 40;
const MESSAGE_CHARS = 120;
const MAX_PROBLEMS = 3;

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

interface BrightnessFacts {
  units?: Array<{ id: string; brightness: number; mode: string; blanked?: boolean }>;
}

/** The summary of `s`; `extra` (the update's state, the booted slot) is kept whole. */
export function compactStatus(s: Status, extra: Record<string, unknown> = {}): string {
  const brightness = (s.components.brightness as BrightnessFacts | undefined)?.units ?? [];
  const blankedMains = new Set(brightness.filter((u) => u.blanked).map((u) => u.id));
  // Brightness is per physical unit (its MAIN display): every display of a blanked unit is dark.
  const blanked = new Set(s.displays.filter((d) => d.unitMain && blankedMains.has(d.id)).map((d) => d.unit));
  const doc = {
    v: 1,
    version: s.version,
    generation: s.config.generation,
    state: s.problems.length ? 'problems' : 'ok',
    startedAt: s.startedAt,
    at: s.time,
    uptimeSeconds: s.uptimeSeconds,
    ...updateSummary(s.components[UPDATE.name] as UpdateStatus | undefined),
    ...inventory(s),
    ...extra,
    displays: s.displays.map((d) => ({
      id: d.id,
      layout: d.layout,
      // The first area with text: enough to tell what a sign shows without a screenshot.
      text: cut(d.areas.find((a) => a.text)?.text ?? '', TEXT_CHARS),
      ...(blanked.has(d.unit) ? { blanked: true } : {}),
    })),
    brightness: brightness.map((u) => ({ id: u.id, percent: u.brightness, mode: u.mode })),
    problems: s.problems
      .slice(0, MAX_PROBLEMS)
      .map((p) => ({ source: p.source, message: cut(p.message, MESSAGE_CHARS) })),
    problemCount: s.problems.length,
  };
  let text = JSON.stringify(doc);
  // Many displays: the texts go first, then displays beyond what fits are counted, not listed.
  if (Buffer.byteLength(text) > STATUS_MAX_BYTES) {
    for (const d of doc.displays) d.text = '';
    text = JSON.stringify(doc);
  }
  while (Buffer.byteLength(text) > STATUS_MAX_BYTES && doc.displays.length > 0) {
    doc.displays.pop();
    text = JSON.stringify({ ...doc, displaysNotListed: s.displays.length - doc.displays.length });
  }
  return text;
}

/** The update's few facts: a handful of short fields whatever RAUC says. */
function updateSummary(u: UpdateStatus | undefined): Record<string, unknown> {
  if (!u) return {};
  return {
    update: {
      state: u.state,
      ...(u.percent !== null ? { percent: u.percent } : {}),
      slot: u.bootSlot === null ? null : cut(u.bootSlot, 16),
      ...(u.last ? { outcome: u.last.outcome, ...(u.last.version ? { version: cut(u.last.version, 32) } : {}) } : {}),
    },
  };
}

/**
 * On changes the retained status goes out at most this often (a fleet of 500 units changing at once stays 100 messages
 * a second).
 */
export const STATUS_MIN_GAP_MS = 5000;

export interface StatusTarget {
  status(): Status;
  send(doc: string): void;
}

/**
 * When the summary goes out: on a change (what it says, not its clock) at most every STATUS_MIN_GAP_MS, and on every
 * interval.
 */
export class StatusPublisher {
  private interval: ReturnType<typeof setInterval> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastAt = 0;
  private lastSaid = '';

  constructor(private readonly target: () => StatusTarget | undefined) {}

  /** Publishes every `ms` whatever changed (the broker may have lost the retained copy). */
  every(ms: number): void {
    if (this.interval) clearInterval(this.interval);
    this.interval = setInterval(() => this.now(true), ms);
    this.interval.unref();
  }

  /** Something changed: the summary goes out once the gap since the last one has passed. */
  soon(): void {
    if (this.timer) return;
    const wait = Math.max(0, this.lastAt + STATUS_MIN_GAP_MS - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.now();
    }, wait);
  }

  /** Publishes now when the summary says something new, or `always`. */
  now(always = false): void {
    const t = this.target();
    if (!t) return;
    let doc: string;
    try {
      doc = compactStatus(t.status());
    } catch {
      return;
    }
    const said = doc.replace(/"(at|uptimeSeconds)":[^,]*,/g, '');
    if (!always && said === this.lastSaid) return;
    this.lastSaid = said;
    this.lastAt = Date.now();
    t.send(doc);
  }

  stop(): void {
    if (this.interval) clearInterval(this.interval);
    if (this.timer) clearTimeout(this.timer);
    this.interval = this.timer = undefined;
  }
}
