import type { Transferable } from 'node:worker_threads';
import { JobWorker } from '../util/job-worker.js';
import { startModuleWorker } from '../util/module-worker.js';
import type { DecodeJob } from './decode-worker.js';
import type { AlertData, RtData, SiriData, VehicleData } from './model.js';

/**
 * The worker's code, which the bundle's build (scripts/bundle/build.mjs) puts in the bundle;
 * undefined in tsc's dist/ and under tsx.
 */
declare const MLDS_FEED_WORKER: string | undefined;

/**
 * The thread's heap: a small young generation (V8's default let it grow by 40 MB over a few 5 MB
 * polls) and an old one that holds the largest result (MAX_TRIP_UPDATES from a 16 MB feed) with
 * room to spare. A feed that needs more ends the thread, not the service: that poll fails.
 */
const LIMITS = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 };

/** A body that owns its whole memory moves to the thread; a slice of a larger one is copied. */
function transfer(body: Uint8Array): Transferable[] {
  return body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && body.buffer instanceof ArrayBuffer
    ? [body.buffer]
    : [];
}

/**
 * Decodes the feeds' poll bodies in one worker thread (decode-worker.ts) for every feed. The
 * thread starts with the first poll and exits after `idleMs` without one, giving its memory
 * back; a body handed over is no longer the caller's.
 */
export class FeedDecoder {
  private readonly jobs: JobWorker<DecodeJob, unknown>;

  constructor(idleMs: number) {
    const bundled = typeof MLDS_FEED_WORKER === 'string' ? MLDS_FEED_WORKER : undefined;
    this.jobs = new JobWorker(
      () => startModuleWorker(import.meta.url, 'decode-worker', bundled, { resourceLimits: LIMITS }),
      idleMs,
      'feed decoder',
    );
  }

  /** TripUpdates for the trips the schedule kept and any trip naming one of `stops`. */
  tripUpdates(body: Uint8Array, trips: Iterable<string>, stops: Iterable<string>): Promise<RtData> {
    return this.jobs.run(
      { kind: 'trip-updates', body, trips: [...trips], stops: [...stops] },
      transfer(body),
    ) as Promise<RtData>;
  }

  /** VehiclePositions' occupancy for `trips`, and of vehicles naming no trip. */
  vehiclePositions(body: Uint8Array, trips: Iterable<string>): Promise<VehicleData> {
    return this.jobs.run(
      { kind: 'vehicle-positions', body, trips: [...trips] },
      transfer(body),
    ) as Promise<VehicleData>;
  }

  gtfsAlerts(body: Uint8Array): Promise<AlertData> {
    return this.jobs.run({ kind: 'gtfs-alerts', body }, transfer(body)) as Promise<AlertData>;
  }

  /** `zone`: the zone of SIRI times given without a UTC offset. */
  siri(body: Uint8Array, zone: string): Promise<SiriData> {
    return this.jobs.run({ kind: 'siri', body, zone }, transfer(body)) as Promise<SiriData>;
  }

  siriSx(body: Uint8Array): Promise<AlertData> {
    return this.jobs.run({ kind: 'siri-sx', body }, transfer(body)) as Promise<AlertData>;
  }

  get running(): boolean {
    return this.jobs.running;
  }

  close(): Promise<void> {
    return this.jobs.close();
  }
}
