// A serial port on which a byte pattern asks for a readout: the receivers of blind passengers'
// command transmitters present as a serial line and send a fixed message per button. Bytes
// are matched as they come, across reads; only the pattern's length less one is kept, so a
// chatty line never grows memory. serialport is loaded on first use (lazily, with the input).

/** Finds `pattern` in a stream of chunks; each call answers how many times it completed. */
export function patternMatcher(pattern: Buffer): (chunk: Buffer) => number {
  let tail = Buffer.alloc(0);
  return (chunk) => {
    const all = tail.length ? Buffer.concat([tail, chunk]) : chunk;
    let n = 0;
    let from = 0;
    for (let at = all.indexOf(pattern, from); at >= 0; at = all.indexOf(pattern, from)) {
      n++;
      from = at + pattern.length;
    }
    const keep = Math.max(0, Math.min(pattern.length - 1, all.length - from));
    tail = Buffer.from(all.subarray(all.length - keep));
    return n;
  };
}

export interface SerialWatch {
  close(): Promise<void>;
}

/** Opens `port`; `onMatch` for each pattern received, `onEnd` once when the port fails or is lost. */
export async function watchSerial(
  port: string,
  baudRate: number,
  pattern: Buffer,
  onMatch: () => void,
  onEnd: (why: string) => void,
): Promise<SerialWatch> {
  const { SerialPort } = await import('serialport');
  const match = patternMatcher(pattern);
  let closed = false;
  const sp = new SerialPort({ path: port, baudRate, autoOpen: false });
  await new Promise<void>((resolve, reject) => sp.open((err) => (err ? reject(err) : resolve())));
  sp.on('data', (chunk: Buffer) => {
    for (let n = match(chunk); n > 0 && !closed; n--) onMatch();
  });
  const end = (why: string) => {
    if (!closed) {
      closed = true;
      onEnd(why);
    }
  };
  sp.on('error', (err) => end(`${port}: ${err.message}`));
  sp.on('close', () => end(`${port} closed`));
  return {
    close: () =>
      new Promise<void>((resolve) => {
        closed = true;
        if (!sp.isOpen) {
          resolve();
          return;
        }
        sp.close(() => resolve());
      }),
  };
}
