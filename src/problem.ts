// A problem of the service itself, as /status `problems` and /info list it: every layer reports
// its own (the log disk, the state folder, a broker away) in this one shape.
/** Something about the service itself a technician must see (log disk full, state unreadable...). */
export interface ServiceProblem {
  /** What has the problem: 'log', 'state', ... */
  source: string;
  message: string;
  /** ISO time the problem started. */
  since: string;
}
