// The retained reported document on `<prefix>/<unit>/reported` (docs/fleet.md):
//   {"rev", "converged", "parts": {"<part>": {"state": "ok"|"pending"|"failed", "message"}}, "digest", "at"}
// `rev`: the merged desired documents' rev (later wins, as every field: null without one); `revs`:
// each document's own rev by topic, so a group's rev stays visible under a unit's own;
// `converged`: every part ok;
// `digest`: the running configuration's digest; `at`: when it was decided (ISO time).

export interface Part {
  state: 'ok' | 'pending' | 'failed';
  message: string;
}

export interface Reported {
  rev: string | null;
  revs: { [topic: string]: string | null };
  converged: boolean;
  parts: { [part: string]: Part };
  digest: string | null;
  at: string;
}

/** A message as long as an operator reads: a fetch's or RAUC's text can run long. */
const MAX_MESSAGE = 500;

export function reportOf(
  rev: string | undefined,
  revs: Reported['revs'],
  parts: { [part: string]: Part },
  digest: string | null,
  at: Date,
): Reported {
  const kept: { [part: string]: Part } = {};
  for (const [name, p] of Object.entries(parts)) {
    kept[name] = { state: p.state, message: p.message.slice(0, MAX_MESSAGE) };
  }
  const converged = Object.values(parts).every((p) => p.state === 'ok');
  return { rev: rev ?? null, revs, converged, parts: kept, digest, at: at.toISOString() };
}
