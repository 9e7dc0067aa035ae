// alerts.json in the state folder: the alerts in force, the references that ended others, the
// levels this capability holds on each display and the alerts already spoken. Written with
// write-temp-fsync-rename after each change; read once at start.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../util/atomic-file.js';

export interface SavedAlert {
  key: string;
  identifier: string;
  sender: string;
  sent: string;
  event: string;
  severity: string;
  from: number;
  expiresAt?: number;
  /** The template filled in, and what speech says. */
  text: string;
  spoken: string;
}

export interface SavedFeed { inForce: SavedAlert[]; ended: Array<[string, 'superseded' | 'cancelled']> }

/** A priority level this capability set on a display: which alert, and when the level runs out. */
export interface HeldLevel { key: string; text: string; levelUntil: number; /** `<layout>/<area>` it shows in. */ show?: string }

export interface SavedAlerts {
  feeds: Record<string, SavedFeed>;
  /** By `<display>|<priority>`. */
  held: Record<string, HeldLevel>;
  /** `<display>|<key>` of alerts handed to speech. */
  spoken: string[];
}

const FILE = 'alerts.json';
/** References remembered per feed: enough for any feed's history, bounded whatever it sends. */
export const MAX_ENDED = 1000;
export const MAX_SPOKEN = 1000;

export const emptySaved = (): SavedAlerts => ({ feeds: {}, held: {}, spoken: [] });

export async function readSaved(dir: string | undefined): Promise<SavedAlerts> {
  if (!dir) return emptySaved();
  try {
    const s = JSON.parse(await readFile(path.join(dir, FILE), 'utf8')) as SavedAlerts;
    if (typeof s !== 'object' || !s || typeof s.feeds !== 'object' || typeof s.held !== 'object' || !Array.isArray(s.spoken)) return emptySaved();
    return s;
  } catch {
    // Missing on a first start; unreadable: start clean, the feeds say again what is in force.
    return emptySaved();
  }
}

export async function writeSaved(dir: string | undefined, s: SavedAlerts): Promise<void> {
  if (dir) await writeFileAtomic(path.join(dir, FILE), JSON.stringify(s));
}
