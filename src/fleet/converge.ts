// Convergence on the merged desired state (desired.ts), part by part, in this order: config
// (an archive by URL and SHA-256, through the same path as /load_config), software (through the
// update component, where RAUC is), brightness, blank, content per display. Run on connect and
// at every change of a document; a failed part is tried again with backoff, at most once a
// minute. What it converged to is the reported document (reported.ts).
import path from 'node:path';
import { readFileSync } from 'node:fs';
import type { RuntimeContext } from '../capability/component-contract.js';
import { BRIGHTNESS } from '../capability/brightness.js';
import { UPDATE } from '../capability/update-status.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { VERSION } from '../version.js';
import { mergeDesired, parseDesired, type Desired, type DesiredSoftware, type Merged } from './desired.js';
import { reportOf, type Part, type Reported } from './reported.js';

/** The first retry of a failed part, doubled at each failure up to RETRY_MAX_MS. */
export const RETRY_MIN_MS = 60_000;
const RETRY_MAX_MS = 15 * 60_000;
/** What was applied, kept in the state folder: after a restart no archive is fetched again, no content shown again. */
const RECORD_FILE = 'desired-applied.json';

interface Applied {
  /** The archive last taken in, and the configuration digest it gave. */
  config?: { sha256: string; digest: string };
  /** The bundle last installed. */
  software?: { sha256: string; version: string };
  /** Per display: the document, rev and query whose content was applied. */
  content: { [display: string]: string };
}

export interface ConvergeIo {
  ctx(): RuntimeContext | undefined;
  /** The retained reported document goes out (when connected). */
  publish(doc: string): void;
  /** The /status summary changed. */
  changed(): void;
}

/** An error as an operator reads it: a refused archive names its first fault. */
function failure(err: unknown): string {
  const e = err as Error & { details?: { faults?: Array<{ path?: string; message?: string }> } };
  const first = e.details?.faults?.[0];
  return first ? `${e.message}: ${first.path ?? ''} ${first.message ?? ''}`.trim() : e.message;
}

export class Converger {
  private order: string[] = [];
  private readonly docs = new Map<string, { doc?: Desired; fault?: string }>();
  private parts: { [part: string]: Part } = {};
  private report: Reported | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private retryTimer: unknown;
  private retries = 0;
  private record: Applied | undefined;
  /** What brightness and blank were set to here, and for which configuration (in memory: a start sets them again). */
  private applied: { brightness?: number | 'auto'; blank?: boolean; brightnessFor?: object; blankFor?: object } = {};
  private stopped = false;

  constructor(
    private readonly io: ConvergeIo,
    private readonly stateDir: string | undefined,
  ) {}

  /** The desired topics in merge order (the unit's groups, then its own); documents of other topics are forgotten. */
  topics(order: string[]): void {
    this.order = order;
    for (const t of [...this.docs.keys()]) if (!order.includes(t)) this.docs.delete(t);
  }

  handles(topic: string): boolean {
    return this.order.includes(topic);
  }

  /** A retained document came (or was cleared): converge again. */
  document(topic: string, payload: Buffer): void {
    const p = parseDesired(payload);
    this.docs.set(topic, p.ok ? { doc: p.doc } : { fault: p.message });
    this.retries = 0;
    this.converge();
  }

  /** On every connection: the last report goes out afresh, and the unit converges. */
  connected(): void {
    if (this.report) this.io.publish(JSON.stringify(this.report));
    this.converge();
  }

