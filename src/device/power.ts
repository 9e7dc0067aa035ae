// Restarting the service and rebooting the controller on an operator's command. The service
// restarts by stopping cleanly and exiting with RESTART_EXIT_CODE, which systemd's
// Restart=on-failure starts again; the controller reboots through systemd (`systemctl reboot`),
// or the command MLDS_REBOOT_COMMAND names (an image without systemd, the tests).
import { spawn } from 'node:child_process';

/** EX_TEMPFAIL: not a success, so Restart=on-failure brings the service back. */
export const RESTART_EXIT_CODE = 75;

let exitCode = 0;

/** The exit code the service ends with once stopped (cli.ts reads it). */
export function exitCodeAfterStop(): number {
  return exitCode;
}

/** Stops the service as SIGTERM does and exits so that systemd starts it again. */
export function restartService(): void {
  exitCode = RESTART_EXIT_CODE;
  process.kill(process.pid, 'SIGTERM');
}

/** Asks the system to reboot; rejects when the command cannot be started or fails. */
export function rebootController(env = process.env): Promise<void> {
  const [cmd, ...args] = (env.MLDS_REBOOT_COMMAND ?? 'systemctl reboot').split(' ').filter(Boolean);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ended with ${code}`))));
  });
}
