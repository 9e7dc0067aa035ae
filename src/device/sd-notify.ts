// sd_notify(3) for a service started by systemd: where to send (NOTIFY_SOCKET), whether and
// how often the watchdog wants a sign of life (WATCHDOG_USEC, WATCHDOG_PID), and the sending,
// which goes through the native helper because Node has no Unix datagram sockets.
import { nativeHelper } from '../native/helper.js';

/** How the service reaches systemd, after serialport's bindings: small, and a mock for tests. */
export interface Notifier {
  /** Sends one message ("READY=1\nSTATUS=..."). Never throws: returns the reason it failed, or undefined once sent. */
  send(message: string): string | undefined;
}

export type SdNotifyFn = (address: string, message: string) => void;

/** What systemd asked for in the environment (sd_notify(3), sd_watchdog_enabled(3)). */
export interface NotifyEnv {
  /** $NOTIFY_SOCKET: a path, or '@name' for an abstract socket. */
  socket?: string;
  /** The watchdog period in ms, when systemd watches this process. */
  watchdogMs?: number;
}

export function notifyEnv(env: NodeJS.ProcessEnv = process.env, pid = process.pid): NotifyEnv {
  const out: NotifyEnv = {};
  if (env.NOTIFY_SOCKET) out.socket = env.NOTIFY_SOCKET;
  const usec = Number(env.WATCHDOG_USEC);
  // WATCHDOG_PID names the process meant; a child that inherited the variables is not it.
  const forUs = !env.WATCHDOG_PID || Number(env.WATCHDOG_PID) === pid;
  if (Number.isSafeInteger(usec) && usec > 0 && forUs) out.watchdogMs = usec / 1000;
  return out;
}

/** The helper's sdNotify, or the reason there is none (not built, unloadable, built before it had sdNotify). */
export function nativeSdNotify(): SdNotifyFn | string {
  try {
    const fn = (nativeHelper() as unknown as { sdNotify?: SdNotifyFn }).sdNotify;
    return typeof fn === 'function'
      ? fn
      : 'the native helper was built before it could notify systemd; rebuild it with `make native`';
  } catch (err) {
    return (err as Error).message;
  }
}

/** A Notifier sending to `socket` through `fn`. */
export function socketNotifier(socket: string, fn: SdNotifyFn): Notifier {
  return {
    send(message) {
      try {
        fn(socket, message);
        return undefined;
      } catch (err) {
        return (err as Error).message;
      }
    },
  };
}

/** STATUS= is one line: newlines would start new assignments. */
export function statusLine(text: string): string {
  return `STATUS=${text.replace(/[\r\n]+/g, ' ').slice(0, 1000)}`;
}
