// The schedule part of the precedence: brightness-schedule.json when present and valid, else
// the daylight schedule from latitude/longitude, else full brightness. The file is read at
// start, at every configuration reload and whenever it changes on disk (an inotify watch on
// the service directory); a file with faults is reported like a configuration fault and the
// schedule running before stays.
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { ConfigFault } from '../config/faults.js';
import type { ServiceConfig } from '../config/types.js';
import type { Logger } from '../log/logger.js';
import { daylightSchedule } from './daylight.js';
import { systemZone } from '../time/system-zone.js';
import { evaluate, type Schedule, type ScheduleState } from './schedule.js';
import { readScheduleFile, SCHEDULE_FILE } from './schedule-file.js';

/** Editors write in steps (truncate, write, rename): read once they are done. */
const SETTLE_MS = 150;

export interface ScheduleReport {
  /** What the schedule part of the precedence uses now. */
  using: 'file' | 'daylight' | 'fixed';
  file: {
    path: string;
    status: 'absent' | 'ok' | 'faulty';
    checkedAt: string;
    periods?: number;
    rampMinutes?: number;
    message?: string;
    faults?: ConfigFault[];
  };
  location?: { latitude: number; longitude: number };
  timezone: string;
}

export class ScheduleSource {
  private file: Schedule | undefined;
  private fileInfo: {
    status: 'absent' | 'ok' | 'faulty';
    periods?: number;
    faults?: ConfigFault[];
    checkedAt: number;
  } = { status: 'absent', checkedAt: 0 };
  private daylight: { schedule: Schedule; key: string } | undefined;
  private watcher: FSWatcher | undefined;
  private watching = '';
  private settle: NodeJS.Timeout | undefined;
  private dir = '';
  zone = systemZone();

  constructor(
    private readonly log: Logger,
    private readonly now: () => number,
    private readonly onChange: () => void,
  ) {}

  /** Follows the configuration: zone, location, the service directory; reads the file again. */
  configure(config: ServiceConfig): void {
    this.zone = config.timezone ?? systemZone();
    const { latitude: lat, longitude: lng } = config;
    const key = `${lat}/${lng}/${this.zone}`;
    if (lat === undefined || lng === undefined) this.daylight = undefined;
    else if (this.daylight?.key !== key) this.daylight = { schedule: daylightSchedule(this.zone, lat, lng), key };
    this.dir = config.dir;
    this.watchDir(config.dir);
    this.read();
  }

  /** The schedule in force: the file, else daylight; undefined means full brightness (no location). */
  current(): Schedule | undefined {
    return this.file ?? this.daylight?.schedule;
  }

  state(t: number): { schedule: Schedule; state: ScheduleState } | undefined {
    const schedule = this.current();
    return schedule ? { schedule, state: evaluate(schedule, this.zone, t) } : undefined;
  }

  report(config: ServiceConfig): ScheduleReport {
    const f = this.fileInfo;
    const instead = this.file
      ? 'the schedule loaded before keeps running'
      : this.daylight
        ? 'the daylight schedule runs'
        : 'full brightness';
    return {
      using: this.file ? 'file' : this.daylight ? 'daylight' : 'fixed',
      file: {
        path: path.join(this.dir, SCHEDULE_FILE),
        status: f.status,
        checkedAt: new Date(f.checkedAt).toISOString(),
        ...(f.periods !== undefined ? { periods: f.periods, rampMinutes: this.file?.rampMinutes } : {}),
        ...(f.faults
          ? {
              message: `${SCHEDULE_FILE} has ${f.faults.length} fault(s); ${instead}`,
              faults: f.faults,
            }
          : {}),
      },
      ...(config.latitude !== undefined && config.longitude !== undefined
        ? { location: { latitude: config.latitude, longitude: config.longitude } }
        : {}),
      timezone: this.zone,
    };
  }

  stop(): void {
    this.watcher?.close();
    this.watcher = undefined;
    this.watching = '';
    if (this.settle) clearTimeout(this.settle);
  }

  /** Reads the file; a change of what is in force is reported through onChange. */
  read(): void {
    const r = readScheduleFile(this.dir);
    const before = this.file;
    const now = this.now();
    if (r.state === 'ok') {
      if (this.fileInfo.status !== 'ok' || this.fileInfo.periods !== r.periods)
        this.log.info(
          { file: SCHEDULE_FILE, periods: r.periods, rampMinutes: r.schedule.rampMinutes },
          'brightness schedule loaded',
        );
      this.file = r.schedule;
      this.fileInfo = { status: 'ok', periods: r.periods, checkedAt: now };
    } else if (r.state === 'absent') {
      if (this.fileInfo.status !== 'absent')
        this.log.info({ file: SCHEDULE_FILE }, 'brightness schedule file removed; the daylight schedule runs');
      this.file = undefined;
      this.fileInfo = { status: 'absent', checkedAt: now };
    } else {
      if (JSON.stringify(r.faults) !== JSON.stringify(this.fileInfo.faults))
        this.log.warn(
          { file: SCHEDULE_FILE, faults: r.faults },
          'brightness schedule has faults; the schedule running before stays',
        );
      // The schedule running before stays: `this.file` is left as it is.
      this.fileInfo = { status: 'faulty', faults: r.faults, checkedAt: now, periods: this.fileInfo.periods };
    }
    if (before !== this.file) this.onChange();
  }

  private watchDir(dir: string): void {
    if (this.watching === dir) return;
    this.watcher?.close();
    this.watching = dir;
    try {
      this.watcher = watch(dir, { persistent: false }, (_event, name) => {
        if (name !== null && name !== SCHEDULE_FILE) return;
        if (this.settle) clearTimeout(this.settle);
        this.settle = setTimeout(() => {
          this.settle = undefined;
          this.read();
        }, SETTLE_MS);
        this.settle.unref();
      });
      this.watcher.on('error', (err) =>
        this.log.warn(
          { dir, err: err.message },
          'watching the service directory for the brightness schedule failed; it is read at reloads',
        ),
      );
    } catch (err) {
      this.watcher = undefined;
      this.log.warn(
        { dir, err: (err as Error).message },
        'cannot watch the service directory for the brightness schedule; it is read at reloads',
      );
    }
  }
}
