// The brightness precedence, per physical unit, highest first: a manual value set
// over HTTP, the unit's sensor, a shared sensor listing the unit, brightnessUrl (when
// sensorBrightness is false), the custom schedule file, the daylight schedule. A source that
// fails hands over to the next one down; /status shows which one rules and why.

import type { BrightnessMode as Mode } from '../capability/brightness.js';

export const ORDER: readonly Mode[] = ['manual', 'sensor', 'shared-sensor', 'url', 'schedule', 'daylight', 'fixed'];

/** One source as it stands for one unit. */
export interface Candidate {
  mode: Mode;
  /** The configuration (or a manual request) asks for this source. */
  configured: boolean;
  /** Its percent now; undefined while it has none (failed, stale, not read yet). */
  value?: number;
  /** Where the value comes from, for a person: `sensor /dev/ttyUSB0: 350 lx`. */
  source: string;
  /** Why a configured source has no value. */
  reason?: string;
}

export interface Decision {
  percent: number;
  mode: Mode;
  source: string;
  /** The highest configured source, when it is not the one in use: it failed and handed over. */
  handover?: { from: Mode; reason: string };
}

/** The first configured source with a value wins; `fixed` always has one. */
export function decide(candidates: Candidate[]): Decision {
  const ranked = [...candidates].sort((a, b) => ORDER.indexOf(a.mode) - ORDER.indexOf(b.mode));
  const winner = ranked.find((c) => c.configured && c.value !== undefined) ?? {
    mode: 'fixed' as const,
    value: 100,
    source: 'full brightness',
    configured: true,
  };
  const top = ranked.find((c) => c.configured);
  const decision: Decision = {
    percent: Math.max(0, Math.min(100, Math.round(winner.value!))),
    mode: winner.mode,
    source: winner.source,
  };
  if (top && top.mode !== winner.mode)
    decision.handover = { from: top.mode, reason: top.reason ?? `${top.mode} has no value` };
  return decision;
}
