// The body of the alerts' parsing thread (cap-decoder.ts): a fetched CAP document is checked and
// parsed here, and only what the alerts capability reads (cap-alert.ts) goes back. A hostile
// document (one tag of 358,000 attributes took 4 s to parse) then costs this thread, never the
// event loop that answers /mlds and draws the frames.
import { serveJobs } from '../util/job-worker.js';
import { lowerThreadPriority } from '../util/module-worker.js';
import { parseCapDocument, parseLinkedAlert } from './cap-xml.js';

export type CapJob = { kind: 'document' | 'linked'; body: Uint8Array };

// An alert read a little later is worth less than a frame on time.
lowerThreadPriority(10);

serveJobs<CapJob, unknown>((job) => {
  const body = Buffer.from(job.body.buffer, job.body.byteOffset, job.body.byteLength);
  return job.kind === 'document' ? parseCapDocument(body) : parseLinkedAlert(body);
});
