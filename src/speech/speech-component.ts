// The speech component (docs/speech.md): the Speaker every source hands announcements to
// (/announce, MQTT, areas with `speak`, CAP alerts, departure boards), one bounded queue for
// the unit, and one announcement spoken at a time. Readouts (a passenger asking what the sign
// shows) go behind alerts only; their inputs start only when a display configures `readout`.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Component, RuntimeContext } from '../capability/component-contract.js';
import { SPEECH, type Announcement, type NotQueued, type Speaker } from '../capability/speaker.js';
import { FEEDS } from '../capability/feeds.js';
import { latestStates, onStateChange } from '../control/changes.js';
import type { ServiceProblem } from '../problem.js';
import { isoTime } from '../util/clock.js';
import { isQuiet } from './quiet.js';
import { showSpoken } from './show-spoken.js';
import { displayVolume, volumeInForce } from './volume.js';
import { SpeechQueue, type Offered, type Waiting } from './queue.js';
import { announceSink } from './sink.js';
import { SpeakAreas } from './speak-areas.js';
import { readoutText } from './readout-text.js';
import type { ReadoutInputs } from './readout-inputs.js';
import { SpeechStopped, Voice } from './voice.js';
import { fitted, MAX_SPOKEN, spokenText } from './words.js';

/** Text shown per announcement in /status. */
const SHOWN = 80;
const shown = (t: string) => (t.length > SHOWN ? `${t.slice(0, SHOWN - 1)}…` : t);

interface Counts {
  spoken: number;
  dropped: number;
  refusedQuiet: number;
  refusedFull: number;
  failed: number;
  readouts: number;
  repeated: number;
}

export class SpeechComponent implements Component, Speaker {
  readonly name = SPEECH.name;
  private ctx: RuntimeContext | undefined;
  private readonly queue = new SpeechQueue();
  private voice: Voice | undefined;
  private areas: SpeakAreas | undefined;
  private unsubscribe: (() => void) | undefined;
  private working = false;
  private stopped = false;
  private pace: { timer: NodeJS.Timeout; done: () => void } | undefined;
  private speaking: { w: Waiting; since: number } | undefined;
  private last: { w: Waiting; at: number; seconds: number; latencyMs: number; sink: string } | undefined;
  private fault: ServiceProblem | undefined;
  /** Announcements written per display since the start (a file sink's <n>). */
  private readonly written = new Map<string, number>();
  private readonly counts: Counts = {
    spoken: 0,
    dropped: 0,
    refusedQuiet: 0,
    refusedFull: 0,
    failed: 0,
    readouts: 0,
    repeated: 0,
  };
  private inputs: ReadoutInputs | undefined;

  async start(ctx: RuntimeContext): Promise<void> {
    this.ctx = ctx;
    this.stopped = false;
    this.voice = new Voice(mkdtempSync(path.join(tmpdir(), 'mlds-speech-')));
    this.areas = new SpeakAreas((a) => {
      this.announce(a);
    });
    this.areas.seed(ctx.config(), latestStates(ctx.config()));
    this.unsubscribe = onStateChange((c) => {
      if (c.config === this.ctx?.config()) this.areas?.update(c.config, c.displayId, c.state);
    });
    await this.syncInputs(ctx);
  }

  /** The readout inputs follow the configuration; nothing is loaded while no display has one. */
  private async syncInputs(ctx: RuntimeContext): Promise<void> {
    const config = ctx.config();
    if (!this.inputs && !config.displays.some((d) => d.readout?.inputs.length)) return;
    if (!this.inputs) {
      const { ReadoutInputs } = await import('./readout-inputs.js');
      this.inputs = new ReadoutInputs((id) => {
        this.readout(id);
      });
    }
    await this.inputs.sync(config);
  }

  async reload(ctx: RuntimeContext): Promise<void> {
    const config = ctx.config();
    // What the areas hold already was said: a reload speaks only values that change after it.
    this.areas?.seed(config, latestStates(config));
    for (const w of this.queue.filter((x) => config.displayById.has(x.displayId))) settle(w, false);
    // The voice or the device that failed may be fixed: the next announcement tells.
    this.fault = undefined;
    // The child speaking ends with the configuration it was started with (voice, rate, device).
    this.endPace();
    await this.voice?.abort();
    await this.syncInputs(ctx);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    await this.inputs?.stop();
    for (const w of this.queue.filter(() => false)) settle(w, false);
    this.endPace();
    await this.voice?.abort();
    this.voice?.cleanup();
  }

