import type { AreaConfig, ServiceConfig } from '../config/types.js';
import type { AreaState } from '../control/state.js';
import type { ConfigDigests } from '../config/types.js';
import type { ConfigFault } from '../config/faults.js';
import type { Controller } from '../control/controller.js';
import type { OutputHealth } from '../output/runner.js';
import { drawerOf } from '../render/content/drawers.js';
import type { LoopStats } from '../render/loop.js';
import type { ContentReport, TextFit } from '../render/content/content.js';
import type { AreaReport, ArchiveResult, Identity, ServiceProblem, Status } from '../capability/status-types.js';
import { identity } from '../util/identity.js';
import { isoTime } from '../util/clock.js';
import { systemZone } from '../time/system-zone.js';
import { codeCacheReport } from '../util/code-cache.js';
import { supersededCount } from '../control/counters.js';
import { readBackMode } from '../render/read-back.js';

export type { Identity, ServiceProblem, Status };

export interface ConfigStatus {
  file: string;
  /** The unit's own part, merged over `file` when it exists. */
  unitFile?: string;
  /** Of the last configuration loaded (the running one, or a newer one that changed no setting). */
  digests?: ConfigDigests;
  /** When the running configuration was loaded. */
  loadedAt: number;
  /** Configurations taken into use since the start (1 for the first). */
  generation: number;
  /** The last load attempt (start, reload, periodic re-check) and its faults, if it failed. */
  lastAttemptAt: number;
  faults: ConfigFault[];
  /** Every fault of that attempt: `faults` lists at most 100 and a line counting the rest. */
  faultTotal?: number;
  lastArchive?: ArchiveResult;
}

export interface StatusInput {
  version: string;
  startedAt: number;
  now: number;
  config: ServiceConfig;
  configStatus: ConfigStatus;
  controller: Controller;
  health(unitKey: string): OutputHealth | undefined;
  /** Frame loop figures, areas that failed to draw, how texts fitted, what contents report of their areas; per unit. */
  render(unitKey: string): Drawing | undefined;
  /** Why an area that plays without drawing (audio) cannot play, from the capability that plays it. */
  playFault?(display: string, area: AreaConfig): string | undefined;
  /** Live view viewers per display. */
  liveViews: Record<string, { viewers: number }>;
  /** Current problems of the service itself; empty when all is well. */
  problems?(): ServiceProblem[];
  /** Facts of the running components (crons, pollers...), by name. */
  components?: Record<string, unknown>;
}

type AreaFacts<T> = Array<{ display: string; area: string } & T>;

/** What a unit's drawing says: its frame loop, and of its areas. */
export interface Drawing {
  loop: LoopStats;
  faults: AreaFacts<{ message: string }>;
  texts?: AreaFacts<TextFit>;
  reports?: AreaFacts<ContentReport>;
}

