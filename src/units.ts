import type { ServiceConfig, UnitConfig } from './config/types.js';
import type { DisplayState } from './control/state.js';
import { createOutput } from './output/index.js';
import { OutputRunner, type RunnerLog } from './output/runner.js';
import { Compositor } from './render/compositor.js';
import { PACKAGE_FONT_DIR } from './render/fonts.js';
import { FrameLoop } from './render/loop.js';
import path from 'node:path';

/** One physical display unit: its compositor, its frame loop and its output. */
export class Unit {
  readonly compositor: Compositor;
  readonly loop: FrameLoop;
  readonly runner: OutputRunner;

  constructor(readonly unit: UnitConfig, config: ServiceConfig, stateOf: (id: string) => DisplayState, log: RunnerLog, now: () => number) {
    const displays = unit.displayIds.map((id) => config.displayById.get(id)!);
    this.compositor = new Compositor(unit, displays, stateOf, {
      effectDurationMs: config.effectDurationMs,
      timezone: config.timezone,
      fontDirs: [path.join(config.dir, 'fonts'), PACKAGE_FONT_DIR],
    });
    this.runner = new OutputRunner(createOutput(unit.output), log, now);
    this.loop = new FrameLoop(this.compositor, (frame) => this.runner.submit(frame), now, { fps: config.fps });
  }

  /** Opens the output and blanks the panel before anything else is drawn. */
  async start(): Promise<void> {
    // The compositor's first frame is black until something is drawn: it is the blank frame.
    await this.runner.start(this.unit.width, this.unit.height, this.compositor.latest());
    this.loop.start();
  }

  async stop(): Promise<void> {
    this.loop.stop();
    await this.runner.stop();
  }
}
