// What the systemd watchdog is fed on: every unit's frame loop works and HTTP answers. A
// stuck loop or a dead server withholds WATCHDOG=1, and systemd restarts the service.
import type { RuntimeContext } from '../capability/component-contract.js';
import { probeHttp } from './http-probe.js';

export interface LivenessOptions {
  /** A frame overdue, or held by an output, for longer than this is a stall. */
  maxLagMs: number;
  /** How long the HTTP probe may wait for its answer. */
  httpTimeoutMs: number;
}

/** Why the service is not alive (one line per cause), or an empty list while it is. */
export async function livenessProblems(
  ctx: Pick<RuntimeContext, 'units' | 'ports'>,
  o: LivenessOptions,
): Promise<string[]> {
  const problems: string[] = [];
  for (const [key, unit] of ctx.units()) {
    const why = unit.loop.stalled(o.maxLagMs);
    if (why) problems.push(`frame loop of unit ${key}: ${why}`);
  }
  const http = await probeHttp(ctx.ports().http, o.httpTimeoutMs);
  if (http) problems.push(http);
  return problems;
}
