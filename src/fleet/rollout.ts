// `mlds fleet rollout`: the group's units (those whose retained status lists the group) take
// the desired document step by step (rollout-steps.ts), each on its own desired topic, so a
// unit not yet reached keeps what it had. A step is done when every unit of it has reported,
// after the publish, the document's rev on its own topic with every part ok (`converged`), and
// has stayed so, online with no problem in its status, for the time asked. A failed part stops
// the rollout at once; so does the step's deadline. Units of later steps are never touched.
import type { OperatorLink } from './operator-link.js';
import type { Progress } from './progress.js';
import type { UnitView } from './fleet-view.js';

const TICK_MS = 200;

export interface RolloutPlan {
  group: string;
  /** The document as published, and its rev. */
  doc: string;
  rev: string;
  steps: string[][];
  healthyForMs: number;
  timeoutMs: number;
}

export type RolloutResult = { ok: true } | { ok: false; message: string };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Where one unit stands in its step. */
interface Standing {
  /** The report is of this rev on the unit's own topic and came after the publish. */
  ours: boolean;
  converged: boolean;
  failed?: string;
  /** Why it is not healthy and converged, in an operator's words; undefined when it is. */
  waiting?: string;
}

function standing(u: UnitView | undefined, topic: string, rev: string, after: number): Standing {
  const r = u?.reported;
  const revs = isObj(r?.revs) ? r.revs : {};
  if (!u || !r || u.reportedSeq <= after || revs[topic] !== rev) {
    const away = u?.availability === 'offline' ? ' (offline)' : '';
    return { ours: false, converged: false, waiting: `has not reported rev ${rev} yet${away}` };
  }
  const parts = isObj(r.parts) ? r.parts : {};
  for (const [name, p] of Object.entries(parts)) {
    if (isObj(p) && p.state === 'failed') {
      return { ours: true, converged: false, failed: `part "${name}" failed: ${String(p.message ?? '')}` };
    }
  }
  if (r.converged !== true) {
    const pending = Object.entries(parts)
      .filter(([, p]) => isObj(p) && p.state === 'pending')
      .map(([name, p]) => `part "${name}" pending: ${String((p as Obj).message ?? '')}`);
    return { ours: true, converged: false, waiting: pending.join('; ') || 'not converged' };
  }
  if (u.availability === 'offline') return { ours: true, converged: true, waiting: 'offline' };
  const s = u.status;
  if (s?.state !== 'ok') {
    const problems = (Array.isArray(s?.problems) ? s.problems : [])
      .filter(isObj)
      .map((p) => `${String(p.source)}: ${String(p.message)}`);
    return { ours: true, converged: true, waiting: `not healthy: ${problems.join('; ') || 'no status'}` };
  }
  return { ours: true, converged: true };
}

export async function rollout(link: OperatorLink, p: RolloutPlan, say: Progress): Promise<RolloutResult> {
  const total = p.steps.length;
  for (let i = 0; i < total; i++) {
    const units = p.steps[i];
    const step = `step ${i + 1} of ${total}`;
    const untouched = p.steps.slice(i + 1).flat();
    const stop = (why: string): RolloutResult => {
      say.end();
      const rest = untouched.length ? `; not reached, left as they were: ${untouched.join(', ')}` : '';
      return { ok: false, message: `rollout stopped in ${step}: ${why}${rest}` };
    };
    const after = link.view.mark();
    for (const u of units) await link.publishRetained(`${link.prefix}/${u}/desired`, p.doc);
    say.event(`${step}: rev ${p.rev} published to ${units.join(', ')}`);
    const began = performance.now();
    const healthySince = new Map<string, number>();
    const done = new Set<string>();
    const seen = new Set<string>();
    while (done.size < units.length) {
      const lost = link.lostWhy();
      if (lost) return stop(lost);
      const now = performance.now();
      let first: string | undefined;
      for (const u of units) {
        if (done.has(u)) continue;
        const topic = `${link.prefix}/${u}/desired`;
        const st = standing(link.view.units.get(u), topic, p.rev, after);
        if (st.failed) return stop(`unit ${u}: ${st.failed}`);
        if (st.converged && !seen.has(u)) {
          seen.add(u);
          say.event(`${step}: ${u} converged at rev ${p.rev}`);
        }
        if (st.waiting !== undefined) {
          healthySince.delete(u);
          first ??= `${u} ${st.waiting}`;
          continue;
        }
        const since = healthySince.get(u) ?? now;
        healthySince.set(u, since);
        if (now - since >= p.healthyForMs) {
          done.add(u);
          say.event(`${step}: ${u} healthy for ${Math.round(p.healthyForMs / 1000)} s`);
        } else first ??= `${u} healthy for ${Math.floor((now - since) / 1000)} of ${p.healthyForMs / 1000} s`;
      }
      if (done.size === units.length) break;
      if (now - began > p.timeoutMs) {
        const late = units.find((u) => !done.has(u))!;
        const st = standing(link.view.units.get(late), `${link.prefix}/${late}/desired`, p.rev, after);
        const what = st.waiting ?? `not healthy for ${p.healthyForMs / 1000} s`;
        return stop(`unit ${late}: not done within ${Math.round(p.timeoutMs / 1000)} s (--timeout): ${what}`);
      }
      say.state(`${step}: ${done.size} of ${units.length} done; waiting: ${first ?? ''}`);
      await new Promise((r) => setTimeout(r, TICK_MS));
    }
    say.end();
    say.event(`${step} done: ${units.length} unit(s) converged and healthy`);
  }
  return { ok: true };
}
