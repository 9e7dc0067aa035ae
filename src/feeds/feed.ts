// One configured feed at run time: its schedule (GTFS static, loaded at start and daily), its
// realtime poll, its alerts poll and the alerts it shows. The feeds component owns one per id.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RuntimeContext } from '../capability/component-contract.js';
import type { FeedConfig } from '../config/feed-types.js';
import { fetchLimited } from '../fetch/fetch-limited.js';
import { systemZone } from '../time/system-zone.js';
import type { ServiceProblem } from '../problem.js';
import { isoTime } from '../util/clock.js';
import { AlertShows, alertTargets, nextChange } from './alerts.js';
import type { BoardData, BoardQuery } from '../config/board-source.js';
import { gtfsBoard, NO_DATA, siriBoard } from './board.js';
import { boardFaults, type BoardFault } from './board-check.js';
import type { FeedDecoder } from './decoder.js';
import type { FeedAlert, RtData, SiriData } from './model.js';
import { FeedPoll } from './poll.js';
import { stopMonitoringRequest } from './siri-request.js';
import { siriAlertsAt } from './siri-alert-stops.js';
import type { Schedule } from './schedule.js';
import type { ScheduleReader } from './schedule-reader.js';

const DAY_MS = 24 * 3600_000;
/** A downloaded schedule may be this many times `feedMaxMB`: a national GTFS is hundreds of MB. */
export const STATIC_SIZE_FACTOR = 64;
const STATIC_TIMEOUT_MS = 10 * 60_000;
/** A schedule at a URL that failed is fetched again after this, doubling while it fails, at most daily. */
const STATIC_RETRY_MS = 3600_000;

export class Feed {
  schedule: Schedule | undefined;
  private scheduleState: 'none' | 'loading' | 'ok' | 'fault' = 'none';
  private scheduleAt: number | undefined;
  private scheduleFault: string | undefined;
  private scheduleFaultAt: number | undefined;
  /** Reads that failed in a row. */
  private scheduleFaults = 0;
  private nextLoadAt: number | undefined;
  readonly rt: FeedPoll<RtData | SiriData>;
  readonly alerts: FeedPoll<FeedAlert[]> | undefined;
  private readonly shows: AlertShows | undefined;
  private timers: unknown[] = [];
  private alertTimer: unknown;
  private stopped = false;
  private readonly stops: Set<string>;
  /** What the schedule last read says of the boards (board-check.ts). */
  private checked: { schedule: Schedule; faults: BoardFault[] } | undefined;

  constructor(
    readonly config: FeedConfig, private readonly ctx: RuntimeContext, decoder: FeedDecoder,
    private readonly reader: ScheduleReader, private readonly changed: () => void,
  ) {
    const c = ctx.config();
    const maxBytes = c.feedMaxMB * 2 ** 20;
    this.stops = new Set(config.boards.flatMap((b) => b.stops));
    this.rt = new FeedPoll<RtData | SiriData>({
      url: config.url, field: `feeds/${config.id}/url`, headers: config.headers, interval: config.interval, maxBytes, portRange: c.urlPortRange, clock: ctx.clock,
      ...(config.method === 'post' ? { post: () => this.siriRequest() } : {}),
      parse: (body) => (config.type === 'siri'
        ? decoder.siri(body, this.zone())
        : decoder.tripUpdates(body, this.schedule?.trips.keys() ?? [], this.stops)),
      onData: () => {
        this.changed();
        // A SIRI situation for a journey is shown where the journey departs: that moves with the data.
        if (config.type === 'siri' && this.alerts?.data) void this.showAlerts(false);
      },
      onFault: (message) => ctx.log.warn({ feed: config.id, err: message }, 'feed poll failed; the last good data stays'),
    });
    if (config.alertsUrl) {
      this.shows = new AlertShows(config, Math.min(3 * config.interval, 86_400));
      this.alerts = new FeedPoll<FeedAlert[]>({
        url: config.alertsUrl, field: `feeds/${config.id}/alertsUrl`, headers: config.headers, interval: config.interval, maxBytes, portRange: c.urlPortRange, clock: ctx.clock,
        parse: (body) => (config.type === 'siri' ? decoder.siriSx(body) : decoder.gtfsAlerts(body)),
        onData: () => void this.showAlerts(true),
        onFault: (message) => ctx.log.warn({ feed: config.id, err: message }, 'feed alerts poll failed; the last good alerts stay'),
      });
    }
  }

