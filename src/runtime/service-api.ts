import type { ServiceApi } from '../http/api.js';
import type { LiveViews } from '../http/stream.js';
import { buildStatus, type ServiceProblem } from './status-document.js';
import { VERSION } from '../version.js';
import type { ConfigArchives } from './archives.js';
import type { Runtime } from './runtime.js';

export interface ApiDeps {
  runtime: Runtime;
  live: LiveViews;
  archives: ConfigArchives;
  startedAt: number;
  problems(): ServiceProblem[];
  /** The confirmation queues per feedback address, shown as `components.feedback`. */
  feedback?(): unknown;
  /** shown.log read back (absent without a log folder). */
  history?: ServiceApi['history'];
  /** Temperature, clock, disks, load and memory (src/monitor/health.ts), shown as `components.health`. */
  health?(): unknown;
}

/** The running service as the HTTP layer sees it. */
export function serviceApi({
  runtime,
  live,
  archives,
  startedAt,
  problems,
  feedback,
  history,
  health,
}: ApiDeps): ServiceApi {
  const { clock } = runtime.context;
  return {
    ready: () => runtime.ready() && !archives.busy(),
    config: () => runtime.config,
    controller: () => runtime.controller,
    frame: (id) => runtime.unitFor(id)?.latest(),
    onFrame: (id, fn) => runtime.unitFor(id)?.subscribe(fn) ?? (() => {}),
    status: () =>
      buildStatus({
        version: VERSION,
        startedAt,
        now: clock.now(),
        config: runtime.config,
        configStatus: runtime.configStatus,
        controller: runtime.controller,
        health: (key) => runtime.units.get(key)?.runner.health(),
        render: (key) => {
          const u = runtime.units.get(key);
          if (!u) return undefined;
          const c = u.compositor;
          return { loop: u.loop.stats(), faults: c.faults(), texts: c.textFits(), reports: c.reports() };
        },
        playFault: (display, area) => runtime.playFault(display, area),
        liveViews: live.stats(),
        problems,
        components: {
          ...runtime.componentStatus(),
          ...(feedback ? { feedback: feedback() } : {}),
          ...(health ? { health: health() } : {}),
        },
      }),
    reload: () => runtime.reload(),
    component: (key) => runtime.component(key),
    loadConfig: (url, sha256) => archives.load(url, sha256),
    downloadConfig: () => archives.download(),
    history,
  };
}
