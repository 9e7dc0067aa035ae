// The fleet as its retained topics tell it, for `mlds fleet`: per unit the last `status`
// (fleet-status.ts), `reported` (reported.ts) and `availability`, each as the broker gave it.
// What comes from the broker is hostile until checked: payloads over MAX_PAYLOAD are not
// decoded, a payload that is not a JSON object is kept as nothing, and at most MAX_UNITS units
// are held.
export const MAX_PAYLOAD = 64 * 1024;
export const MAX_UNITS = 20_000;

type Obj = Record<string, unknown>;

export interface UnitView {
  name: string;
  status?: Obj;
  reported?: Obj;
  availability?: string;
  /** The topics of the unit that hold a message now. */
  held: Set<string>;
  /** The order in which reports arrived, over all units: a report after a publish is newer than it. */
  reportedSeq: number;
}

/** One line of `mlds fleet status` (also its --json entry). */
export interface UnitLine {
  unit: string;
  online: boolean | null;
  state: string | null;
  /** The first problems (the retained status lists up to three), and how many there are. */
  problems: Array<{ source: unknown; message: unknown }>;
  problemCount: number;
  rev: string | null;
  converged: boolean | null;
  failed: Array<{ part: string; message: string }>;
  digest: string | null;
  software: { version: string | null; slot: string | null };
  clock: { synchronized: boolean | null; offsetMs: number | null; source: string | null };
  groups: string[];
  lastSeen: string | null;
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function decode(payload: Buffer): Obj | undefined {
  if (payload.length === 0 || payload.length > MAX_PAYLOAD) return undefined;
  try {
    const v: unknown = JSON.parse(payload.toString('utf8'));
    return isObj(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

export class FleetView {
  readonly units = new Map<string, UnitView>();
  private seq = 0;
  /** When anything last arrived (performance.now()). */
  lastAt = 0;

  constructor(private readonly prefix: string) {}

  /** The subscriptions that fill it. */
  topics(): string[] {
    return ['status', 'reported', 'availability'].map((k) => `${this.prefix}/+/${k}`);
  }

  /** The last report number given: reports with a higher `reportedSeq` came after this call. */
  mark(): number {
    return this.seq;
  }

  take(topic: string, payload: Buffer): void {
    this.lastAt = performance.now();
    const parts = topic.split('/');
    if (parts.length !== 3 || parts[0] !== this.prefix) return;
    const [, name, kind] = parts;
    let u = this.units.get(name);
    // An empty retained message clears a unit's topic; nothing is made for it.
    if (!u) {
      if (payload.length === 0 || this.units.size >= MAX_UNITS) return;
      u = { name, held: new Set(), reportedSeq: 0 };
      this.units.set(name, u);
    }
    if (kind === 'status') u.status = decode(payload);
    else if (kind === 'reported') {
      u.reported = decode(payload);
      u.reportedSeq = ++this.seq;
    } else if (kind === 'availability') u.availability = payload.length <= 16 ? payload.toString('utf8') : undefined;
    else return;
    // A topic that holds something unreadable still shows the unit (with nothing known); one cleared does not.
    if (payload.length) u.held.add(kind);
    else u.held.delete(kind);
    if (!u.held.size) this.units.delete(name);
  }

  /** The units listing `group` in their retained status, by name. */
  members(group: string): string[] {
    return [...this.units.values()]
      .filter((u) => Array.isArray(u.status?.groups) && (u.status.groups as unknown[]).includes(group))
      .map((u) => u.name)
      .sort();
  }

  lines(): UnitLine[] {
    return [...this.units.values()].sort((a, b) => (a.name < b.name ? -1 : 1)).map(lineOf);
  }
}

export function lineOf(u: UnitView): UnitLine {
  const s = u.status ?? {};
  const r = u.reported ?? {};
  const clock = isObj(s.clock) ? s.clock : {};
  const update = isObj(s.update) ? s.update : {};
  const parts = isObj(r.parts) ? r.parts : {};
  const failed = Object.entries(parts)
    .filter(([, p]) => isObj(p) && p.state === 'failed')
    .map(([part, p]) => ({ part, message: String((p as Obj).message ?? '') }));
  return {
    unit: u.name,
    online: u.availability === undefined ? null : u.availability === 'online',
    state: str(s.state),
    problems: (Array.isArray(s.problems) ? s.problems : []).filter(isObj).map((p) => ({
      source: p.source,
      message: p.message,
    })),
    problemCount:
      typeof s.problemCount === 'number' ? s.problemCount : Array.isArray(s.problems) ? s.problems.length : 0,
    rev: str(r.rev),
    converged: typeof r.converged === 'boolean' ? r.converged : null,
    failed,
    digest: str(s.digest) ?? str(r.digest),
    software: { version: str(s.version), slot: str(update.slot) },
    clock: {
      synchronized: typeof clock.synchronized === 'boolean' ? clock.synchronized : null,
      offsetMs: typeof clock.offsetMs === 'number' ? clock.offsetMs : null,
      source: str(clock.source),
    },
    groups: Array.isArray(s.groups) ? s.groups.filter((g): g is string => typeof g === 'string') : [],
    lastSeen: str(s.at),
  };
}
