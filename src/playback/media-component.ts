// Media areas as a runtime component: the types that play without drawing (audio) follow
// the displays' state here, and /status shows what runs outside the process (ffmpeg
// children, the shared browser). Video and web areas are drawn by the compositor; their
// decoders and pages end with their area (src/render/areas/video.ts, web.ts).
import { AREA_TYPES, kindOf } from '../areas/registry.js';
import type { AreaWatcher } from '../areas/kind.js';
import { latestStates, onStateChange, type StateChange } from '../control/changes.js';
import type { Component, RuntimeContext } from '../capability/component-contract.js';
import { browserStatus } from '../media/browser.js';
import { liveChildren } from '../media/children.js';
import { liveDecoders } from '../media/decoder.js';

export function mediaComponent(): Component {
  let watchers: AreaWatcher[] = [];
  let unsubscribe: (() => void) | undefined;

  /** Every display's current state again (a start after the replays, a reload). */
  const resync = (ctx: RuntimeContext) => {
    const config = ctx.config();
    for (const w of watchers) {
      w.prune(config);
      for (const [id, st] of latestStates(config)) w.update(config, id, st);
    }
  };

  return {
    name: 'media',
    async start(ctx) {
      watchers = AREA_TYPES.flatMap((t) => { const k = kindOf(t); return k.watcher ? [k.watcher(ctx.log)] : []; });
      unsubscribe = onStateChange((c: StateChange) => {
        // Only this service's controller: its changes carry the configuration it runs.
        if (c.config !== ctx.config()) return;
        for (const w of watchers) w.update(c.config, c.displayId, c.state);
      });
      resync(ctx);
    },
    async reload(ctx) {
      resync(ctx);
    },
    async stop() {
      unsubscribe?.();
      unsubscribe = undefined;
      for (const w of watchers) w.close();
      watchers = [];
    },
    status() {
      const audio = watchers.map((w) => w.status()).flat();
      return { audio, videoDecoders: liveDecoders(), ffmpegProcesses: liveChildren(), browser: browserStatus() };
    },
  };
}
