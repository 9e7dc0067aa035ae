import path from 'node:path';
import type { DisplayConfig, ServiceConfig, UnitConfig } from '../config/types.js';
import type { DisplayState } from '../control/state.js';
import type { Frame } from '../frame.js';
import { createOutput } from '../output/index.js';
import { OutputRunner, type RunnerLog } from '../output/runner.js';
import { Compositor, type CompositorOptions, type Overlay } from './compositor.js';
import { PACKAGE_FONT_DIR } from '../text/fonts.js';
import { frameClock } from './frame-clock.js';
import { FrameLoop } from './loop.js';
import type { BoardSource } from '../config/board-source.js';
import type { Boards } from './content/departures.js';

function compositorOptions(config: ServiceConfig): CompositorOptions {
  return {
    effectDurationMs: config.effectDurationMs,
    timezone: config.timezone,
    fps: config.fps,
    fontDirs: [path.join(config.dir, 'fonts'), PACKAGE_FONT_DIR],
  };
}

/**
 * One physical display unit: its compositor, its frame loop and its output. A reload that
 * changes some of its displays keeps all three (no black frame, no gap in frames sent);
 * only a new output or a new size makes a new Unit. Frame subscribers (live views, the
 * screenshot cache) subscribe here and so follow the unit, not one compositor.
 */
export class Unit {
  readonly compositor: Compositor;
  loop: FrameLoop;
  readonly runner: OutputRunner;
  private readonly listeners = new Set<(frame: Frame) => void>();
  /** What departures areas draw from (RenderOptions.boards): one object, asked every frame, changed in place. */
  private readonly boardsView: Boards = { source: undefined, version: 0 };
  private readonly boardsNow = (): Boards => this.boardsView;
  private boardsOff: (() => void) | undefined;

  constructor(
    public config: UnitConfig,
    service: ServiceConfig,
    private readonly stateOf: (id: string) => DisplayState,
    log: RunnerLog,
    private readonly now: () => number,
  ) {
    this.compositor = new Compositor(config, this.displaysOf(service), stateOf, {
      ...compositorOptions(service),
      boards: this.boardsNow,
    });
    this.compositor.subscribe((f) => {
      for (const fn of this.listeners) fn(f);
    });
    this.runner = new OutputRunner(createOutput(config.output), log, now);
    this.loop = this.newLoop(service.fps);
  }

  /** Where departures areas read their rows; set by the feeds capability, undefined without feeds. */
  get boards(): BoardSource | undefined {
    return this.boardsView.source;
  }

  /** A new source (or none): boards redraw now, and whenever it says a feed brought news. */
  set boards(source: BoardSource | undefined) {
    if (source === this.boardsView.source) return;
    this.boardsOff?.();
    this.boardsView.source = source;
    this.boardsOff = source?.onChange(() => this.boardNewsArrived());
    this.boardNewsArrived();
  }

  /** `version` counts the source's news: a departures area asks its source again when it moves. */
  private boardNewsArrived(): void {
    this.boardsView.version++;
    void this.loop.invalidate();
  }

  /** Opens the output and blanks the panel before anything else is drawn. */
  async start(): Promise<void> {
    // The compositor's first frame is black until something is drawn: it is the blank frame.
    await this.runner.start(this.config.width, this.config.height, this.compositor.latest());
    this.loop.start();
  }

  /**
   * Follows a new configuration of the same panel: `keep` are the displays whose content is
   * unchanged (what they have drawn stays); every other display starts again from its state.
   */
  reconfigure(config: UnitConfig, service: ServiceConfig, keep: Set<string>): void {
    this.config = config;
    this.compositor.reconfigure(this.displaysOf(service, config), keep, {
      ...compositorOptions(service),
      boards: this.boardsNow,
    });
    if (service.fps !== this.loop.stats().fps) {
      this.loop.stop();
      this.loop = this.newLoop(service.fps);
      this.loop.start();
    }
    void this.loop.invalidate();
  }

  /** Shows a whole-unit picture (boot screens, /identify) instead of the displays; undefined gives them back. */
  setOverlay(overlay: Overlay | undefined): Promise<boolean> {
    this.compositor.setOverlay(overlay);
    return this.loop.invalidate();
  }

  latest(): Frame {
    return this.compositor.latest();
  }

  /** Called with every new frame of this unit; returns the unsubscribe function. */
  subscribe(fn: (frame: Frame) => void): () => void {
    this.listeners.add(fn);
    return () => {
      this.listeners.delete(fn);
    };
  }

  /** Blanks the panel (the specification: a display leaving the configuration is emptied), then closes the output. */
  async stop(blank = false): Promise<void> {
    this.loop.stop();
    this.boardsOff?.();
    if (blank) {
      const { width, height } = this.config;
      await this.runner.submit({
        width,
        height,
        data: new Uint8Array(width * height * 4),
        seq: this.compositor.latest().seq + 1,
      });
    }
    await this.runner.stop();
    this.listeners.clear();
  }

  private displaysOf(service: ServiceConfig, unit: UnitConfig = this.config): DisplayConfig[] {
    return unit.displayIds.map((id) => service.displayById.get(id)!);
  }

  private newLoop(fps: number): FrameLoop {
    return new FrameLoop(this.compositor, (frame) => this.runner.submit(frame), this.now, { fps, clock: frameClock() });
  }
}
