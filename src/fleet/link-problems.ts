// What a technician must see in /status problems about the broker link: TLS refused (at once:
// waiting does not mend a certificate), the broker away for three keepalives, or another unit
// connecting with this unit's client id.
import type { MqttSettings } from '../config/types.js';
import type { ServiceProblem } from '../capability/status-types.js';
import type { LinkStatus } from './broker-link.js';

/** A broker away for 3 keepalives (at least 5 s) is a problem; shorter outages show only in components.fleet. */
const problemAfterMs = (keepalive: number) => Math.max(5, 3 * keepalive) * 1000;

export function linkProblems(
  f: LinkStatus,
  tlsSince: number | undefined,
  settings: MqttSettings | undefined,
): ServiceProblem[] {
  const out: ServiceProblem[] = [];
  if (tlsSince !== undefined && f.state !== 'connected') {
    out.push({
      source: 'mqtt',
      message:
        `TLS with the broker ${f.broker} fails (${f.lastError ?? 'no reason given'}); check mqtt.ca, ` +
        `mqtt.cert and mqtt.key and the broker's certificate; HTTP control works as before`,
      since: new Date(tlsSince).toISOString(),
    });
  } else if (f.downSince && Date.now() - Date.parse(f.downSince) >= problemAfterMs(settings?.keepalive ?? 30)) {
    out.push({
      source: 'mqtt',
      message:
        `not connected to the broker ${f.broker} (${f.state}${f.lastError ? `: ${f.lastError}` : ''}); ` +
        `HTTP control works as before`,
      since: f.downSince,
    });
  }
  if (f.clientIdInUse && Date.now() - Date.parse(f.clientIdInUse.last) < 10 * 60_000) {
    out.push({
      source: 'mqtt',
      message:
        `another client connects with the client id "${f.clientId}": two units with the unit name ` +
        `"${settings?.unit}"?`,
      since: f.clientIdInUse.last,
    });
  }
  return out;
}
