// The shape of /status (and of the JSON a `sendInfo` cron may POST): a contract with the
// machines that read it, so it is written down as types, not assembled ad hoc.
import type { ConfigFault } from '../config/faults.js';
import type { AreaType } from '../config/types.js';
import type { AreaState, FaultRecord } from '../control/state.js';
import type { OutputHealth } from '../output/runner.js';
import type { LoopStats } from '../render/loop.js';
import type { CodeCacheReport } from '../util/code-cache.js';
import type { ServiceProblem } from '../problem.js';
import type { Identity } from '../util/identity.js';
import type { ReadBackMode } from '../render/read-back.js';
import type { BoardState } from '../config/board-source.js';

export type { Identity, ServiceProblem };

/** The last /load_config?url= and how it ended. */
export interface ArchiveResult {
  url: string;
  at: string;
  result: 'ok' | 'error';
  message: string;
}

export interface ConfigReport {
  status: 'ok' | 'faulty';
  file: string;
  /** SHA-256 (hex) of the effective configuration and the files it links: equal on units configured alike. */
  digest?: string;
  /** The fleet's base (config.json, includes expanded) and the unit's own part (unit.json), each with its digest. */
  parts?: {
    base: { file: string; digest: string };
    unit: { file: string | null; digest: string | null };
  };
  loadedAt?: string;
  /**
   * Configurations taken into use since the start: 1 for the first, one more for each reload that changed something.
   */
  generation?: number;
  lastAttemptAt?: string;
  lastArchive?: ArchiveResult;
  message?: string;
  faults?: ConfigFault[];
  /** Every fault the last load found; `faults` lists at most the first 100 and a count line. */
  faultTotal?: number;
  /** The running configuration's warnings (overlapping areas): allowed, probably a slip. */
  warnings?: ConfigFault[];
}

/** What an area shows, as AreaState says it, with times as ISO text and files relative to the service directory. */
export interface AreaReport extends Pick<
  AreaState,
  'source' | 'value' | 'text' | 'file' | 'url' | 'fontColor' | 'fontSize'
> {
  id: string;
  type: AreaType;
  since?: string;
  ttlLeftSeconds: number | null;
  fault?: string;
  /** Text areas: how the text fitted (as-is, shrunk, wrapped, paged, scrolled, clipped) and the size used. */
  fit?: string;
  fontSizeUsed?: number;
  /** Characters no font of the chain has (drawn as gaps). */
  missingGlyphs?: string[];
  /** fit "clipped": pixels cut off the widest line at the area's edge. */
  clippedPx?: number;
  /** departures areas: what the board shows, live, scheduled (the realtime feed is stale or absent) or no-data. */
  board?: BoardState;
}

export type FaultReport = Omit<FaultRecord, 'at'> & { at?: string };

export interface DisplayReport {
  id: string;
  name?: string;
  main: boolean;
  unitMain: boolean;
  unit: string;
  resolution: string;
  width: number;
  height: number;
  controllerType?: string;
  displayIp?: string;
  output?: OutputHealth;
  frames?: LoopStats;
  liveViewers: number;
  layout: string | null;
  layoutSince?: string;
  areas: AreaReport[];
  lastCommand: { query: string; at?: string; inumber?: string; source: string } | null;
  lastFault: FaultReport | null;
  ignoredKeys: string[];
  /** Its priority levels, highest (on show) first. */
  layers: LayerReport[];
}

export interface LayerReport {
  priority: number;
  layout: string;
  since?: string;
  /** When the level ends by itself; null at priority 0. */
  expiresAt: string | null;
  source: string;
}

export interface Status {
  service: 'mlds';
  version: string;
  identity: Identity;
  uptimeSeconds: number;
  /** When the service started (ISO time). */
  startedAt: string;
  /** How the start used V8's code cache (dist/launch.cjs); absent when started otherwise. */
  codeCache?: CodeCacheReport;
  /**
   * How the compositor reads its pixels back: in place (the native helper), a copy, or getImageData, with why not in
   * place.
   */
  readBack: ReadBackMode;
  time?: string;
  timezone: string;
  config: ConfigReport;
  displays: DisplayReport[];
  problems: ServiceProblem[];
  /** Facts of the running components (crons, pollers, the re-check...), by name. */
  components: Record<string, unknown>;
  recentFaults: FaultReport[];
  /** Counted since the start, over every display and source. */
  commands: CommandTotals;
}

export interface CommandTotals {
  /**
   * Accepted commands whose content was replaced before any frame carried it to the output (confirmed 1, `superseded`).
   */
  superseded: number;
}
