// GPIO lines watched through libgpiod's command-line tools (Debian's `gpiod`, 1.6: bookworm),
// so no native binding is built: one `gpiomon` per watched line, its events read from stdout.
// The line format asked of gpiomon with `--format='%e %o %s %n'`, one event a line:
//   <edge: 1 rising, 0 falling> <line offset> <seconds> <nanoseconds>
// (the kernel's timestamp of the edge, CLOCK_MONOTONIC). Debouncing is done here on those
// timestamps: gpiomon 1.6 has no debounce option, and a timestamp, unlike the arrival of a line
// on a loaded unit, is when the contact bounced.
import { endChild, lastLine, spawnMedia, type Spawned } from '../media/children.js';

export interface GpioEdge {
  rising: boolean;
  offset: number;
  ns: bigint;
}

/** One watched line, as the seam hands it back. */
export interface GpioWatch {
  /** Ends the watch (gpiomon is killed); no event is delivered after it resolves. */
  close(): Promise<void>;
}

/** The seam between readout inputs and the GPIO lines; the tests give a mock. */
export interface GpioLines {
  /**
   * Watches `line` of `chip` for `edge` edges. `onEdge` is called once per edge, in order, with
   * the kernel's timestamp; `onEnd` once if the watch ends by itself (the chip is gone, the line
   * is busy, gpiomon is missing), with the reason; never after close().
   */
  watch(
    chip: string,
    line: number,
    edge: 'rising' | 'falling',
    onEdge: (e: GpioEdge) => void,
    onEnd: (why: string) => void,
  ): GpioWatch;
}

/** gpiomon's arguments for a watch (libgpiod 1.6). */
export function gpiomonArgs(chip: string, line: number, edge: 'rising' | 'falling'): string[] {
  const which = edge === 'rising' ? '--rising-edge' : '--falling-edge';
  return [which, '--line-buffered', '--format=%e %o %s %n', chip, String(line)];
}

/** One line of gpiomon's output in the format gpiomonArgs asks for; undefined for anything else. */
export function parseGpiomonLine(text: string): GpioEdge | undefined {
  const m = /^([01]) (\d{1,4}) (\d{1,12}) (\d{1,9})$/.exec(text.trim());
  if (!m) return undefined;
  const ns = BigInt(m[3]) * 1_000_000_000n + BigInt(m[4]);
  return { rising: m[1] === '1', offset: Number(m[2]), ns };
}

/** Passes an edge on when it comes at least `debounceMs` after the last one passed. */
export function debouncer(debounceMs: number): (e: GpioEdge) => boolean {
  let last: bigint | undefined;
  const gap = BigInt(debounceMs) * 1_000_000n;
  return (e) => {
    if (last !== undefined && e.ns - last < gap) return false;
    last = e.ns;
    return true;
  };
}

/** Lines of output kept while no newline comes: a runaway child never grows memory. */
const LINE_MAX = 256;

export const gpiomonLines: GpioLines = {
  watch(chip, line, edge, onEdge, onEnd) {
    let closed = false;
    let child: Spawned;
    try {
      child = spawnMedia('gpiomon', gpiomonArgs(chip, line, edge), true);
    } catch (err) {
      queueMicrotask(() => onEnd(`gpiomon: ${(err as Error).message}`));
      return {
        close: async () => {
          closed = true;
        },
      };
    }
    let rest = '';
    child.child.stdout?.setEncoding('utf8');
    child.child.stdout?.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop()!.slice(-LINE_MAX);
      for (const l of lines) {
        const e = parseGpiomonLine(l);
        if (e && !closed) onEdge(e);
      }
    });
    child.child.on('error', (err) => {
      if (!closed) {
        closed = true;
        onEnd(`gpiomon: ${err.message}`);
      }
    });
    // 'close', not the exit: the last events and the last words on stderr are read by then.
    child.child.once('close', (code) => {
      if (closed) return;
      closed = true;
      onEnd(`gpiomon: ${lastLine(child.stderr()) || `ended with code ${code}`}`);
    });
    return {
      close: async () => {
        closed = true;
        await endChild(child, 500);
      },
    };
  },
};