/** The machine-readable status (/status, sendInfo crons); /info renders the same facts as HTML. */
export function buildStatus(s: StatusInput): Status {
  const { config, now } = s;
  const cs = s.configStatus;
  const codeCache = codeCacheReport();
  return {
    service: 'mlds',
    version: s.version,
    identity: identity(),
    uptimeSeconds: Math.round((now - s.startedAt) / 1000),
    startedAt: isoTime(s.startedAt),
    ...(codeCache ? { codeCache: { ...codeCache } } : {}),
    readBack: { ...readBackMode() },
    time: isoTime(now),
    timezone: config.timezone ?? systemZone(),
    config: {
      status: cs.faults.length === 0 ? ('ok' as const) : ('faulty' as const),
      file: cs.file,
      ...(cs.digests ? { digest: cs.digests.digest, parts: configParts(cs) } : {}),
      loadedAt: isoTime(cs.loadedAt),
      generation: cs.generation,
      lastAttemptAt: isoTime(cs.lastAttemptAt),
      ...(cs.lastArchive ? { lastArchive: cs.lastArchive } : {}),
      ...(config.warnings.length ? { warnings: config.warnings } : {}),
      ...(cs.faults.length
        ? {
            message:
              `the last load of ${cs.file} failed with ${cs.faultTotal ?? cs.faults.length} fault(s); the ` +
              `configuration loaded at ${isoTime(cs.loadedAt)} keeps running`,
            faults: cs.faults,
            faultTotal: cs.faultTotal ?? cs.faults.length,
          }
        : {}),
    },
    displays: config.displays.map((d, i) => {
      const st = s.controller.state(d.id);
      const drawing = s.render(d.unit);
      const unit = config.units.find((u) => u.key === d.unit);
      return {
        id: d.id,
        name: d.displayName,
        main: i === 0,
        unitMain: unit?.displayIds[0] === d.id,
        unit: d.unit,
        resolution: `${d.width}x${d.height}`,
        width: d.width,
        height: d.height,
        controllerType: d.controllerType,
        displayIp: d.displayIp,
        output: s.health(d.unit),
        frames: drawing?.loop,
        liveViewers: s.liveViews[d.id]?.viewers ?? 0,
        layout: st.layout ?? null,
        layoutSince: isoTime(st.layout ? st.layoutSetAt : undefined),
        areas: st.layout ? [...st.areas.values()].map((a) => areaStatus(s, d.id, a, drawing)) : [],
        lastCommand: st.lastCommand ? { ...st.lastCommand, at: isoTime(st.lastCommand.at) } : null,
        lastFault: st.lastFault ? { ...st.lastFault, at: isoTime(st.lastFault.at) } : null,
        ignoredKeys: st.lastIgnored ?? [],
        layers: (st.layers ?? []).map((l) => ({
          priority: l.priority,
          layout: l.layout,
          since: isoTime(l.since),
          expiresAt: isoTime(l.expiresAt) ?? null,
          source: l.source,
        })),
      };
    }),
    problems: s.problems?.() ?? [],
    components: s.components ?? {},
    recentFaults: s.controller.recentFaults.map((f) => ({ ...f, at: isoTime(f.at) })),
    commands: { superseded: supersededCount() },
  };
}

/** One area of a display: its state, and what its drawing (or the capability playing it) says of it. */
function areaStatus(s: StatusInput, display: string, a: AreaState, drawing: Drawing | undefined): AreaReport {
  const { config, now } = s;
  const mine = <T extends { display: string; area: string }>(x: T) => x.display === display && x.area === a.area.id;
  // What the content on show says of a cleared area is no longer so.
  const report = a.source === 'none' ? undefined : drawing?.reports?.find(mine);
  return {
    id: a.area.id,
    type: a.area.type,
    source: a.source,
    value: a.value,
    text: shownText(a, report, now, config.timezone),
    file: a.file ? relative(config.dir, a.file) : undefined,
    url: a.url,
    fontColor: a.fontColor,
    fontSize: a.fontSize,
    since: isoTime(a.setAt),
    ttlLeftSeconds: a.expiresAt === undefined ? null : Math.max(0, Math.ceil((a.expiresAt - now) / 1000)),
    fault: a.fault ?? drawing?.faults.find(mine)?.message ?? s.playFault?.(display, a.area),
    ...textFit(drawing?.texts, display, a.area.id),
    ...(report?.board ? { board: report.board } : {}),
  };
}

/** How a text area's text fitted (`fit`, `fontSizeUsed`) and the characters no font has (`missingGlyphs`). */
function textFit(
  texts: Array<{ display: string; area: string } & TextFit> | undefined,
  display: string,
  area: string,
): Partial<AreaReport> {
  const t = texts?.find((x) => x.display === display && x.area === area);
  if (!t) return {};
  return {
    fit: t.fit,
    fontSizeUsed: t.size,
    ...(t.missing?.length ? { missingGlyphs: t.missing } : {}),
    ...(t.clippedPx ? { clippedPx: t.clippedPx } : {}),
  };
}

/** The text an area shows, as its type tells it (a clock's current time) or its content reports it (a board's rows). */
function shownText(a: AreaState, report: ContentReport | undefined, now: number, zone?: string): string | undefined {
  const own = drawerOf(a.area.type).statusText;
  if (own) return own(a.area, a, now, zone);
  return report ? report.text : a.text;
}

function relative(dir: string, file: string): string {
  return file.startsWith(dir + '/') ? file.slice(dir.length + 1) : file;
}

/** config.json (the fleet's base) and unit.json (the unit's own part): where each is and its digest. */
function configParts(cs: ConfigStatus): NonNullable<Status['config']['parts']> {
  const d = cs.digests!;
  return {
    base: { file: cs.file, digest: d.base },
    unit: { file: cs.unitFile ?? null, digest: d.unit ?? null },
  };
}
