// The body of the feeds' decoding thread (decoder.ts): a poll's body is decoded here, and only
// the small shape the boards read (model.ts) goes back. Decoding a 5 MB TripUpdates feed in the
// event loop, even in slices, made the 1080p screen miss frames (docs/performance.md).
import { serveJobs } from '../util/job-worker.js';
import { lowerThreadPriority } from '../util/module-worker.js';
import { decodeAlerts, decodeTripUpdates } from './gtfs-rt.js';
import { parseSiriSx } from './siri-alerts.js';
import { parseSiri } from './siri.js';
import { decodeVehiclePositions } from './vehicle-positions.js';

export type DecodeJob =
  | { kind: 'trip-updates'; body: Uint8Array; trips: string[]; stops: string[] }
  | { kind: 'vehicle-positions'; body: Uint8Array; trips: string[] }
  | { kind: 'siri'; body: Uint8Array; zone: string }
  | { kind: 'gtfs-alerts' | 'siri-sx'; body: Uint8Array };

// A feed decoded a little later is worth less than a frame on time.
lowerThreadPriority(10);

serveJobs<DecodeJob, unknown>((job) => {
  const body = Buffer.from(job.body.buffer, job.body.byteOffset, job.body.byteLength);
  // Alone in its thread, a decode needs no pauses for a frame loop.
  switch (job.kind) {
    case 'trip-updates':
      return decodeTripUpdates(body, { trips: new Set(job.trips), stops: new Set(job.stops) }, Infinity);
    case 'vehicle-positions':
      return decodeVehiclePositions(body, new Set(job.trips), Infinity);
    case 'gtfs-alerts':
      return decodeAlerts(body, Infinity);
    case 'siri':
      return parseSiri(body, Infinity, job.zone);
    case 'siri-sx':
      return parseSiriSx(body);
  }
});
