// What a capability that has something to say asks of the speech component, without importing
// it: the alerts and the departure boards stand beside speech in the capabilities layer.
import { capabilityKey } from './capability-key.js';

/** Where an announcement comes from (/status lists it with each announcement). */
export type AnnouncementSource = 'http' | 'mqtt' | 'area' | 'cap' | 'feed' | 'departures' | 'readout';

export interface Announcement {
  /** The display whose audio device speaks it. */
  displayId: string;
  /** Plain words to speak (markup and tabs already turned into pauses by the caller or by speech). */
  text: string;
  /**
   * Priority announcements go before ordinary ones and are spoken in quiet hours; an alert's
   * (source cap) go first of all.
   */
  priority: boolean;
  source: AnnouncementSource;
  /**
   * Called once for a queued announcement: true when it was said (written whole to its sink),
   * false when it never will be (dropped for a more urgent one, its display gone, the voice
   * failed, a reload or stop cut it).
   */
  settled?(said: boolean): void;
}

/** Why an announcement was not queued. */
export type NotQueued = 'empty' | 'too-long' | 'full' | 'quiet' | 'unknown-display';

/** Why a readout was not queued: `no-readout`, the display configures none. */
export type ReadoutRefused = 'unknown-display' | 'no-readout' | 'empty' | 'full';

/** What the speech component does for others. */
export interface Speaker {
  /** Queues an announcement; never throws, never waits for the speech. */
  announce(a: Announcement): { queued: true; position: number } | { queued: false; reason: NotQueued };
  /**
   * Queues the readout of what `displayId` shows, behind alerts only; one per display: asked
   * again while it is spoken, it starts again from the start (`restarted`), while it waits it
   * stays where it is. Never throws, never waits for the speech.
   */
  readout(
    displayId: string,
  ): { queued: true; position: number; restarted: boolean } | { queued: false; reason: ReadoutRefused };
}

/** Running when `speech` is configured. */
export const SPEECH = capabilityKey<Speaker>('speech');
