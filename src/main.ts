import path from 'node:path';
import { recoverInterruptedSwap } from './config/archive/swap.js';
import { loadServiceConfig } from './runtime/load-config.js';
import { UNIT_FILE } from './config/unit-part.js';
import { StateStore } from './control/store.js';
import { createApp } from './http/app.js';
import { closeServer, listen } from './http/listen.js';
import { Screenshots } from './http/screenshots.js';
import { createHttpServer } from './http/server.js';
import { HTTPS } from './capability/https.js';
import { LiveViews } from './http/stream.js';
import { createLogger } from './log/logger.js';
import { LogSpace } from './log/log-space.js';
import { ShownLog } from './log/shown-log.js';
import { FeedbackSender } from './monitor/feedback.js';
import { HealthMonitor } from './monitor/health.js';
import { ConfigArchives } from './runtime/archives.js';
import { components } from './runtime/components.js';
import { releaseMemoryAfterStart } from './runtime/release-memory.js';
import { Runtime } from './runtime/runtime.js';
import { serviceApi } from './runtime/service-api.js';
import type { RunningService, StartOptions } from './runtime/start-options.js';
import { systemClock } from './util/clock.js';
import { VERSION } from './version.js';

export type { RunningService, StartOptions };

/**
 * Composes the service: logs, saved state, the runtime and its components, HTTP. Throws ConfigError when the
 * configuration cannot run.
 */
export async function startService(opts: StartOptions): Promise<RunningService> {
  const clock = opts.clock ?? systemClock;
  const configFile = path.resolve(opts.configFile);
  // A configuration swap cut short by a crash or power cut is finished (or undone) before anything reads the folder.
  const recovered = await recoverInterruptedSwap(path.dirname(configFile));
  const unitFile = path.join(path.resolve(opts.stateDir), UNIT_FILE);
  const first = loadServiceConfig(configFile, unitFile);
  // mlds.log and shown.log share the size cap, and leave a filesystem they share with the state its reserve.
  const space = opts.logDir
    ? new LogSpace({
        dir: opts.logDir,
        maxBytes: first.logMaxMB * 2 ** 20,
        names: ['mlds', 'shown'],
        stateDir: opts.stateDir,
      })
    : undefined;
  const logger = createLogger({
    dir: opts.logDir,
    retentionDays: first.logRetentionDays,
    stdout: opts.logToStdout ?? true,
    level: opts.logLevel,
    space,
  });
  const { log } = logger;
  const startedAt = clock.now();
  log.info(
    {
      version: VERSION,
      config: configFile,
      displays: first.displays.length,
      units: first.units.length,
      ...(recovered !== 'none' ? { swap: recovered } : {}),
    },
    'configuration loaded',
  );

  // What each area showed, beside mlds.log with its retention (none without a log folder).
  const shown = opts.logDir
    ? new ShownLog(opts.logDir, first.logRetentionDays, space, (message) => log.warn({}, message))
    : undefined;
  const store = new StateStore(opts.stateDir, { log });
  await store.load();
  const feedback = new FeedbackSender(store, clock, log, opts.feedback);
  // Read at start, like the server's own limits.
  const live = new LiveViews({ idleTimeoutMs: first.limits.idleTimeoutMs, maxStreams: first.limits.maxStreams });
  const host = opts.host ?? '0.0.0.0';
  const runtime = new Runtime(first, {
    configFile,
    unitFile,
    clock,
    log,
    store,
    confirm: (d, c, n) => feedback.confirm(d, c, n),
    // HTTPS serves the same app beside HTTP (a component: loaded only when configured, follows reloads; it starts after
    // `app` exists).
    components: components({
      recheckSeconds: opts.recheckSeconds,
      https: { app: () => app, host },
      stateDir: opts.stateDir,
    }),
    onDisplaysGone: (ids) => live.close(ids),
    shown: shown && ((line) => shown.write(line)),
  });
  const archives = new ConfigArchives({
    runtime,
    configFile,
    unitFile,
    keep: [opts.stateDir, opts.logDir],
    fetch: opts.archiveFetch,
  });
  const health = new HealthMonitor(
    { state: opts.stateDir, log: opts.logDir },
    undefined,
    opts.clockSync,
    () => runtime.config.maxClockSkew,
  );
  const api = serviceApi({
    runtime,
    live,
    archives,
    startedAt,
    problems: () => [
      ...logger.problems(),
      ...(shown?.problems() ?? []),
      ...store.problems(),
      ...feedback.problems(),
      ...health.problems(clock.now()),
      ...runtime.componentProblems(),
    ],
    feedback: () => feedback.status(),
    history: shown && ((id, since, limit) => shown.history(id, since, limit)),
    health: () => health.report(clock.now()),
  });

  // Listen first: while the panels are being opened the port already answers 503.
  const shots = new Screenshots();
  const app = createApp(api, log, live, undefined, shots);
  const server = createHttpServer(app, log, first.limits);
  const port = await listen(server, opts.port ?? first.port, host);
  runtime.reportWith({
    status: () => api.status(),
    ports: () => ({ http: port, https: runtime.component(HTTPS)?.port() }),
    loadConfig: (url, sha256) => archives.load(url, sha256),
  });
  await runtime.start();
  log.info({ port }, 'service ready');
  const release = releaseMemoryAfterStart(log);

  return {
    port,
    url: `http://127.0.0.1:${port}`,
    api,
    log,
    feedback,
    runtime,
    controller: () => runtime.controller,
    close: async () => {
      clearTimeout(release);
      live.closeAll();
      await closeServer(server);
      await shots.close();
      feedback.stop();
      await runtime.stop();
      await store.flush().catch((err: Error) => log.warn({ err: err.message }, 'saving the state failed'));
      log.info({}, 'service stopped');
      await shown?.close();
      await logger.close();
    },
  };
}
