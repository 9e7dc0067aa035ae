// The steps of `mlds fleet rollout --steps 1,10%,100%`: each step is how many of the group's
// units have the document once it is done, as a count or a share (rounded up, so 10% of 4
// units is 1). Steps that reach no further than the one before are dropped.
export const MAX_STEPS = 100;

export type Step = { count: number } | { percent: number };

export function parseSteps(text: string): Step[] | string {
  const items = text.split(',').map((s) => s.trim());
  if (items.length > MAX_STEPS) return `--steps lists ${items.length} steps; at most ${MAX_STEPS} are taken`;
  const steps: Step[] = [];
  for (const item of items) {
    const pct = /^(\d{1,3}(?:\.\d+)?)%$/.exec(item);
    if (pct) {
      const percent = Number(pct[1]);
      if (percent <= 0 || percent > 100) return `--steps: "${item}" is not a share from 0% to 100%`;
      steps.push({ percent });
    } else if (/^\d{1,6}$/.test(item) && Number(item) > 0) steps.push({ count: Number(item) });
    else return `--steps: "${item.slice(0, 20)}" is neither a number of units (1, 5) nor a share (10%, 100%)`;
  }
  return steps;
}

/** The units of each step, in order, from the group's `units`: every step takes new ones only. */
export function plan(steps: Step[], units: string[]): string[][] {
  const out: string[][] = [];
  let done = 0;
  for (const s of steps) {
    const reach = Math.min(units.length, 'count' in s ? s.count : Math.ceil((s.percent * units.length) / 100));
    if (reach <= done) continue;
    out.push(units.slice(done, reach));
    done = reach;
  }
  return out;
}
