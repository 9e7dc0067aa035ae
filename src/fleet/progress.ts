// What `mlds fleet rollout` says while it runs. On a terminal, one line rewritten in place (the
// state of the step), with events printed above it; otherwise (a log, a pipe, CI) the events
// only, one plain line each, so the output reads the same afterwards.
export interface Progress {
  /** Something that happened: always printed. */
  event(text: string): void;
  /** The state now: shown in place on a terminal, not printed otherwise. */
  state(text: string): void;
  /** Ends the line in place before the command's last words. */
  end(): void;
}

export function progressOn(out: NodeJS.WriteStream): Progress {
  const tty = out.isTTY === true;
  let shown = '';
  const cols = () => Math.max(20, (out.columns || 80) - 1);
  return {
    event(text) {
      out.write(tty && shown ? `\r\x1b[K${text}\n${shown}` : `${text}\n`);
    },
    state(text) {
      if (!tty) return;
      shown = text.slice(0, cols());
      out.write(`\r\x1b[K${shown}`);
    },
    end() {
      if (tty && shown) out.write('\r\x1b[K');
      shown = '';
    },
  };
}
