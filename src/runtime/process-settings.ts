// The process settings the service runs with, the same wherever it is started: the device's
// unit (systemd/mlds.service, Environment=), `make run` and bench/start.ts. They are
// environment variables, so ExecStart stays `node dist/cli.js start ...`; a test checks that the
// unit and the Makefile carry each of them. Why each, and what was measured and not set:
// docs/decisions.md, "Memory and start (issue 13)".
export const PROCESS_ENV: Readonly<Record<string, string>> = {
  // V8's young generation: semi-spaces of at most 4 MB instead of 16 (they grow while modules
  // load and stay grown at idle); 1 MB saved more but cost /mlds CPU under load.
  NODE_OPTIONS: '--max-semi-space-size=4',
};