  announce(a: Announcement): { queued: true; position: number } | { queued: false; reason: NotQueued } {
    const ctx = this.ctx;
    if (!ctx || this.stopped) return { queued: false, reason: 'full' };
    const config = ctx.config();
    if (!config.displayById.has(a.displayId)) return { queued: false, reason: 'unknown-display' };
    const said = spokenText(a.text);
    // A client (HTTP, MQTT) is told its text is too long; a machine source's text is read as far as it fits.
    const text = a.source === 'http' || a.source === 'mqtt' ? said : fitted(said);
    if (!text) return { queued: false, reason: 'empty' };
    if (text.length > MAX_SPOKEN) return { queued: false, reason: 'too-long' };
    if (!a.priority && isQuiet(ctx.clock.now(), config.speech?.quietHours, config.timezone)) {
      this.counts.refusedQuiet++;
      return { queued: false, reason: 'quiet' };
    }
    const r = this.enqueue({ ...a, text, at: performance.now() });
    if (!r.queued) return r;
    void this.work();
    return { queued: true, position: r.position };
  }

  readout(displayId: string): ReturnType<Speaker['readout']> {
    const at = performance.now();
    const ctx = this.ctx;
    if (!ctx || this.stopped) return { queued: false, reason: 'full' };
    const display = ctx.config().displayById.get(displayId);
    if (!display) return { queued: false, reason: 'unknown-display' };
    if (!display.readout) return { queued: false, reason: 'no-readout' };
    const text = this.readoutWords(displayId);
    if (!text) return { queued: false, reason: 'empty' };
    const mine = (w: Waiting) => w.source === 'readout' && w.displayId === displayId;
    const waiting = this.queue.list().findIndex(mine);
    if (waiting >= 0) return { queued: true, position: waiting + 1, restarted: false };
    const r = this.enqueue({ displayId, text, priority: true, source: 'readout', at });
    if (!r.queued) return r;
    this.counts.readouts++;
    // Asked again while it is said: what is said now ends, and the readout starts again at once.
    const restarted = this.speaking !== undefined && mine(this.speaking.w);
    if (restarted) {
      this.counts.repeated++;
      this.endPace();
      void this.voice?.abort();
    }
    void this.work();
    return { queued: true, position: r.position, restarted };
  }

  /** Into the queue, counted; a full queue refuses it or drops its oldest of the lowest rank, which is logged. */
  private enqueue(w: Waiting): Offered {
    const r = this.queue.offer(w);
    if (!r.queued) {
      this.counts.refusedFull++;
      return r;
    }
    if (r.dropped) {
      this.counts.dropped++;
      settle(r.dropped, false);
      const { displayId: display, source, priority } = r.dropped;
      const why = 'speech: the queue is full; its oldest announcement of the lowest rank is dropped';
      this.ctx?.log.warn({ display, source, priority }, why);
    }
    return r;
  }

  /** What a readout of `displayId` says now. */
  private readoutWords(displayId: string): string {
    const config = this.ctx!.config();
    const display = config.displayById.get(displayId)!;
    const state = latestStates(config).get(displayId);
    return fitted(readoutText(display, state, this.ctx!.component(FEEDS), this.ctx!.clock.now(), config.timezone));
  }

  status(): unknown {
    const config = this.ctx?.config();
    const s = config?.speech;
    const now = this.ctx?.clock.now() ?? Date.now();
    const own = config?.displays.filter((d) => d.volume !== undefined) ?? [];
    const zone = config?.timezone;
    const item = (w: Waiting) => ({
      source: w.source,
      display: w.displayId,
      priority: w.priority,
      text: shown(w.text),
    });
    return {
      voice: s?.voice,
      rate: s?.rate,
      volume: s?.volume,
      chime: s?.chime ? path.basename(s.chime) : 'none',
      quietHours: s?.quietHours?.text ?? null,
      volumeSchedule: s?.volumeSchedule?.map((e) => ({ at: e.text, volume: e.volume })) ?? null,
      // The volume heard now: the unit's, and each display's that has its own share of it.
      volumeInForce: s ? volumeInForce(s, now, config?.timezone) : null,
      displayVolumes: s ? Object.fromEntries(own.map((d) => [d.id, displayVolume(s, d.volume, now, zone)])) : {},
      speaking: this.speaking ? { ...item(this.speaking.w), since: isoTime(this.speaking.since) } : null,
      queue: this.queue.list().map(item),
      last: this.last
        ? {
            ...item(this.last.w),
            at: isoTime(this.last.at),
            seconds: Math.round(this.last.seconds * 100) / 100,
            latencyMs: Math.round(this.last.latencyMs),
            sink: this.last.sink,
          }
        : null,
      counts: { ...this.counts },
    };
  }

