import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { ConfigError } from './config/faults.js';
import { loadConfig } from './config/load.js';
import type { ServiceConfig } from './config/types.js';
import { Controller } from './control/controller.js';
import { StateStore } from './control/store.js';
import { MldsError } from './errors.js';
import type { ServiceApi } from './http/api.js';
import { createApp } from './http/app.js';
import { createHttpServer } from './http/server.js';
import { createLogger, type Logger } from './log/logger.js';
import { FeedbackSender, type FeedbackOptions } from './monitor/feedback.js';
import { buildStatus, type ConfigStatus } from './monitor/status.js';
import { forgetImages, preloadImage } from './render/images.js';
import { LiveViews } from './http/stream.js';
import { Unit } from './units.js';
import { systemClock, type Clock } from './util/clock.js';
import { VERSION } from './version.js';

export interface StartOptions {
  configFile: string;
  /** Overrides the configuration's port; 0 picks a free one (tests). */
  port?: number;
  host?: string;
  stateDir: string;
  logDir?: string;
  logToStdout?: boolean;
  logLevel?: string;
  clock?: Clock;
  feedback?: Partial<FeedbackOptions>;
  /** Seconds between automatic configuration re-checks (specification: 3000). */
  recheckSeconds?: number;
}

export interface RunningService {
  port: number;
  url: string;
  api: ServiceApi;
  log: Logger;
  feedback: FeedbackSender;
  controller(): Controller;
  close(): Promise<void>;
}

interface Runtime {
  config: ServiceConfig;
  fingerprint: string;
  controller: Controller;
  /** By unit key. */
  units: Map<string, Unit>;
  /** By display id: the unit each display draws on. */
  unitOf: Map<string, Unit>;
}