  /**
   * The realtime poll begins once a schedule file is read (it keeps the trips the schedule
   * names); a schedule at a URL may take minutes to download, so then it begins at once and
   * keeps those trips from the first poll after the schedule arrives.
   */
  start(): void {
    const loading = this.loadSchedule();
    const begin = () => {
      if (this.stopped) return;
      this.rt.start();
      this.alerts?.start();
      if (this.alerts) this.alertTick();
    };
    if (this.config.static && 'url' in this.config.static) begin();
    else void loading.finally(begin);
  }

  async stop(clearAlerts: boolean): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) this.ctx.clock.clearTimeout(t);
    if (this.alertTimer !== undefined) this.ctx.clock.clearTimeout(this.alertTimer);
    await Promise.all([this.rt.stop(), this.alerts?.stop()]);
    if (clearAlerts) await this.shows?.clearAll(this.ctx);
  }

  /** What a SIRI feed asked by POST sends: a StopMonitoringRequest for every board stop. */
  private siriRequest(): { body: string; contentType: string } {
    const body = stopMonitoringRequest(this.config.requestorRef ?? '', [...this.stops], this.ctx.clock.now());
    return { body, contentType: 'application/xml; charset=utf-8' };
  }

  zone(): string {
    return this.config.timezone ?? this.schedule?.agencyZone ?? this.ctx.config().timezone ?? systemZone();
  }

  board(q: BoardQuery): BoardData {
    const fresh = this.dataAge(q.now) <= q.staleAfter * 1000;
    if (this.config.type === 'siri') return siriBoard(q, this.siri(), fresh, this.config.timezone);
    if (!this.schedule && !this.rt.data) return NO_DATA;
    return gtfsBoard(q, { schedule: this.schedule, zone: this.zone(), rt: this.rt.data as RtData | undefined, fresh });
  }

  /** A SIRI feed's last good data. */
  private siri(): SiriData | undefined {
    return this.config.type === 'siri' ? this.rt.data as SiriData | undefined : undefined;
  }

  /**
   * How old the realtime data is: since it was last fetched (or confirmed by a 304), or since
   * the feed's own timestamp when that is older: a producer that stopped still serves a file.
   */
  dataAge(now: number): number {
    const stamp = this.rt.data?.timestamp;
    const age = this.rt.age(now);
    return stamp ? Math.max(age, now - stamp) : age;
  }

  status(now: number): Record<string, unknown> {
    const rt = this.rt.status(now);
    const stamp = this.rt.data?.timestamp;
    return {
      type: this.config.type,
      state: rt.state,
      ageSeconds: rt.ageSeconds,
      ...(stamp ? { feedTimestamp: isoTime(stamp), dataAgeSeconds: Math.round(this.dataAge(now) / 1000) } : {}),
      lastFault: rt.lastFault,
      zone: this.zone(),
      ...(this.siri()?.unreadTimes ? { unreadTimes: this.siri()?.unreadTimes } : {}),
      realtime: rt,
      ...(this.config.static ? {
        schedule: {
          state: this.scheduleState, loadedAt: isoTime(this.scheduleAt), nextLoadAt: isoTime(this.nextLoadAt), trips: this.schedule?.trips.size, stopTimes: this.schedule?.size,
          lastFault: this.scheduleFault, lastFaultAt: isoTime(this.scheduleFaultAt),
        },
      } : {}),
      ...(this.alerts ? { alerts: { ...this.alerts.status(now), active: this.alerts.data?.length ?? 0, shownOn: this.shows?.count() ?? 0 } } : {}),
    };
  }

  problems(): ServiceProblem[] {
    const out: ServiceProblem[] = [];
    const now = this.ctx.clock.now();
    const rt = this.rt.status(now);
    if (rt.state === 'fault') {
      const age = rt.ageSeconds === undefined ? 'no good data yet' : `the last good data is ${rt.ageSeconds} s old`;
      out.push({ source: 'feeds', message: `feed "${this.config.id}": ${rt.lastFault} (${age})`, since: rt.failingSince ?? isoTime(now) });
    }
    const unread = this.siri()?.unreadTimes;
    if (unread) {
      const why = `${unread.count} SIRI time(s) cannot be read, so their calls are not shown (the first: `
        + `${unread.example}); a time without a UTC offset is read in the feed's timezone`;
      const since = isoTime(this.rt.lastGoodAt ?? now);
      out.push({ source: 'feeds', message: `feed "${this.config.id}": ${why}`, since });
    }
    // Boards the schedule leaves blank for ever (an unknown stop, a route that does not call there).
    if (this.schedule) {
      const since = isoTime(this.scheduleAt ?? now);
      if (this.checked?.schedule !== this.schedule) {
        this.checked = { schedule: this.schedule, faults: boardFaults(this.config.id, this.config.boards, this.schedule) };
      }
      for (const f of this.checked.faults) {
        out.push({ source: 'feeds', message: `feed "${this.config.id}": ${f.path}: ${f.message}`, since });
      }
    }
    if (this.scheduleState === 'fault') out.push({ source: 'feeds', message: `feed "${this.config.id}" schedule: ${this.scheduleFault}`, since: isoTime(this.scheduleFaultAt ?? now) });
    const a = this.alerts?.status(now);
    if (a?.state === 'fault') out.push({ source: 'feeds', message: `feed "${this.config.id}" alerts: ${a.lastFault}`, since: a.failingSince ?? isoTime(now) });
    return out;
  }

  private async loadSchedule(): Promise<void> {
    const src = this.config.static;
    if (!src || this.stopped) return;
    this.scheduleState = this.schedule ? 'ok' : 'loading';
    this.nextLoadAt = undefined;
    const started = this.ctx.clock.now();
    let dir: string | undefined;
    try {
      let file: string;
      if ('url' in src) {
        dir = await mkdtemp(path.join(tmpdir(), 'mlds-gtfs-'));
        file = path.join(dir, 'gtfs.zip');
        await fetchLimited(src.url, {
          toFile: file, maxBytes: this.ctx.config().feedMaxMB * 2 ** 20 * STATIC_SIZE_FACTOR, timeoutMs: STATIC_TIMEOUT_MS,
          portRange: this.ctx.config().urlPortRange, field: `feeds/${this.config.id}/static`,
        });
      } else file = src.file;
      const schedule = await this.reader.read(file, this.stops, this.ctx.config().staticMaxMB * 2 ** 20);
      if (this.stopped) return;
      this.schedule = schedule;
      this.scheduleState = 'ok';
      this.scheduleFaults = 0;
      this.scheduleAt = this.ctx.clock.now();
      this.ctx.log.info({ feed: this.config.id, trips: schedule.trips.size, stopTimes: schedule.size }, 'feed schedule read');
      this.changed();
    } catch (err) {
      this.scheduleState = 'fault';
      this.scheduleFaults++;
      this.scheduleFault = (err as Error).message;
      this.scheduleFaultAt = this.ctx.clock.now();
      this.ctx.log.warn({ feed: this.config.id, err: this.scheduleFault }, 'feed schedule cannot be read; the last good one stays');
    } finally {
      if (dir) await rm(dir, { recursive: true, force: true });
      // Daily: a schedule changes with the timetable. One at a URL that failed gets another go
      // within the hour, then less often while it keeps failing (an agency fixes its file).
      if (!this.stopped) {
        const retry = Math.min(DAY_MS, STATIC_RETRY_MS * 2 ** Math.min(this.scheduleFaults - 1, 5));
        this.nextLoadAt = started + (this.scheduleState === 'fault' && 'url' in src ? retry : DAY_MS);
        this.timers.push(this.ctx.clock.setTimeout(() => void this.loadSchedule(), this.nextLoadAt - this.ctx.clock.now()));
      }
    }
  }

  /** Alerts shown are looked at every interval (and renewed), and at each period's start and end. */
  private alertTick(): void {
    if (this.stopped) return;
    const now = this.ctx.clock.now();
    const next = nextChange(this.alerts?.data ?? [], now);
    const wait = Math.min(this.config.interval * 1000, next === undefined ? Infinity : next - now + 1);
    this.alertTimer = this.ctx.clock.setTimeout(() => { void this.showAlerts(true).finally(() => this.alertTick()); }, wait);
  }

  private running: Promise<void> = Promise.resolve();

  private showAlerts(renew: boolean): Promise<void> {
    this.running = this.running.then(async () => {
      if (this.stopped || !this.shows) return;
      const routesAt = (stops: readonly string[]) => (this.config.type === 'siri'
        ? [...new Set((this.siri()?.visits ?? [])
          .filter((v) => stops.includes(v.stop)).flatMap((v) => [v.route, v.line]))]
        : this.schedule?.routesAt(stops) ?? []);
      const alerts = this.config.type === 'siri'
        ? siriAlertsAt(this.alerts?.data ?? [], this.siri()?.visits ?? [], [...this.stops])
        : this.alerts?.data ?? [];
      await this.shows.update(this.ctx, alertTargets(this.config, routesAt), alerts, this.ctx.clock.now(), renew);
    });
    return this.running;
  }
}
