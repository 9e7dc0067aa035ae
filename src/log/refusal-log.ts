/** Where the summary lines go (the service's logger). */
export interface WarnLog {
  warn(obj: object, msg: string): void;
}

/** Clients whose refusals are counted between two summary lines; the rest share one count. */
const MAX_COUNTED_CLIENTS = 1000;
/** The first refused URL of a client's second is quoted in its summary line, cut to this length. */
const MAX_EXAMPLE_CHARS = 200;

interface Counted {
  n: number;
  kinds: Map<string, number>;
  example?: string;
}

/**
 * Counts refusals per client and logs each client's count as one warning line at most once a
 * second: a flood of refused requests or connections must not fill a small log disk. `kind`
 * (a status code) and `example` (the first refused URL) end up in `line`'s `detail`.
 */
export function refusalLog(
  log: WarnLog | undefined,
  line: (ip: string, n: number, detail: { kinds: Record<string, number>; example?: string }) => [object, string],
): (ip: string, kind?: string, example?: string) => void {
  const refused = new Map<string, Counted>();
  let summary: NodeJS.Timeout | undefined;
  const report = () => {
    summary = undefined;
    for (const [ip, c] of refused)
      log!.warn(...line(ip, c.n, { kinds: Object.fromEntries(c.kinds), example: c.example }));
    refused.clear();
  };
  return (ip: string, kind?: string, example?: string) => {
    if (!log) return;
    const who = refused.has(ip) || refused.size < MAX_COUNTED_CLIENTS ? ip : 'other clients';
    let c = refused.get(who);
    if (!c) refused.set(who, (c = { n: 0, kinds: new Map(), example: example?.slice(0, MAX_EXAMPLE_CHARS) }));
    c.n++;
    if (kind !== undefined) c.kinds.set(kind, (c.kinds.get(kind) ?? 0) + 1);
    summary ??= setTimeout(report, 1000).unref();
  };
}
