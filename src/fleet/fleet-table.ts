// `mlds fleet status` as a table: one line per unit, its fields cut to a width a terminal holds
// (a unit's texts come from the broker: a long or odd one must not break the columns).
import type { UnitLine } from './fleet-view.js';

const HEAD = ['UNIT', 'STATE', 'REV', 'CONVERGED', 'DIGEST', 'SOFTWARE', 'CLOCK', 'LAST SEEN'];

// eslint-disable-next-line no-control-regex
const printable = (s: string, n: number) => s.replace(/[\u0000-\u001f\u007f]/g, '?').slice(0, n);

function ago(at: string | null, now: number): string {
  const t = at === null ? NaN : Date.parse(at);
  if (Number.isNaN(t)) return '-';
  const s = Math.round((now - t) / 1000);
  if (s < 0) return `${-s} s ahead`;
  if (s < 120) return `${s} s ago`;
  if (s < 7200) return `${Math.round(s / 60)} min ago`;
  if (s < 172800) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} d ago`;
}

function state(l: UnitLine): string {
  if (l.online === false) return 'offline';
  if (l.state === 'problems') return `problems(${l.problemCount})`;
  return l.state ?? '-';
}

function converged(l: UnitLine): string {
  if (l.converged === null) return '-';
  if (l.converged) return 'yes';
  return l.failed.length ? `failed:${l.failed.map((f) => f.part).join(',')}` : 'pending';
}

function clock(l: UnitLine): string {
  const c = l.clock;
  if (c.synchronized === null) return '-';
  const off = c.offsetMs === null ? '' : ` ${c.offsetMs >= 0 ? '+' : ''}${Math.round(c.offsetMs)}ms`;
  return `${c.synchronized ? 'synced' : 'UNSYNCED'}${off}`;
}

export function table(lines: UnitLine[], now = Date.now()): string {
  const rows = lines.map((l) => [
    printable(l.unit, 64),
    state(l),
    printable(l.rev ?? '-', 24),
    printable(converged(l), 40),
    l.digest === null ? '-' : printable(l.digest, 12),
    printable([l.software.version ?? '-', l.software.slot].filter(Boolean).join(' slot '), 32),
    clock(l),
    ago(l.lastSeen, now),
  ]);
  const widths = HEAD.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [fmt(HEAD), ...rows.map(fmt)].join('\n');
}
