// The buttons and receivers that ask for a display's readout (`displays.<id>.readout.inputs`):
// started when the configuration names them, reopened a few seconds after one fails, ended on
// a reload that changes them or on a stop. The GPIO and serial code is loaded only when an
// input of its kind is configured.
import type { ReadoutInput } from '../config/readout.js';
import type { ServiceConfig } from '../config/types.js';
import type { ServiceProblem } from '../problem.js';
import { isoTime } from '../util/clock.js';
import type { GpioEdge, GpioLines } from './gpio-lines.js';

/** Seconds before a failed input is opened again. */
export const REOPEN_MS = 5000;

interface Running {
  key: string;
  close(): Promise<void>;
  fault?: ServiceProblem;
  timer?: NodeJS.Timeout;
  ended: boolean;
}

const keyOf = (display: string, i: ReadoutInput) =>
  `${display}\n${JSON.stringify({ ...i, pattern: i.type === 'serial' ? i.pattern.toString('hex') : undefined })}`;

export class ReadoutInputs {
  private readonly running = new Map<string, Running>();

  /** `press(display)` asks for a readout; `gpio` replaces gpiomon (tests). */
  constructor(
    private readonly press: (display: string) => void,
    private readonly gpio?: GpioLines,
  ) {}

  /** Starts the inputs `config` names that are not running, ends those it no longer names. */
  async sync(config: ServiceConfig): Promise<void> {
    const wanted = new Map<string, [string, ReadoutInput]>();
    for (const d of config.displays) for (const i of d.readout?.inputs ?? []) wanted.set(keyOf(d.id, i), [d.id, i]);
    for (const [key, r] of [...this.running]) {
      if (wanted.has(key)) continue;
      this.running.delete(key);
      await this.end(r);
    }
    for (const [key, [display, input]] of wanted) if (!this.running.has(key)) await this.open(key, display, input);
  }

  async stop(): Promise<void> {
    const all = [...this.running.values()];
    this.running.clear();
    for (const r of all) await this.end(r);
  }

  problems(): ServiceProblem[] {
    return [...this.running.values()].flatMap((r) => (r.fault ? [r.fault] : []));
  }

  private async end(r: Running): Promise<void> {
    r.ended = true;
    if (r.timer) clearTimeout(r.timer);
    await r.close();
  }

  private async open(key: string, display: string, input: ReadoutInput): Promise<void> {
    const r: Running = { key, close: async () => {}, ended: false };
    this.running.set(key, r);
    const what = `readout input ${input.type === 'gpio' ? `${input.chip} line ${input.line}` : input.port}`;
    const failed = (why: string) => {
      if (r.ended) return;
      const message = `${what}: ${why}`;
      if (r.fault?.message !== message) r.fault = { source: 'speech', message, since: isoTime(Date.now()) };
      r.timer = setTimeout(() => {
        if (r.ended || this.running.get(key) !== r) return;
        this.running.delete(key);
        void this.open(key, display, input);
      }, REOPEN_MS);
      r.timer.unref();
    };
    try {
      if (input.type === 'gpio') {
        const { debouncer, gpiomonLines } = await import('./gpio-lines.js');
        const pass = debouncer(input.debounceMs);
        const onEdge = (e: GpioEdge) => {
          if (pass(e)) this.press(display);
        };
        const w = (this.gpio ?? gpiomonLines).watch(input.chip, input.line, input.edge, onEdge, failed);
        r.close = () => w.close();
      } else {
        const { watchSerial } = await import('./serial-trigger.js');
        const w = await watchSerial(input.port, input.baudRate, input.pattern, () => this.press(display), failed);
        r.close = () => w.close();
      }
      if (r.ended) await r.close();
    } catch (err) {
      failed((err as Error).message);
    }
  }
}
