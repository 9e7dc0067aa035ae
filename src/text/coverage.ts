// Which characters a TrueType/OpenType file has, from fontconfig's own reading of its cmap
// (`fc-query --format %{charset}`: hex ranges "20-7e a0-17f ..."), once per file. pango
// draws a hex box for a character no font has; layout draws a gap instead and reports it.
import { execFileSync } from 'node:child_process';

const charsets = new Map<string, Array<[number, number]> | null>();

function charset(file: string): Array<[number, number]> | null {
  if (charsets.has(file)) return charsets.get(file)!;
  let ranges: Array<[number, number]> | null = null;
  try {
    const out = execFileSync('fc-query', ['--format', '%{charset}\\n', file], {
      encoding: 'utf8',
      timeout: 5000,
      maxBuffer: 4 << 20,
    });
    ranges = out
      .split('\n')[0]
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((r) => {
        const [a, b] = r.split('-').map((h) => parseInt(h, 16));
        return [a, b ?? a] as [number, number];
      });
  } catch {
    // Without fontconfig's tool nothing is known: every character counts as covered.
  }
  charsets.set(file, ranges);
  return ranges;
}

function has(ranges: Array<[number, number]>, cp: number): boolean {
  let lo = 0,
    hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < ranges[mid][0]) hi = mid - 1;
    else if (cp > ranges[mid][1]) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Format characters and variation selectors draw nothing themselves; no font needs them. */
const ZERO_WIDTH = /^(?:[\u200b-\u200f\u202a-\u202e\u2060-\u2069\s]|\ufe0e|\ufe0f|[\ufe00-\ufe0d])$/u;

/** Whether some font of `files` has `ch` (or nothing can tell: then it is assumed so). */
export function covered(ch: string, files: readonly string[]): boolean {
  const cp = ch.codePointAt(0)!;
  if (cp < 0x20 || ZERO_WIDTH.test(ch)) return true;
  let known = false;
  for (const f of files) {
    const r = charset(f);
    if (!r) continue;
    known = true;
    if (has(r, cp)) return true;
  }
  return !known;
}
