// The one line `systemctl status mlds` shows (STATUS=): what a technician at the cabinet needs
// first. Where the service is (starting, boot screens, ready, stopping), then what is wrong.
import type { Status } from '../capability/status-types.js';
import type { BootFacts } from '../capability/boot.js';

export type Phase = 'starting' | 'running' | 'stopping';

export interface StatusFacts {
  phase: Phase;
  port: number;
  units: number;
  status?: Pick<Status, 'config' | 'displays' | 'problems'>;
  /** The boot component's facts, as far as this line reads them. */
  boot?: { units: Array<Pick<BootFacts['units'][number], 'unit' | 'showing' | 'until'>> };
  /** Why the watchdog is not being fed (empty while it is). */
  watchdog?: string[];
}

const SCREEN: Record<string, string> = { info: 'info screen', logo: 'start logo', identify: 'identify screen' };

export function statusText(f: StatusFacts): string {
  const parts = [head(f)];
  const cfg = f.status?.config;
  if (cfg?.status === 'faulty' && cfg.faults?.length) {
    const first = cfg.faults[0];
    parts.push(
      `configuration faults: ${cfg.faultTotal ?? cfg.faults.length} in the last load of ${cfg.file}, the last ` +
        `good configuration runs (${first.path || '/'}: ${first.message})`,
    );
  }
  const outputs = failingOutputs(f.status?.displays ?? []);
  if (outputs.length) parts.push(`outputs failing: ${outputs.join('; ')}`);
  if (f.watchdog?.length) parts.push(`watchdog withheld: ${f.watchdog.join('; ')}`);
  const problems = f.status?.problems ?? [];
  if (problems.length) parts.push(`problems: ${problems.map((p) => `${p.source}: ${p.message}`).join('; ')}`);
  return parts.join(' | ');
}

/** One entry per unit whose output is failing now (displays of a unit share its output). */
function failingOutputs(displays: Pick<Status, 'displays'>['displays']): string[] {
  const out = new Map<string, string>();
  for (const d of displays) {
    const o = d.output;
    if (o && o.lastResult === 'error' && !out.has(d.unit))
      out.set(d.unit, `unit ${d.unit}: ${o.lastError ?? 'failing'}`);
  }
  return [...out.values()];
}

function head(f: StatusFacts): string {
  if (f.phase === 'starting') return `starting: ${f.units} unit(s) blanked, waiting for HTTP on port ${f.port}`;
  if (f.phase === 'stopping') return 'stopping';
  const screens = (f.boot?.units ?? []).filter((u) => SCREEN[u.showing]);
  if (screens.length) {
    const list = screens.map(
      (u) => `${SCREEN[u.showing]} on unit ${u.unit}${u.until ? ` until ${u.until.slice(11, 19)}Z` : ''}`,
    );
    return `boot screens: ${list.join(', ')}; HTTP on port ${f.port}`;
  }
  const displays = f.status?.displays.length;
  return `ready: ${displays ?? '?'} display(s) on ${f.units} unit(s), HTTP on port ${f.port}`;
}
