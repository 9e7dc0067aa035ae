// Shared by the media area tests: media files made by ffmpeg, and the processes a test
// process has started (read from /proc), to prove none outlives its area.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export type Rgb = [number, number, number];

/** ffmpeg writes `file` from the lavfi source `source`, with `args` before the file. */
function lavfi(file: string, source: string, ...args: string[]): void {
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', source, ...args, file]);
}

/** The test video's picture in second s (0, 1, 2): left half, right half. */
export const BARS: Array<{ left: Rgb; right: Rgb }> = [
  { left: [255, 0, 0], right: [0, 0, 255] },
  { left: [0, 255, 0], right: [255, 255, 255] },
  { left: [0, 0, 255], right: [255, 255, 0] },
];

/** Writes a 3 s MP4 (64x36, `fps` frames per second) whose two colour bars change every second (BARS). */
export function makeBars(file: string, fps = 10, size = '64x36'): void {
  const ch = (i: 0 | 1 | 2, side: 'left' | 'right') => BARS.map((b, s) => `${b[side][i]}*eq(floor(T),${s})`).join('+');
  const expr = (i: 0 | 1 | 2) => `if(lt(X,W/2),${ch(i, 'left')},${ch(i, 'right')})`;
  lavfi(
    file,
    `color=c=black:s=${size}:r=${fps}:d=3,format=rgb24,geq=r='${expr(0)}':g='${expr(1)}':b='${expr(2)}'`,
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-g', String(fps)],
  );
}

/** A sine tone of `hz` as WAV or MP3 (by the file's extension). */
export function makeTone(file: string, hz: number, seconds = 2): void {
  lavfi(file, `sine=frequency=${hz}:sample_rate=44100:duration=${seconds}`);
}

export interface Proc {
  pid: number;
  ppid: number;
  comm: string;
  /** CPU seconds used (user + system). */ cpu: number;
}

function processes(): Proc[] {
  const out: Proc[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const f = stat.slice(close + 2).split(' ');
      out.push({
        pid: Number(name),
        ppid: Number(f[1]),
        comm: stat.slice(stat.indexOf('(') + 1, close),
        cpu: (Number(f[11]) + Number(f[12])) / 100,
      });
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

/** `root` and every process descended from it. */
export function tree(root: number): Proc[] {
  const all = processes();
  const mine = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all)
      if (!mine.has(p.pid) && mine.has(p.ppid)) {
        mine.add(p.pid);
        grew = true;
      }
  }
  return all.filter((p) => mine.has(p.pid));
}

/** Processes named `comm` descended from this test process. */
export function descendants(comm: string): number[] {
  return tree(process.pid)
    .filter((p) => p.pid !== process.pid && p.comm === comm)
    .map((p) => p.pid);
}

/** The command line of a process, as its arguments. */
export function argsOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

export function near(a: Rgb, b: Rgb, tol = 48): boolean {
  return a.every((v, i) => Math.abs(v - b[i]) <= tol);
}
