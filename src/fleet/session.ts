// MQTT 5 persistent sessions (`mqtt.sessionExpiry`): the broker keeps the unit's subscriptions
// and queues its QoS 1 commands while it is away, for that many seconds. A session belongs to a
// client id, which is made of the unit's name: the name of the last session is kept in the state
// folder, and a unit whose name changed since starts clean (the old name's queue is not its own).
// A unit with no session kept (a new state folder: new or replaced hardware under the unit's
// name) takes over what the broker holds for its name. Starting without Clean Start matters for
// Debian's mosquitto 2.0.11 too: across its own restart it keeps only the sessions begun without it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../util/atomic-file.js';

const FILE = 'mqtt-session.json';

/** The client id of the last session kept in `stateDir`, if any. */
function lastClientId(stateDir: string): unknown {
  try {
    return (JSON.parse(readFileSync(path.join(stateDir, FILE), 'utf8')) as { clientId?: unknown }).clientId;
  } catch {
    return undefined;
  }
}

/** Whether the session of `clientId` may be resumed: no other client id had the last session kept in `stateDir`. */
export function mayResume(stateDir: string | undefined, clientId: string): boolean {
  if (!stateDir) return false;
  const last = lastClientId(stateDir);
  return last === undefined || last === clientId;
}

/** Keeps the client id of the session now connected, for the next start. */
export async function keepSession(stateDir: string | undefined, clientId: string): Promise<void> {
  if (!stateDir || lastClientId(stateDir) === clientId) return;
  await writeFileAtomic(path.join(stateDir, FILE), JSON.stringify({ clientId }));
}
