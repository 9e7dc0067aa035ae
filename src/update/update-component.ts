// The update component: software updates through RAUC (A/B slots), and what became of the
// last one. Loaded only where RAUC is configured (/etc/rauc/system.conf: components.ts).
// An update: download into the state folder within the URL rules and `updateMaxMB`, SHA-256
// checked, RAUC installs it into the other slot, the outcome is recorded (update-record.ts),
// then the caller reboots. After the reboot, start() compares the booted slot with the record.
import { mkdir, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Component, RuntimeContext } from '../capability/component-contract.js';
import type { ServiceProblem } from '../capability/status-types.js';
import {
  UPDATE,
  type LastUpdate,
  type SlotStatus,
  type UpdateState,
  type UpdateStatus,
  type UpdateStep,
  type Updater,
} from '../capability/update-status.js';
import { MldsError } from '../errors.js';
import { fetchLimited } from '../fetch/fetch-limited.js';
import { describeUrl } from '../fetch/url-rules.js';
import { checkFileDigest } from '../fetch/digest.js';
import type { RaucClient } from './rauc.js';
import { bootId, readRecord, writeRecord, type UpdateRecord } from './update-record.js';
import { markerFile } from './mark-good.js';

const MIB = 1024 * 1024;
/** A bundle of a few hundred MB over a slow link. */
const DOWNLOAD_LIMIT_MS = 60 * 60_000;
/** /status reads the slots again when they are older than this (mlds mark-good runs apart). */
const SLOTS_MAX_AGE_MS = 5000;
const BUSY: ReadonlySet<UpdateState> = new Set(['downloading', 'installing', 'rebooting']);

const iso = (ms: number) => new Date(ms).toISOString();

export class UpdateComponent implements Component, Updater {
  readonly name = UPDATE.name;
  private ctx?: RuntimeContext;
  private step: UpdateStep = { state: 'idle', percent: null, message: 'no update running' };
  private booted: string | null = null;
  private slotList: SlotStatus[] = [];
  private raucProblem?: string;
  private last?: LastUpdate;
  private readAt = 0;
  private reading?: Promise<void>;
  private readonly abort = new AbortController();

  /** `rebootSystem`: device/power.ts's, handed in by the runtime (a capability imports no other). */
  constructor(
    private readonly stateDir: string,
    private readonly rauc: RaucClient,
    private readonly rebootSystem: () => Promise<void>,
  ) {}

  async start(ctx: RuntimeContext): Promise<void> {
    this.ctx = ctx;
    const record = await readRecord(this.stateDir);
    this.last = record?.last;
    await this.readSlots();
    if (record && record.last.outcome === 'rebooting' && this.booted !== null) await this.settle(record);
  }

  async reload(): Promise<void> {}

  async stop(): Promise<void> {
    this.abort.abort();
  }

  status(): UpdateStatus {
    if (Date.now() - this.readAt > SLOTS_MAX_AGE_MS && !BUSY.has(this.step.state)) void this.readSlots();
    return {
      ...this.step,
      bootSlot: this.booted,
      slots: this.slotList,
      ...(this.last ? { last: this.last } : {}),
      ...(this.raucProblem ? { rauc: this.raucProblem } : {}),
    };
  }

  problems(): ServiceProblem[] {
    const l = this.last;
    if (l?.outcome !== 'fell-back' || !l.decidedAt) return [];
    return [{ source: 'update', message: l.message, since: l.decidedAt }];
  }

  async update(
    url: string,
    sha256: string,
    onStep: (s: UpdateStep) => void = () => {},
  ): Promise<{ message: string; slot: string; version?: string }> {
    if (BUSY.has(this.step.state))
      throw new MldsError(
        'MLDS_UPDATE_BUSY',
        `an update is ${this.step.state} (${this.step.message}); one runs at a time`,
      );
    const before = this.step;
    const at = iso(Date.now());
    const set = (state: UpdateState, percent: number | null, message: string) => {
      this.step = { state, percent, message };
      onStep(this.step);
    };
    this.step = { state: 'downloading', percent: 0, message: 'asking RAUC' };
    let from: string;
    try {
      from = await this.rauc.bootSlot();
    } catch (err) {
      // RAUC absent: nothing was tried, nothing to record.
      this.step = before;
      throw err;
    }
    const dir = path.join(this.stateDir, 'update');
    const file = path.join(dir, 'bundle.raucb');
    try {
      const config = this.ctx!.config();
      await mkdir(dir, { recursive: true });
      await unlink(file).catch(() => undefined);
      set('downloading', 0, `downloading ${describeUrl(url)}`);
      await fetchLimited(url, {
        toFile: file,
        maxBytes: config.updateMaxMB * MIB,
        timeoutMs: DOWNLOAD_LIMIT_MS,
        portRange: config.urlPortRange,
        signal: this.abort.signal,
        progressStep: 256 * 1024,
        onProgress: (p) =>
          set(
            'downloading',
            p.total ? Math.min(100, Math.floor((p.received / p.total) * 100)) : null,
            `downloading ${describeUrl(url)}: ${(p.received / MIB).toFixed(1)} MB`,
          ),
      });
      await checkFileDigest(file, sha256);
      set('installing', 0, 'RAUC installs the bundle into the other slot');
      const result = await this.rauc.install(file, (p) => set('installing', p.percent, p.message));
      if (!result.ok) throw new MldsError('MLDS_UPDATE_FAILED', `RAUC did not install the bundle: ${result.error}`);
      await this.readSlots();
      const target = installedSlot(this.slotList, from);
      const message =
        `installed into slot ${target?.bootname ?? '?'} (version ${target?.version ?? 'unknown'}); ` +
        `rebooting into it`;
      this.last = { outcome: 'rebooting', version: target?.version, slot: target?.bootname, from, at, message };
      // Installed whatever the record's fate: the bootloader boots the new slot next. Without the
      // record the next start cannot tell the outcome, which /status then does not claim.
      await writeRecord(this.stateDir, { last: this.last, bootId: await bootId() }).catch((err: Error) =>
        this.ctx!.log.warn({ err: err.message }, 'update: the record cannot be written'),
      );
      set('rebooting', 100, message);
      this.ctx!.log.info({ slot: target?.bootname, version: target?.version }, `update: ${message}`);
      return { message, slot: target?.bootname ?? '?', version: target?.version };
    } catch (err) {
      const message = (err as Error).message;
      this.last = { outcome: 'failed', from, at, decidedAt: iso(Date.now()), message };
      await writeRecord(this.stateDir, { last: this.last }).catch(() => undefined);
      set('failed', null, message);
      this.ctx!.log.warn({ err: message }, 'update failed');
      throw err;
    } finally {
      await unlink(file).catch(() => undefined);
    }
  }

