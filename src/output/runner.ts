import type { Frame, Output } from './types.js';

export interface OutputHealth {
  driver: string;
  open: boolean;
  lastSendAt?: string;
  lastResult?: 'ok' | 'error';
  consecutiveFailures: number;
  framesSent: number;
  lastError?: string;
  details: Record<string, unknown>;
}

export interface RunnerLog { warn(obj: object, msg: string): void; info(obj: object, msg: string): void }

/**
 * Wraps one Output so a failing panel is a warning, never a crash: open failures and
 * send failures are counted and reported through health(); submit() says whether the
 * frame reached the output, which drives confirm=1 / confirm=0.
 */
export class OutputRunner {
  private isOpen = false;
  private framesSent = 0;
  private consecutiveFailures = 0;
  private lastSendAt: number | undefined;
  private lastResult: 'ok' | 'error' | undefined;
  private lastError: string | undefined;

  constructor(readonly output: Output, private readonly log: RunnerLog, private readonly now: () => number = Date.now) {}

  /** Opens the output and writes one black frame before anything else (blank on restart). */
  async start(width: number, height: number): Promise<void> {
    await this.ensureOpen();
    await this.submit({ width, height, data: new Uint8Array(width * height * 4), seq: 0 });
  }

  async submit(frame: Frame): Promise<boolean> {
    if (!(await this.ensureOpen())) return false;
    try {
      await this.output.send(frame);
      this.framesSent++;
      this.consecutiveFailures = 0;
      this.lastResult = 'ok';
      this.lastSendAt = this.now();
      return true;
    } catch (err) {
      this.fail(err, 'send');
      return false;
    }
  }

  async setBrightness(percent: number): Promise<void> {
    try { await this.output.setBrightness(percent); } catch (err) { this.fail(err, 'brightness'); }
  }

  health(): OutputHealth {
    return {
      driver: this.output.driver,
      open: this.isOpen,
      lastSendAt: this.lastSendAt === undefined ? undefined : new Date(this.lastSendAt).toISOString(),
      lastResult: this.lastResult,
      consecutiveFailures: this.consecutiveFailures,
      framesSent: this.framesSent,
      lastError: this.lastError,
      details: this.output.describe(),
    };
  }

  async stop(): Promise<void> {
    this.isOpen = false;
    await this.output.close();
  }

  private async ensureOpen(): Promise<boolean> {
    if (this.isOpen) return true;
    try {
      await this.output.open();
      this.isOpen = true;
      return true;
    } catch (err) {
      this.fail(err, 'open');
      return false;
    }
  }

  private fail(err: unknown, phase: string): void {
    const e = err as NodeJS.ErrnoException;
    this.consecutiveFailures++;
    this.lastResult = 'error';
    this.lastSendAt = this.now();
    this.lastError = `${phase}: ${e.code ? e.code + ' ' : ''}${e.message ?? String(err)}`;
    if (this.consecutiveFailures === 1 || this.consecutiveFailures % 100 === 0) {
      this.log.warn({ driver: this.output.driver, phase, err: this.lastError, failures: this.consecutiveFailures }, 'output failed');
    }
  }
}
