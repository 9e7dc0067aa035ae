// Serial devices for the sensor tests: a socat pty pair whose one end the service opens as
// /dev/ttyMLDS… (the "sensor") and whose other end the test or a Modbus slave drives. Killing
// socat unplugs the sensor (the /dev link vanishes and reads fail); starting it again with the
// same links plugs it back in.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, rmSync, writeSync } from 'node:fs';
import { until } from '../helpers/service.js';
import { skipReason } from '../helpers/skip.js';

/** Why these tests cannot run here, or undefined. */
export function ptyUnavailable(): string | undefined {
  if (spawnSync('socat', ['-V']).error)
    return skipReason('needs socat (Debian package socat; the Makefile installs it)');
  if (process.getuid?.() !== 0)
    return skipReason('needs root: the sensor device links live under /dev, as the configuration requires', 'hardware');
  return undefined;
}

export interface PtyPair {
  /** The end the service opens. */
  device: string;
  /** The end the test (or a Modbus slave) writes and reads. */
  feed: string;
  unplug(): Promise<void>;
  plug(): Promise<void>;
  /** Writes text to the feed end. */
  write(text: string): void;
  close(): Promise<void>;
}

let count = 0;

export async function ptyPair(): Promise<PtyPair> {
  const tag = `${process.pid % 100000}x${count++}`;
  const device = `/dev/ttyMLDS${tag}s`,
    feed = `/dev/ttyMLDS${tag}f`;
  let proc: ChildProcess | undefined;
  let fd: number | undefined;
  const closeFeed = () => {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        /* gone with socat */
      }
      fd = undefined;
    }
  };
  const pair: PtyPair = {
    device,
    feed,
    async plug() {
      proc = spawn('socat', [`pty,raw,echo=0,link=${device}`, `pty,raw,echo=0,link=${feed}`], { stdio: 'ignore' });
      await until(() => existsSync(device) && existsSync(feed), 5000, `socat links ${device}`);
    },
    async unplug() {
      closeFeed();
      const p = proc;
      proc = undefined;
      if (p && p.exitCode === null) {
        const exited = new Promise((r) => p.once('exit', r));
        p.kill('SIGTERM');
        await exited;
      }
      // socat removes its links on SIGTERM; make sure of it.
      rmSync(device, { force: true });
      rmSync(feed, { force: true });
    },
    write(text) {
      fd ??= openSync(feed, 'w');
      writeSync(fd, text);
    },
    close: () => pair.unplug(),
  };
  await pair.plug();
  return pair;
}