/** Starts the whole service. Throws ConfigError when the configuration cannot run. */
export async function startService(opts: StartOptions): Promise<RunningService> {
  const clock = opts.clock ?? systemClock;
  const configFile = path.resolve(opts.configFile);
  const first = loadConfig(configFile);
  const { log, close: closeLog, problems: logProblems } = createLogger({ dir: opts.logDir, retentionDays: first.logRetentionDays, stdout: opts.logToStdout ?? true, level: opts.logLevel });
  const startedAt = clock.now();
  log.info({ version: VERSION, config: configFile, displays: first.displays.length, units: first.units.length }, 'configuration loaded');

  const store = new StateStore(opts.stateDir, { log });
  await store.load();
  const feedback = new FeedbackSender(store, clock, log, opts.feedback);
  const configStatus: ConfigStatus = { file: configFile, loadedAt: clock.now(), lastAttemptAt: clock.now(), faults: [] };
  let ready = false;
  let runtime: Runtime | undefined;
  const live = new LiveViews();

  const build = async (config: ServiceConfig): Promise<Runtime> => {
    const units = new Map<string, Unit>();
    const unitOf = new Map<string, Unit>();
    const controller: Controller = new Controller(config, {
      clock,
      store,
      log,
      redraw: (id) => unitOf.get(id)?.loop.invalidate() ?? Promise.resolve(false),
      confirm: (d, c, n) => feedback.confirm(d, c, n),
      preload: preloadImage,
      credentialNames: config.security?.apiKey || config.security?.adminKey ? ['key'] : [],
    });
    for (const u of config.units) {
      const unit = new Unit(u, config, (id) => controller.state(id), log, () => clock.now());
      units.set(u.key, unit);
      for (const id of u.displayIds) unitOf.set(id, unit);
    }
    // Every panel shows black before anything else (the specification's restart rule).
    await Promise.all([...units.values()].map((u) => u.start()));
    return { config, fingerprint: fingerprint(config), controller, units, unitOf };
  };

  const replay = async (rt: Runtime, source: 'replay' | 'reload') => {
    const saved = store.get().lastRequest;
    for (const d of rt.config.displays) {
      const rec = saved[d.id];
      if (!rec || (source === 'replay' && !d.startScreen.loadLastRequest)) continue;
      try {
        await rt.controller.apply(rec.query, source);
      } catch (err) {
        log.warn({ id: d.id, query: rec.query, err: (err as Error).message }, 'the saved request no longer fits the configuration; display stays blank');
      }
    }
  };

  const teardown = async (rt: Runtime) => {
    rt.controller.dispose();
    await Promise.all([...rt.units.values()].map((u) => u.stop()));
  };

  let reloading: Promise<{ changed: boolean }> | undefined;
  const reload = (): Promise<{ changed: boolean }> => {
    reloading ??= (async () => {
      configStatus.lastAttemptAt = clock.now();
      let next: ServiceConfig;
      try {
        next = loadConfig(configFile);
      } catch (err) {
        if (!(err instanceof ConfigError)) throw err;
        configStatus.faults = err.faults;
        log.warn({ faults: err.faults }, 'configuration has faults; the running one stays');
        throw new MldsError('MLDS_CONFIG_INVALID', `${configFile} has ${err.faults.length} fault(s); the running configuration stays`, undefined, { faults: err.faults });
      }
      configStatus.faults = [];
      if (runtime && fingerprint(next) === runtime.fingerprint) return { changed: false };
      ready = false;
      try {
        // Live views follow the old compositors: end them, the pages reconnect.
        live.closeAll();
        const previous = runtime;
        if (previous) await teardown(previous);
        // Files may have changed with the configuration: decode pictures again.
        forgetImages();
        try {
          runtime = await build(next);
        } catch (err) {
          // Valid on paper but it cannot run (a font cairo refuses...): bring the old one back.
          log.error({ err: (err as Error).stack }, 'the new configuration could not start; the previous one is restored');
          runtime = previous ? await build(previous.config) : undefined;
          if (runtime) await replay(runtime, 'reload');
          throw err;
        }
        configStatus.loadedAt = clock.now();
        await replay(runtime, 'reload');
        log.info({ displays: next.displays.length }, 'configuration swapped');
        return { changed: true };
      } finally {
        ready = true;
      }
    })().finally(() => { reloading = undefined; });
    return reloading;
  };

  const api: ServiceApi = {
    ready: () => ready && runtime !== undefined,
    config: () => (runtime ?? { config: first }).config,
    controller: () => runtime!.controller,
    frame: (id) => unitFor(id)?.compositor.latest(),
    onFrame: (id, fn) => unitFor(id)?.compositor.subscribe(fn) ?? (() => {}),
    status: () => buildStatus({
      version: VERSION, startedAt, now: clock.now(), config: runtime!.config, configStatus, controller: runtime!.controller,
      health: (key) => runtime!.units.get(key)?.runner.health(),
      render: (key) => {
        const u = runtime!.units.get(key);
        return u ? { loop: u.loop.stats(), faults: u.compositor.faults() } : undefined;
      },
      liveViews: live.stats(),
      problems: () => [...logProblems(), ...store.problems()],
    }),
    reload,
  };
  const unitFor = (id: string) => runtime?.unitOf.get(id);

  // Listen first: while the panels are being opened the port already answers 503.
  const server: Server = createHttpServer(createApp(api, log, live), log);
  const port = opts.port ?? first.port;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, opts.host ?? '0.0.0.0', () => { server.off('error', reject); resolve(); });
  });
  runtime = await build(first);
  await replay(runtime, 'replay');
  ready = true;
  const actualPort = (server.address() as AddressInfo).port;
  log.info({ port: actualPort }, 'service ready');

  const recheck = setInterval(() => {
    reload().catch(() => { /* faults are on /status and in the log */ });
  }, (opts.recheckSeconds ?? 3000) * 1000);
  recheck.unref();

  return {
    port: actualPort,
    url: `http://127.0.0.1:${actualPort}`,
    api,
    log,
    feedback,
    controller: () => runtime!.controller,
    close: async () => {
      clearInterval(recheck);
      ready = false;
      live.closeAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (runtime) await teardown(runtime);
      await store.flush().catch((err: Error) => log.warn({ err: err.message }, 'saving the state failed'));
      log.info({}, 'service stopped');
      await closeLog();
    },
  };
}

/** Same fingerprint = same behaviour: a periodic re-check of an unchanged file must not disturb the screen. */
function fingerprint(config: ServiceConfig): string {
  return JSON.stringify(config, (_k, v: unknown) => (v instanceof Map ? [...v.entries()] : v));
}
