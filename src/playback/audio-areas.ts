// Audio areas play without drawing: the sound follows the display's state through a
// subscription (src/control/changes.ts), not through the frame loop, so a boot screen or a
// slow panel never starts, stops or delays it. One player per audio area whose display shows
// a file in it. A player's fault is its area's on /status (playFault).
import path from 'node:path';
import { kindOf } from '../config/area-types/registry.js';
import type { AreaConfig, ServiceConfig } from '../config/types.js';
import type { DisplayState } from '../control/state.js';
import { audioSink } from '../media/audio-sink.js';
import { AudioPlayer } from '../media/audio-player.js';

export interface PlaybackLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

interface Playing {
  display: string;
  area: AreaConfig;
  file: string;
  device: string;
  player: AudioPlayer;
}

/** The players of one service: one per audio area whose display shows a file in it. */
export class AudioAreas {
  private readonly playing = new Map<string, Playing>();

  constructor(private readonly log: PlaybackLog) {}

  update(config: ServiceConfig, displayId: string, state: DisplayState | undefined): void {
    const wanted = new Map<string, { area: AreaConfig; file: string }>();
    // A display that left the configuration plays nothing, whatever its last state held.
    if (state?.layout && config.displayById.has(displayId)) {
      for (const a of state.areas.values()) {
        if (a.source === 'none' || !a.file || kindOf(a.area.type).media !== 'played') continue;
        wanted.set(`${displayId}\n${a.area.id}`, { area: a.area, file: a.file });
      }
    }
    const ending = new Map<string, Promise<void>>();
    for (const [key, p] of this.playing) {
      if (p.display !== displayId) continue;
      const w = wanted.get(key);
      // Another layout's area, another file or another device: a new player.
      if (w && w.area === p.area && w.file === p.file && p.device === config.audioDevice) wanted.delete(key);
      else ending.set(key, this.end(key, p, 'stopped'));
    }
    for (const [key, w] of wanted) {
      const sink = audioSink(config.audioDevice, displayId, w.area.id);
      const player = new AudioPlayer(
        w.file,
        sink,
        (fault) => {
          if (fault) this.log.warn({ display: displayId, area: w.area.id, fault }, 'audio area cannot play');
        },
        ending.get(key),
      );
      this.playing.set(key, { display: displayId, area: w.area, file: w.file, device: config.audioDevice, player });
      this.log.info(
        { display: displayId, area: w.area.id, file: path.basename(w.file), sink: sink.describe },
        'audio playing',
      );
    }
  }

  /** Stops the players of displays `config` no longer has. */
  prune(config: ServiceConfig): void {
    for (const [key, p] of this.playing)
      if (!config.displayById.has(p.display)) void this.end(key, p, 'stopped (display removed)');
  }

  close(): void {
    for (const [key, p] of this.playing) void this.end(key, p, 'stopped (service stopping)');
  }

  /** Why `area` of `display` cannot play now (its player's fault); undefined: it plays, or is not played here. */
  playFault(display: string, area: AreaConfig): string | undefined {
    const p = this.playing.get(`${display}\n${area.id}`);
    return p?.area === area ? p.player.fault : undefined;
  }

  status(): unknown {
    return [...this.playing.values()].map((p) => ({
      display: p.display,
      area: p.area.id,
      file: path.basename(p.file),
      sink: p.player.sink.describe,
      running: p.player.running,
      starts: p.player.starts,
      ...(p.player.fault ? { fault: p.player.fault } : {}),
    }));
  }

  private end(key: string, p: Playing, why: string): Promise<void> {
    this.playing.delete(key);
    this.log.info({ display: p.display, area: p.area.id, file: path.basename(p.file) }, `audio ${why}`);
    return p.player.stop();
  }
}
