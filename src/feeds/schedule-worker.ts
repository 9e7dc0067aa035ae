// The body of the schedule's reading thread (schedule-reader.ts): the zip is read here and only
// what the boards keep goes back (packed: schedule-pack.ts), so a schedule that needs more memory than its thread may
// have ends the thread, not the service.
import { serveJobs } from '../util/job-worker.js';
import { lowerThreadPriority } from '../util/module-worker.js';
import { readGtfs } from './gtfs-static.js';
import { packedBuffers, packSchedule, type PackedSchedule } from './schedule-pack.js';

export interface ScheduleJob {
  file: string;
  stops: string[];
  maxBytes: number;
}

// A schedule read a little later is worth less than a frame on time.
lowerThreadPriority(10);

serveJobs<ScheduleJob, PackedSchedule>(
  async (job) => packSchedule(await readGtfs(job.file, new Set(job.stops), job.maxBytes)),
  packedBuffers,
);