  converge(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.runOnce().catch((err: Error) => {
          this.io.ctx()?.log.warn({ err: err.message }, 'mqtt: desired state: convergence failed');
        });
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.running = undefined;
    });
  }

  stop(): void {
    this.stopped = true;
    this.clearRetry();
  }

  status(): object {
    const r = this.report;
    if (!r) return { converged: null };
    const retrying = this.retryTimer !== undefined ? { retries: this.retries } : {};
    return { rev: r.rev, converged: r.converged, parts: r.parts, at: r.at, ...retrying };
  }

  private merged(): Merged {
    return mergeDesired(this.order.map((topic) => ({ topic, doc: this.docs.get(topic)?.doc })));
  }

  private async runOnce(): Promise<void> {
    const ctx = this.io.ctx();
    if (!ctx) return;
    this.clearRetry();
    const want = this.merged();
    this.parts = {};
    for (const t of this.order) {
      const f = this.docs.get(t)?.fault;
      if (f) this.parts[`document ${t}`] = { state: 'failed', message: `${t}: ${f}` };
    }
    const record = this.loadRecord();
    if (want.config) await this.step('config', () => this.config(ctx, want.config!, record));
    if (want.software) await this.step('software', () => this.software(ctx, want.software!, record));
    const now = this.io.ctx();
    if (!now) return;
    await this.step('brightness', () => this.brightness(now, want.brightness));
    await this.step('blank', () => this.blank(now, want.blank));
    const own = this.order.at(-1);
    for (const [id, c] of Object.entries(want.content)) {
      if (!now.config().displayById.has(id)) {
        // A group's document speaks to units of many shapes: a display this unit lacks is not its part.
        const message = `"content.${id}": this unit has no display "${id}"`;
        if (c.topic === own) this.parts[`content/${id}`] = { state: 'failed', message };
        continue;
      }
      const key = `${c.topic}\0${c.rev}\0${c.query}`;
      await this.step(`content/${id}`, () => this.content(now, id, c.query, key, record));
    }
    this.publish(want.rev);
    const failed = Object.values(this.parts).some((p) => p.state === 'failed');
    if (failed && !this.stopped) this.retryLater();
    else this.retries = 0;
  }

  /** One part: `act` says what it converged to (undefined: nothing to report); a throw is the part's failure. */
  private async step(part: string, act: () => Promise<string | undefined>): Promise<void> {
    try {
      const message = await act();
      if (message !== undefined) this.parts[part] = { state: 'ok', message };
    } catch (err) {
      this.parts[part] = { state: 'failed', message: failure(err) };
      this.io.ctx()?.log.warn({ part, err: (err as Error).message }, 'mqtt: desired state: a part failed');
    }
  }

  private pending(part: string, message: string, rev: string | undefined): void {
    this.parts[part] = { state: 'pending', message };
    this.publish(rev);
  }

  private async config(ctx: RuntimeContext, want: { url: string; sha256: string }, record: Applied): Promise<string> {
    // The archive is in use while the configuration running is the one it gave.
    const taken = record.config?.sha256 === want.sha256 && record.config.digest === runningDigest(ctx);
    if (taken) return `archive ${want.sha256.slice(0, 12)} in use`;
    this.pending('config', 'loading the archive', this.merged().rev);
    await ctx.loadConfig(want.url, want.sha256);
    record.config = { sha256: want.sha256, digest: runningDigest(ctx) ?? '' };
    await this.saveRecord(record);
    return `archive ${want.sha256.slice(0, 12)} loaded`;
  }

  private async software(ctx: RuntimeContext, want: DesiredSoftware, record: Applied): Promise<string | undefined> {
    if (want.version === VERSION) return `version ${VERSION} running`;
    const updater = ctx.component(UPDATE);
    if (!updater) {
      throw new Error(
        `"software": version ${want.version} wanted, ${VERSION} running, and this unit cannot update ` +
          'itself: RAUC is not present (no /etc/rauc/system.conf)',
      );
    }
    if (record.software?.sha256 === want.sha256) {
      // Installed once already: installing it again would loop through reboots.
      throw new Error(
        `"software": the bundle was installed, but the unit runs version ${VERSION}, not ${want.version} ` +
          '(it fell back, or the bundle carries another version)',
      );
    }
    this.pending('software', `installing version ${want.version}`, this.merged().rev);
    await updater.update(want.url, want.sha256);
    record.software = { sha256: want.sha256, version: want.version };
    await this.saveRecord(record);
    this.pending('software', `version ${want.version} installed; rebooting into it`, this.merged().rev);
    await updater.reboot();
    return undefined;
  }

  private mains(ctx: RuntimeContext): string[] {
    return ctx.config().units.map((u) => u.displayIds[0]);
  }

  private async brightness(ctx: RuntimeContext, want: number | 'auto' | undefined): Promise<string | undefined> {
    const was = this.applied.brightness;
    // Gone from the documents: the units follow their sources again, once.
    if (want === undefined && was === undefined) return undefined;
    const b = ctx.component(BRIGHTNESS);
    if (!b) throw new Error('"brightness": brightness control is not running (see the service log)');
    // Again after a reload: its units may be new.
    if (want !== was || this.applied.brightnessFor !== ctx.config()) {
      await b.setFleetLevel(this.mains(ctx), want === 'auto' ? undefined : want);
    }
    this.applied.brightness = want;
    this.applied.brightnessFor = ctx.config();
    return want === undefined ? undefined : want === 'auto' ? 'following the brightness sources' : `${want} %`;
  }

  private async blank(ctx: RuntimeContext, want: boolean | undefined): Promise<string | undefined> {
    const was = this.applied.blank;
    if (want === undefined && was === undefined) return undefined;
    const b = ctx.component(BRIGHTNESS);
    if (!b) throw new Error('"blank": brightness control is not running (see the service log)');
    if (want !== was || this.applied.blankFor !== ctx.config()) await b.setBlank(this.mains(ctx), want === true);
    this.applied.blank = want;
    this.applied.blankFor = ctx.config();
    return want === undefined ? undefined : want ? 'blanked' : 'lit';
  }

  private async content(ctx: RuntimeContext, id: string, query: string, key: string, record: Applied): Promise<string> {
    if (record.content[id] === key) return 'applied for this rev';
    const q = new URLSearchParams(query);
    const named = q.get('id');
    if (named !== null && named !== id) {
      throw new Error(`"content.${id}": the query names another display ("${named.slice(0, 64)}")`);
    }
    await ctx.apply(named === null ? `id=${encodeURIComponent(id)}&${query}` : query, 'mqtt');
    record.content[id] = key;
    await this.saveRecord(record);
    return 'applied for this rev';
  }

  private publish(rev: string | undefined): void {
    const ctx = this.io.ctx();
    if (!ctx) return;
    const digest = runningDigest(ctx) ?? null;
    const revs: Reported['revs'] = {};
    for (const t of this.order) {
      const d = this.docs.get(t);
      if (d?.doc) revs[t] = d.doc.rev ?? null;
    }
    this.report = reportOf(rev, revs, this.parts, digest, new Date(ctx.clock.now()));
    this.io.publish(JSON.stringify(this.report));
    this.io.changed();
  }

  private retryLater(): void {
    const ctx = this.io.ctx();
    if (!ctx) return;
    const wait = Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** Math.min(this.retries, 8));
    this.retries++;
    this.retryTimer = ctx.clock.setTimeout(() => {
      this.retryTimer = undefined;
      this.converge();
    }, wait);
  }

  private clearRetry(): void {
    if (this.retryTimer !== undefined) this.io.ctx()?.clock.clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  private loadRecord(): Applied {
    if (this.record) return this.record;
    let r: Partial<Applied> = {};
    if (this.stateDir) {
      try {
        r = JSON.parse(readFileSync(path.join(this.stateDir, RECORD_FILE), 'utf8')) as Partial<Applied>;
      } catch {
        /* none yet, or damaged: applied afresh */
      }
    }
    const content = typeof r.content === 'object' && r.content !== null ? r.content : {};
    this.record = { config: r.config, software: r.software, content };
    return this.record;
  }

  private async saveRecord(r: Applied): Promise<void> {
    if (!this.stateDir) return;
    await writeFileAtomic(path.join(this.stateDir, RECORD_FILE), JSON.stringify(r));
  }
}

/** /status `config.digest`: the effective configuration running and the files it links. */
function runningDigest(ctx: RuntimeContext): string | undefined {
  return ctx.status().config.digest;
}