  async reboot(): Promise<void> {
    try {
      await this.rebootSystem();
    } catch (err) {
      const why = (err as Error).message;
      const message = `installed, but the reboot failed: ${why}; reboot the unit to run the new slot`;
      this.step = { state: 'failed', percent: null, message };
      this.ctx?.log.error({ err: (err as Error).message }, message);
    }
  }

  /** After a reboot: which slot runs says how the update ended. */
  private async settle(record: UpdateRecord): Promise<void> {
    const l = record.last;
    const now = await bootId();
    if (this.booted === l.slot) {
      this.last = {
        ...l,
        outcome: 'installed',
        decidedAt: iso(Date.now()),
        markedGood: false,
        message:
          `running slot ${l.slot} (version ${l.version ?? 'unknown'}); marked good once the service has ` +
          `run without a fault (mlds mark-good)`,
      };
    } else if (now !== undefined && now === record.bootId) {
      return; // not rebooted yet: still `rebooting`
    } else {
      const other = this.slotList.find((s) => s.bootname === l.slot);
      this.last = {
        ...l,
        outcome: 'fell-back',
        decidedAt: iso(Date.now()),
        message:
          `the update to ${l.version ?? 'a new version'} in slot ${l.slot} fell back: running slot ` +
          `${this.booted} again; slot ${l.slot} is ${other?.bootStatus ?? 'unknown'}`,
      };
    }
    this.ctx?.log.info({ outcome: this.last.outcome }, `update: ${this.last.message}`);
    await writeRecord(this.stateDir, { last: this.last, bootId: record.bootId }).catch((err: Error) =>
      this.ctx?.log.warn({ err: err.message }, 'update: the record cannot be written'),
    );
  }

  /** RAUC's slots now; a RAUC that does not answer is shown, never thrown. */
  private readSlots(): Promise<void> {
    this.reading ??= (async () => {
      try {
        this.booted = await this.rauc.bootSlot();
        this.slotList = await this.rauc.slots();
        this.raucProblem = undefined;
        await this.noteMarked();
      } catch (err) {
        this.raucProblem = (err as Error).message;
      } finally {
        this.readAt = Date.now();
        this.reading = undefined;
      }
    })();
    return this.reading;
  }

  /** mlds mark-good leaves a marker once it marked the booted slot good in this boot. */
  private async noteMarked(): Promise<void> {
    const l = this.last;
    if (l?.outcome !== 'installed' || l.markedGood) return;
    try {
      const m = JSON.parse(await readFile(markerFile(this.stateDir), 'utf8')) as {
        slot?: string;
        bootId?: string;
        at?: string;
      };
      if (m.slot !== this.booted || m.bootId !== (await bootId())) return;
      this.last = {
        ...l,
        markedGood: true,
        message: `running slot ${l.slot} (version ${l.version ?? 'unknown'}), marked good at ${m.at}`,
      };
      await writeRecord(this.stateDir, { last: this.last });
    } catch {
      /* no marker yet */
    }
  }
}

/** The slot RAUC just wrote: not the booted one, the latest installed. */
function installedSlot(slots: SlotStatus[], booted: string): SlotStatus | undefined {
  return slots
    .filter((s) => s.bootname !== booted)
    .sort((a, b) => (b.installedAt ?? '').localeCompare(a.installedAt ?? ''))[0];
}

export function updateComponent(
  stateDir: string,
  rauc: RaucClient,
  rebootSystem: () => Promise<void>,
): UpdateComponent {
  return new UpdateComponent(stateDir, rauc, rebootSystem);
}
