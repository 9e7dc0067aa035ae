// The real CLI (`mlds start`) in a child process, for tests that kill it with SIGKILL.
import { spawn, type ChildProcess } from 'node:child_process';
import { LISTEN_MS } from './emulation.js';
import { cliStart, REPO, until, type ServiceDir } from './service.js';

export interface CliChild {
  child: ChildProcess;
  port: number;
  url: string;
  exited: Promise<unknown>;
  kill(): Promise<void>;
}

/** Starts it on a free port with the state folder of `sd` (or `args` naming others); resolves once it listens. */
export async function startCli(sd: ServiceDir, args: string[] = ['--state-dir', sd.stateDir]): Promise<CliChild> {
  const child = spawn(process.execPath, cliStart(sd, ...args), { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let err = '';
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
  });
  await until(() => /listening on port \d+/.test(err) || child.exitCode !== null, LISTEN_MS, 'the service to listen');
  const m = /listening on port (\d+)/.exec(err);
  if (!m) throw new Error(`the service did not start: ${err}`);
  const port = Number(m[1]);
  return {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    exited,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
