import type { ClockSyncReader } from '../time/clock-sync.js';
import type { Controller } from '../control/controller.js';
import type { ServiceApi } from '../http/api.js';
import type { Logger } from '../log/logger.js';
import type { FeedbackOptions, FeedbackSender } from '../monitor/feedback.js';
import type { Clock } from '../util/clock.js';
import type { Runtime } from './runtime.js';

export interface StartOptions {
  configFile: string;
  /** Overrides the configuration's port; 0 picks a free one (tests). */
  port?: number;
  host?: string;
  stateDir: string;
  logDir?: string;
  logToStdout?: boolean;
  logLevel?: string;
  clock?: Clock;
  feedback?: Partial<FeedbackOptions>;
  /** Seconds between automatic configuration re-checks (specification: 3000). */
  recheckSeconds?: number;
  /** Limits of /load_config downloads (tests shorten them). */
  archiveFetch?: { maxBytes?: number; timeoutMs?: number };
  /** Where the clock's synchronization is read (chrony or timesyncd by default; tests give their own). */
  clockSync?: ClockSyncReader;
}

export interface RunningService {
  port: number;
  url: string;
  api: ServiceApi;
  log: Logger;
  feedback: FeedbackSender;
  runtime: Runtime;
  controller(): Controller;
  close(): Promise<void>;
}
