// `mlds fleet`, the operator's command against the broker (docs/fleet.md, "The fleet command"):
//   status [--json]                      the retained status and report of every unit
//   apply --group G | --unit U FILE      publishes a desired document, retained, QoS 1
//   rollout --group G FILE --steps S --healthy-for N [--timeout N]   step by step (rollout.ts)
// Exit codes: 0 done, 1 a rollout stopped, 64 a usage error, 65 a faulty FILE, 69 no broker.
import { readFileSync, statSync } from 'node:fs';
import { MAX_DESIRED_BYTES, parseDesired, type Desired } from './desired.js';
import { OperatorLink } from './operator-link.js';
import { operatorSettings, type LinkFlags } from './operator-settings.js';
import { progressOn } from './progress.js';
import { rollout } from './rollout.js';
import { parseSteps, plan } from './rollout-steps.js';
import { table } from './fleet-table.js';

export const EX_ROLLOUT = 1;
export const EX_USAGE = 64;
export const EX_DATA = 65;
export const EX_UNAVAILABLE = 69;
const DEFAULT_TIMEOUT_S = 900;

export interface FleetArgs extends LinkFlags {
  json?: boolean;
  group?: string;
  unit?: string;
  steps?: string;
  healthyFor?: string;
  timeout?: string;
}

class Refusal extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

/** A topic level: MQTT gives `/`, `+`, `#` and NUL meaning (as config/mqtt.ts checks a unit's names). */
function level(flag: string, v: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/^[^/+#\u0000]{1,64}$/.test(v)) throw new Refusal(`${flag} must be 1 to 64 characters without / + #`, EX_USAGE);
  return v;
}

/** The document of FILE, checked as the unit checks it, compacted: or a refusal naming the field. */
function readDocument(file: string | undefined): { text: string; doc: Desired } {
  if (file === undefined) throw new Refusal('give the desired document FILE', EX_USAGE);
  let buf: Buffer;
  try {
    const size = statSync(file).size;
    if (size > MAX_DESIRED_BYTES) throw new Refusal(`${file}: ${size} bytes; at most ${MAX_DESIRED_BYTES}`, EX_DATA);
    buf = readFileSync(file);
  } catch (err) {
    if (err instanceof Refusal) throw err;
    throw new Refusal(`${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, EX_DATA);
  }
  const p = parseDesired(buf);
  if (!p.ok) throw new Refusal(`${file}: ${p.message}`, EX_DATA);
  if (!p.doc) throw new Refusal(`${file} is empty: a desired document is a JSON object`, EX_DATA);
  return { text: JSON.stringify(JSON.parse(buf.toString('utf8'))), doc: p.doc };
}

function seconds(flag: string, v: string | undefined, dflt?: number): number {
  if (v === undefined) {
    if (dflt === undefined) throw new Refusal(`${flag} N is needed (whole seconds)`, EX_USAGE);
    return dflt;
  }
  const n = Number(v);
  if (!/^\d+$/.test(v) || n > 86400) throw new Refusal(`${flag} must be whole seconds from 0 to 86400`, EX_USAGE);
  return n;
}

async function connected<T>(a: FleetArgs, run: (link: OperatorLink) => Promise<T>): Promise<T> {
  const s = operatorSettings(a);
  if (!s.ok) throw new Refusal(s.faults.join('\n'), EX_USAGE);
  let link: OperatorLink;
  try {
    link = await OperatorLink.open(s.settings);
  } catch (err) {
    throw new Refusal((err as Error).message, EX_UNAVAILABLE);
  }
  try {
    return await run(link);
  } catch (err) {
    // The broker went away, or did not acknowledge: said as such, never as a crash.
    if (err instanceof Refusal) throw err;
    throw new Refusal((err as Error).message, EX_UNAVAILABLE);
  } finally {
    await link.close();
  }
}

async function status(a: FleetArgs): Promise<number> {
  return connected(a, async (link) => {
    await link.watch();
    const lines = link.view.lines();
    if (a.json) console.log(JSON.stringify(lines, null, 1));
    else console.log(table(lines));
    return 0;
  });
}

async function apply(a: FleetArgs, file: string | undefined): Promise<number> {
  if ((a.group === undefined) === (a.unit === undefined))
    throw new Refusal('give one of --group G or --unit U', EX_USAGE);
  const { text, doc } = readDocument(file);
  return connected(a, async (link) => {
    const topic =
      a.group !== undefined
        ? `${link.prefix}/group/${level('--group', a.group)}/desired`
        : `${link.prefix}/${level('--unit', a.unit!)}/desired`;
    await link.publishRetained(topic, text);
    console.log(`published rev ${doc.rev ?? '(none)'} to ${topic} (retained, ${Buffer.byteLength(text)} bytes)`);
    return 0;
  });
}

async function roll(a: FleetArgs, file: string | undefined): Promise<number> {
  if (a.group === undefined) throw new Refusal('rollout needs --group G', EX_USAGE);
  const group = level('--group', a.group);
  const steps = parseSteps(a.steps ?? '');
  if (typeof steps === 'string') throw new Refusal(a.steps === undefined ? '--steps is needed' : steps, EX_USAGE);
  const healthyFor = seconds('--healthy-for', a.healthyFor);
  const timeout = seconds('--timeout', a.timeout, Math.max(DEFAULT_TIMEOUT_S, healthyFor * 2));
  if (timeout <= healthyFor) throw new Refusal('--timeout must be longer than --healthy-for', EX_USAGE);
  const { text, doc } = readDocument(file);
  if (doc.rev === undefined) {
    throw new Refusal(`${file}: "rev" is needed for a rollout: each unit's report is matched by it`, EX_DATA);
  }
  return connected(a, async (link) => {
    await link.watch();
    const units = link.view.members(group);
    if (!units.length) throw new Refusal(`no unit's retained status lists the group "${group}"`, EX_ROLLOUT);
    const p = plan(steps, units);
    const say = progressOn(process.stdout);
    say.event(`rollout of rev ${doc.rev} to ${units.length} unit(s) of group ${group} in ${p.length} step(s)`);
    const r = await rollout(
      link,
      { group, doc: text, rev: doc.rev!, steps: p, healthyForMs: healthyFor * 1000, timeoutMs: timeout * 1000 },
      say,
    );
    if (!r.ok) throw new Refusal(r.message, EX_ROLLOUT);
    const reached = p.flat().length;
    const left = reached < units.length ? `; ${units.length - reached} left as they were (--steps)` : '';
    say.event(`rollout of rev ${doc.rev} done: ${reached} unit(s)${left}`);
    return 0;
  });
}

/** Runs `mlds fleet SUB ...`; returns the exit code, having said why on stderr when it is not 0. */
export async function fleetCommand(sub: string | undefined, file: string | undefined, a: FleetArgs): Promise<number> {
  try {
    if (sub === 'status') return await status(a);
    if (sub === 'apply') return await apply(a, file);
    if (sub === 'rollout') return await roll(a, file);
    throw new Refusal(
      sub ? `unknown fleet command "${sub}" (status, apply, rollout)` : 'give status, apply or rollout',
      EX_USAGE,
    );
  } catch (err) {
    if (!(err instanceof Refusal)) throw err;
    console.error(`mlds fleet: ${err.message}`);
    return err.code;
  }
}
