// Media areas as a runtime component: the types that play without drawing (audio) follow
// the displays' state here, and /status shows what runs outside the process (ffmpeg
// children, the shared browser). Video and web areas are drawn by the compositor; their
// decoders and pages end with their area (src/render/content/video.ts, web.ts).
import { latestStates, onStateChange, type StateChange } from '../control/changes.js';
import type { Component, RuntimeContext } from '../capability/component-contract.js';
import { browserStatus } from '../media/browser.js';
import { liveChildren } from '../media/children.js';
import { liveDecoders } from '../media/decoder.js';
import { AudioAreas } from './audio-areas.js';

export function mediaComponent(): Component {
  let audio: AudioAreas | undefined;
  let unsubscribe: (() => void) | undefined;

  /** Every display's current state again (a start after the replays, a reload). */
  const resync = (ctx: RuntimeContext) => {
    const config = ctx.config();
    if (!audio) return;
    audio.prune(config);
    for (const [id, st] of latestStates(config)) audio.update(config, id, st);
  };

  return {
    name: 'media',
    async start(ctx) {
      audio = new AudioAreas(ctx.log);
      unsubscribe = onStateChange((c: StateChange) => {
        // Only this service's controller: its changes carry the configuration it runs.
        if (c.config !== ctx.config()) return;
        audio?.update(c.config, c.displayId, c.state);
      });
      resync(ctx);
    },
    async reload(ctx) {
      resync(ctx);
    },
    async stop() {
      unsubscribe?.();
      unsubscribe = undefined;
      audio?.close();
      audio = undefined;
    },
    playFault: (display, area) => audio?.playFault(display, area),
    status() {
      return {
        audio: audio?.status() ?? [],
        videoDecoders: liveDecoders(),
        ffmpegProcesses: liveChildren(),
        browser: browserStatus(),
      };
    },
  };
}
