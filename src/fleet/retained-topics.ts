// No ghosts: every topic a unit keeps retained on the broker, and the clearing of those it no
// longer publishes. A unit renamed (unit.json's `mqtt.unit`), a display removed, Home Assistant
// turned off: what was retained under the old names would stay on the broker for ever ("ok",
// a light in Home Assistant). The topics last published are kept in the state folder
// (RETAINED_FILE), so a unit renamed while it was stopped clears the old ones at its next start.
// Clearing is an empty retained message (MQTT 5, 3.3.1.3): the broker then holds nothing there.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { discoveryId } from '../config/discovery-id.js';
import type { MqttSettings } from '../config/types.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import type { Logger } from '../log/logger.js';

export const RETAINED_FILE = 'fleet-retained.json';
/** More than any unit publishes (four a display): a damaged file cannot make the unit clear without end. */
const MAX_TOPICS = 4096;

/**
 * The retained topics of `s` with these MAIN display ids (one a physical unit): the status,
 * availability and reported documents, and with Home Assistant each light's discovery and state
 * (home-assistant.ts). Discovery topic parts are reduced to `[a-zA-Z0-9_-]` as there.
 */
export function retainedTopics(
  s: Pick<MqttSettings, 'prefix' | 'unit' | 'homeAssistant'>,
  mains: readonly string[],
): string[] {
  const unit = `${s.prefix}/${s.unit}`;
  const topics = [`${unit}/status`, `${unit}/availability`, `${unit}/reported`];
  if (s.homeAssistant) {
    mains.forEach((id, i) => {
      topics.push(`homeassistant/light/${discoveryId(s.unit)}/${i === 0 ? '' : `${discoveryId(id)}/`}config`);
      topics.push(`${unit}/light/${id}/state`);
    });
  }
  return topics;
}

export interface Publisher {
  publish(topic: string, payload: string, opts: { retain: boolean; queued?: boolean }): void;
}

/** The topics published before and since; `sweep` clears the ones left behind. */
export class RetainedLedger {
  private published: Set<string>;
  private readonly file: string | undefined;

  constructor(
    stateDir: string | undefined,
    private readonly log: Logger,
  ) {
    this.file = stateDir === undefined ? undefined : path.join(stateDir, RETAINED_FILE);
    this.published = new Set(this.read());
  }

  /**
   * Clears (empty retained, queued until the link is up) every topic published before and not in `now`; remembers
   * `now`.
   */
  sweep(link: Publisher, now: readonly string[]): string[] {
    const keep = new Set(now);
    const gone = [...this.published].filter((t) => !keep.has(t));
    for (const t of gone) link.publish(t, '', { retain: true, queued: true });
    if (gone.length)
      this.log.info({ topics: gone.slice(0, 20), count: gone.length }, 'mqtt: retained topics of old names cleared');
    const changed = gone.length > 0 || now.some((t) => !this.published.has(t));
    this.published = keep;
    if (changed && this.file) {
      writeFileAtomic(this.file, JSON.stringify({ topics: [...keep] })).catch((err: Error) =>
        this.log.warn({ file: this.file, err: err.message }, 'mqtt: the list of retained topics could not be kept'),
      );
    }
    return gone;
  }

  private read(): string[] {
    if (!this.file) return [];
    try {
      const saved = JSON.parse(readFileSync(this.file, 'utf8')) as { topics?: unknown };
      if (!Array.isArray(saved.topics)) return [];
      // Only topics a unit could have published: no wildcard, nothing empty.
      return saved.topics
        .filter((t): t is string => typeof t === 'string' && t !== '' && !/[#+\0]/.test(t) && t.length < 1024)
        .slice(0, MAX_TOPICS);
    } catch {
      return [];
    }
  }
}
