import type { HttpLog } from './middleware.js';

/** Clients whose refusals are counted between two summary lines; the rest share one count. */
const MAX_COUNTED_CLIENTS = 1000;

/**
 * Counts refusals per client and logs each client's count as one warning line at most once a
 * second: a flood of refused requests or connections must not fill a small log disk.
 */
export function refusalLog(log: HttpLog | undefined, line: (ip: string, n: number) => [object, string]): (ip: string) => void {
  const refused = new Map<string, number>();
  let summary: NodeJS.Timeout | undefined;
  const report = () => {
    summary = undefined;
    for (const [ip, n] of refused) log!.warn(...line(ip, n));
    refused.clear();
  };
  return (ip: string) => {
    if (!log) return;
    const who = refused.has(ip) || refused.size < MAX_COUNTED_CLIENTS ? ip : 'other clients';
    refused.set(who, (refused.get(who) ?? 0) + 1);
    summary ??= setTimeout(report, 1000).unref();
  };
}
