// Query names the control path reads as options of the message, not as area keys: no area may
// carry one of these ids (a configuration fault).

/** The control extensions: `keep`, `priority` and `expires` (docs/http-api.md). */
export const CONTROL_OPTIONS: ReadonlySet<string> = new Set(['keep', 'priority', 'expires']);
