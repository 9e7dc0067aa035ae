import { JobWorker, movable } from '../util/job-worker.js';
import { startModuleWorker } from '../util/module-worker.js';
import type { CapAlert } from './cap-alert.js';
import type { CapJob } from './cap-worker.js';
import type { CapDocument } from './cap-xml.js';

/**
 * The worker's code, which the bundle's build (scripts/bundle/build.mjs) puts in the bundle;
 * undefined in tsc's dist/ and under tsx.
 */
declare const MLDS_CAP_WORKER: string | undefined;

/**
 * The thread's heap: the largest document alertMaxMB lets through, parsed, with room to spare.
 * A document that needs more ends the thread, not the service: that fetch fails.
 */
const LIMITS = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 128 };

/**
 * Parses the alerts' fetched documents in one worker thread (cap-worker.ts). The thread starts
 * with the first document and exits after `idleMs` without one, so an alerts capability that
 * fetches nothing, or is not configured, costs no thread. An error says why the document was
 * refused, as parseCapDocument's would.
 */
export class CapDecoder {
  private readonly jobs: JobWorker<CapJob, unknown>;

  constructor(idleMs: number) {
    const bundled = typeof MLDS_CAP_WORKER === 'string' ? MLDS_CAP_WORKER : undefined;
    const start = () => startModuleWorker(import.meta.url, 'cap-worker', bundled, { resourceLimits: LIMITS });
    this.jobs = new JobWorker(start, idleMs, 'CAP parser');
  }

  /** A feed or a single alert (cap-xml.ts parseCapDocument); the body moves to the thread. */
  document(body: Uint8Array): Promise<CapDocument> {
    return this.jobs.run({ kind: 'document', body }, movable(body)) as Promise<CapDocument>;
  }

  /** A linked alert: one CAP <alert> (parseLinkedAlert); the body moves to the thread. */
  linked(body: Uint8Array): Promise<CapAlert> {
    return this.jobs.run({ kind: 'linked', body }, movable(body)) as Promise<CapAlert>;
  }

  get running(): boolean {
    return this.jobs.running;
  }

  close(): Promise<void> {
    return this.jobs.close();
  }
}
