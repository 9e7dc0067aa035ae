// /status `components.brightness`: per unit the brightness, the mode and where it comes from,
// the sources standing by, and a hand-over when a source failed; then the schedule, the
// sensors and the URLs themselves, and the warnings a technician acts on.
import type { ServiceConfig } from '../config/types.js';
import { decide, type Decision } from './precedence.js';
import type { UnitBrightness } from '../capability/brightness.js';
import type { ScheduleReport, ScheduleSource } from './schedule-source.js';
import type { SensorStatus } from './sensors/sensor.js';
import type { Sources } from './sources.js';
import type { UrlStatus } from './url-source.js';
import { isoTime } from '../util/clock.js';

export interface BrightnessStatus {
  units: UnitBrightness[];
  schedule: ScheduleReport;
  sensors: Array<SensorStatus & { displays: string[] }>;
  urls: Array<UrlStatus & { unit: string }>;
  /** Everything that needs a technician, one line each. */
  warnings: string[];
}

/** What the brightness component holds of each unit: the decision applied and since when. */
export interface UnitState {
  decision: Decision;
  since: number;
  handoverSince?: number;
  applied?: number;
}

export function brightnessStatus(
  config: ServiceConfig,
  now: number,
  units: Map<string, UnitState>,
  schedule: ScheduleSource,
  sources: Sources,
  blanked: ReadonlySet<string> = new Set(),
): BrightnessStatus {
  const reports: UnitBrightness[] = [];
  for (const u of config.units) {
    const main = config.displayById.get(u.displayIds[0])!;
    const candidates = sources.candidates(u, main, schedule, now);
    const st = units.get(main.id);
    const decision = st?.decision ?? decide(candidates);
    reports.push({
      id: main.id,
      displays: u.displayIds,
      brightness: decision.percent,
      blanked: blanked.has(main.id),
      mode: decision.mode,
      source: decision.source,
      since: isoTime(st?.since ?? now),
      sensorBrightness: main.sensorBrightness,
      ...(decision.handover
        ? {
            handover: {
              from: decision.handover.from,
              to: decision.mode,
              reason: decision.handover.reason,
              since: isoTime(st?.handoverSince ?? now),
            },
          }
        : {}),
      sources: candidates
        .filter((c) => c.configured || c.mode === decision.mode)
        .map((c) => ({
          mode: c.mode,
          state: c.mode === decision.mode ? 'in use' : c.value === undefined ? 'failed' : 'standing by',
          ...(c.value !== undefined ? { value: Math.round(c.value) } : {}),
          source: c.source,
          ...(c.value === undefined && c.reason ? { reason: c.reason } : {}),
        })),
    });
  }
  const sched = schedule.report(config);
  const sensors = sources.sensorStatus(now);
  const urls = sources.urlStatus(now);
  const warnings = [
    ...(sched.file.message ? [sched.file.message] : []),
    ...sensors.filter((s) => s.warning).map((s) => `sensor ${s.device}: ${s.warning}`),
    ...urls.filter((u) => u.warning).map((u) => `brightnessUrl of ${u.unit}: ${u.warning}`),
    ...reports
      .filter((r) => r.handover)
      .map(
        (r) =>
          `${r.id}: ${r.handover!.from} failed (${r.handover!.reason}); ${r.mode} rules since ${r.handover!.since}`,
      ),
  ];
  return { units: reports, schedule: sched, sensors, urls, warnings };
}
