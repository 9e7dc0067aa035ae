// MQTT 5 persistent sessions (`mqtt.sessionExpiry`): the broker keeps the unit's subscriptions
// and queues its QoS 1 commands while it is away, for that many seconds. A session belongs to a
// client id, which is made of the unit's name: the name of the last session is kept in the state
// folder, and a unit whose name changed since starts clean (the old name's queue is not its own).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../util/atomic-file.js';

const FILE = 'mqtt-session.json';

/** Whether the session of `clientId` may be resumed: the last session (kept in `stateDir`) had this client id. */
export function mayResume(stateDir: string | undefined, clientId: string): boolean {
  if (!stateDir) return false;
  try {
    return (JSON.parse(readFileSync(path.join(stateDir, FILE), 'utf8')) as { clientId?: unknown }).clientId === clientId;
  } catch {
    return false;
  }
}

/** Keeps the client id of the session now connected, for the next start. */
export async function keepSession(stateDir: string | undefined, clientId: string): Promise<void> {
  if (!stateDir || mayResume(stateDir, clientId)) return;
  await writeFileAtomic(path.join(stateDir, FILE), JSON.stringify({ clientId }));
}
