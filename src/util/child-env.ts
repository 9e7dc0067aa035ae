/**
 * The environment for a helper program the service runs (timedatectl, networkctl, ip, python3):
 * ours without systemd's notification variables. systemd's own tools send `ERRNO=` to
 * NOTIFY_SOCKET when they fail, and the unit's NotifyAccess=main would log each as a message
 * from a stranger (and a test of the unit sees it as such).
 */
export function childEnv(): NodeJS.ProcessEnv {
  const { NOTIFY_SOCKET, WATCHDOG_USEC, WATCHDOG_PID, ...rest } = process.env;
  void NOTIFY_SOCKET;
  void WATCHDOG_USEC;
  void WATCHDOG_PID;
  return rest;
}
