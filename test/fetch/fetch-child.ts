// Runs fetches in a process of their own (inside a network namespace, or with a certificate
// authority of the test's): argv[2] is a JSON list of cases; each line of stdout is one case's
// outcome as JSON. A case with `linkFrom` first fetches that document, then `url` as a link read from it.
import { MldsError } from '../../src/errors.js';
import { fetchLimited } from '../../src/fetch/fetch-limited.js';

export interface FetchCase {
  url: string;
  linkFrom?: string;
  allowHosts?: string[];
}
export type Outcome =
  | { ok: true; body: string; reachedPublic: boolean; redirects: number }
  | { ok: false; code: string; rule?: string; message: string };

for (const c of JSON.parse(process.argv[2]) as FetchCase[]) {
  let out: Outcome;
  try {
    const linkedFrom = c.linkFrom === undefined ? undefined : await fetchLimited(c.linkFrom);
    const r = await fetchLimited(c.url, { linkedFrom, allowHosts: c.allowHosts, timeoutMs: 10_000 });
    out = { ok: true, body: r.body!.toString(), reachedPublic: r.reachedPublic, redirects: r.redirects };
  } catch (err) {
    const e = err as MldsError;
    out = { ok: false, code: e.code ?? String(err), rule: e.details?.rule as string | undefined, message: e.message };
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
}