  problems(): ServiceProblem[] {
    return [...(this.fault ? [this.fault] : []), ...(this.inputs?.problems() ?? [])];
  }

  /** Speaks the queue out, one announcement at a time. */
  private async work(): Promise<void> {
    if (this.working) return;
    this.working = true;
    try {
      for (let w = this.queue.take(); w; w = this.queue.take()) {
        if (this.stopped) {
          settle(w, false);
          continue;
        }
        settle(w, await this.say(w));
      }
    } finally {
      this.working = false;
    }
  }

  /** Whether it was said. */
  private async say(w: Waiting): Promise<boolean> {
    const ctx = this.ctx!;
    const config = ctx.config();
    const settings = config.speech;
    if (!settings || !this.voice || !config.displayById.has(w.displayId)) return false;
    // Queued before quiet hours began: still an ordinary announcement in the quiet.
    if (!w.priority && isQuiet(ctx.clock.now(), settings.quietHours, config.timezone)) {
      this.counts.refusedQuiet++;
      return false;
    }
    // A readout says what the sign shows when its turn comes, not when it was asked for.
    if (w.source === 'readout') w.text = this.readoutWords(w.displayId) || w.text;
    const n = (this.written.get(w.displayId) ?? 0) + 1;
    const sink = announceSink(config.audioDevice, w.displayId, n);
    this.speaking = { w, since: Date.now() };
    const begun = performance.now();
    const unshow = showSpoken(ctx, w.displayId, w.source, w.text);
    try {
      const own = config.displayById.get(w.displayId)?.volume;
      const volume = displayVolume(settings, own, ctx.clock.now(), config.timezone);
      const r = await this.voice.speak(w.text, { ...settings, volume }, sink);
      this.written.set(w.displayId, n);
      this.counts.spoken++;
      // From the announcement's arrival to its first sound: its wait in the queue, then espeak-ng and ffmpeg.
      this.last = {
        w,
        at: Date.now(),
        seconds: r.seconds,
        latencyMs: begun - w.at + r.firstSoundMs,
        sink: sink.describe,
      };
      if (this.fault) ctx.log.info({}, 'speech: speaking again');
      this.fault = undefined;
      ctx.log.info(
        { display: w.displayId, source: w.source, seconds: r.seconds, sink: sink.describe },
        'speech: announced',
      );
      // A file is written at once: the next announcement waits as long as this one would be heard.
      if (sink.kind === 'file') await this.hold(r.seconds * 1000);
      return true;
    } catch (err) {
      if (err instanceof SpeechStopped) return false;
      this.counts.failed++;
      const message = `cannot speak: ${(err as Error).message}`;
      if (this.fault?.message !== message) this.fault = { source: 'speech', message, since: isoTime(Date.now()) };
      ctx.log.warn({ display: w.displayId, err: (err as Error).message }, 'speech: announcement failed');
      return false;
    } finally {
      this.speaking = undefined;
      await unshow?.();
    }
  }

  private hold(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.pace = undefined;
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      timer.unref();
      this.pace = { timer, done };
    });
  }

  private endPace(): void {
    const p = this.pace;
    if (p) {
      clearTimeout(p.timer);
      p.done();
    }
  }
}

/** Tells the announcement's source what became of it; a source's callback never stops the queue. */
function settle(w: Waiting, said: boolean): void {
  try {
    w.settled?.(said);
  } catch {
    /* the source's own fault */
  }
}

export function speechComponent(): SpeechComponent {
  return new SpeechComponent();
}
