import { JobWorker } from '../util/job-worker.js';
import { startModuleWorker } from '../util/module-worker.js';
import { GtfsError } from './gtfs-limits.js';
import { Schedule } from './schedule.js';
import { unpackSchedule, type PackedSchedule } from './schedule-pack.js';
import type { ScheduleJob } from './schedule-worker.js';

/**
 * The worker's code, which the bundle's build (scripts/bundle/build.mjs) puts in the bundle;
 * undefined in tsc's dist/ and under tsx.
 */
declare const MLDS_SCHEDULE_WORKER: string | undefined;

/** The reading thread's heap: what the largest schedule within gtfs-limits.ts keeps, with room. */
export const SCHEDULE_HEAP_MB = 160;
/** A read that takes longer (a national feed takes about a minute) is ended. */
const READ_TIMEOUT_MS = 10 * 60_000;
/**
 * The thread ends as soon as its last read is answered (schedules are read daily), before the
 * schedule is unpacked here: the thread's heap and the unpacked schedule are not held at once.
 */
const IDLE_MS = 0;

/**
 * Reads GTFS schedules (gtfs-static.ts) in a thread of its own with a bounded heap, one at a
 * time: a hostile or oversized schedule that needs more, or takes too long, fails its read and
 * the service goes on.
 */
export class ScheduleReader {
  private readonly jobs: JobWorker<ScheduleJob, PackedSchedule>;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly heapMb = SCHEDULE_HEAP_MB,
    private readonly timeoutMs = READ_TIMEOUT_MS,
  ) {
    const bundled = typeof MLDS_SCHEDULE_WORKER === 'string' ? MLDS_SCHEDULE_WORKER : undefined;
    const resourceLimits = { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 8 };
    const start = () => startModuleWorker(import.meta.url, 'schedule-worker', bundled, { resourceLimits });
    this.jobs = new JobWorker(start, IDLE_MS, 'schedule reader');
  }

  /** The schedule in `file` for `stops`, its files unzipping to at most `maxBytes`; reads wait for the one before. */
  read(file: string, stops: Iterable<string>, maxBytes: number): Promise<Schedule> {
    const job = { file, stops: [...stops], maxBytes };
    const read = this.queue.then(() => this.readNow(job));
    this.queue = read.then(
      () => undefined,
      () => undefined,
    );
    return read;
  }

  private async readNow(job: ScheduleJob): Promise<Schedule> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new GtfsError(`reading the schedule took more than ${this.timeoutMs / 1000} s`));
        void this.jobs.close();
      }, this.timeoutMs);
    });
    let packed: PackedSchedule;
    try {
      packed = await Promise.race([this.jobs.run(job), timeout]);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new GtfsError(`reading the schedule needs more than the ${this.heapMb} MB its thread may use`);
      }
      throw err;
    } finally {
      clearTimeout(timer);
    }
    return new Schedule(await unpackSchedule(packed));
  }

  /** Whether its thread is running (it ends after each read). */
  get running(): boolean {
    return this.jobs.running;
  }

  close(): Promise<void> {
    return this.jobs.close();
  }
}
