import type { Controller } from '../control/controller.js';
import type { ServiceConfig } from '../config/types.js';
import type { Frame } from '../frame.js';
import type { Status } from '../capability/status-types.js';
import type { CapabilityKey } from '../capability/capability-key.js';
import type { ArchiveLoadReport } from '../config/diff.js';
import type { ReloadReport } from '../config/diff.js';
import type { HistoryAnswer } from '../log/shown-log.js';

/** What the HTTP layer may ask of the running service; HTTP only adapts requests to it. */
export interface ServiceApi {
  /** False while starting or swapping configurations: requests get 503. */
  ready(): boolean;
  config(): ServiceConfig;
  controller(): Controller;
  /** The latest finished frame of the unit showing this display. */
  frame(displayId: string): Frame | undefined;
  /** Subscribes to every new frame of the unit showing this display; returns the unsubscribe function. */
  onFrame(displayId: string, fn: (frame: Frame) => void): () => void;
  status(): Status;
  /** Loads config.json again; rejects with MldsError MLDS_CONFIG_INVALID when it has faults (the running one stays). */
  reload(): Promise<ReloadReport>;
  /**
   * A running capability by its key, as the key's type (routes such as /identify and /brightness drive one); undefined
   * when not configured.
   */
  component<T>(key: CapabilityKey<T>): T | undefined;
  /** Downloads, checks and swaps in a configuration archive, then reloads; nothing changes on any failure. */
  loadConfig(url: string, sha256?: string): Promise<ArchiveLoadReport>;
  /** The running configuration as a zip that loads onto another unit unchanged. */
  downloadConfig(): Promise<{ zip: Buffer; filename: string }>;
  /** What the display's areas showed, newest first (shown.log); absent when the service has no log folder. */
  history?(id: string, since: number | undefined, limit: number): Promise<HistoryAnswer>;
}
