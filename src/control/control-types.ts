// What the control path takes and gives: who sent a command, what the controller needs of the
// service, and what applying a command returns. The controller (controller.ts) implements it.
import type { DisplayConfig } from '../config/types.js';
import type { FrameFate } from '../frame.js';
import type { Clock } from '../util/clock.js';
import type { Outcome } from './state.js';
import type { StateStore } from './store.js';

/** Who sent a command: /history and the logs name it. cap: an emergency alert; feed: a departures feed's own alerts. */
export type CommandSource = 'http' | 'cron' | 'poller' | 'replay' | 'reload' | 'mqtt' | 'cap' | 'feed' | 'speech';

export interface ControlLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface ControlDeps {
  clock: Clock;
  store: StateStore;
  log: ControlLog;
  /** Draws the unit showing this display; resolves with what became of the frame that carried the change. */
  redraw(displayId: string): Promise<FrameFate>;
  /** Frames the unit showing this display has rendered so far (FrameLoop.rendered). */
  rendered(displayId: string): number;
  /** Sends a confirmation to the display's feedback address (deduplicated and retried there). */
  confirm(display: DisplayConfig, confirm: 0 | 1 | 2, inumber: string): void;
  /** Decodes a picture before it is committed, so a broken file is caught here, not on screen. */
  preload(file: string): Promise<unknown>;
  /** Names of query values that carry credentials (never stored or replayed). */
  credentialNames?(): string[];
  /** Takes a shown.log line (log/shown-log.ts, ShownEntry) per change of what an area shows. */
  shown?(line: string): void;
}

export interface ApplyResult {
  displayId: string;
  layout: string;
  inumber?: string;
  ignored: string[];
  /** What became of the content: a frame carried it to the output, it was replaced first, or it never got there. */
  written: Promise<Outcome>;
  /**
   * Set while the command's state journal line waits for the end of this turn of the event
   * loop (written together with the others of the turn); apply() resolves only after it, and
   * rejects with MLDS_STATE_UNWRITABLE when the line could not be written.
   */
  stored?: Promise<void>;
}
