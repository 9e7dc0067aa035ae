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
import { emptyScope, type AlertScope } from './alert-scope.js';
import type { AlertData, RtData, SiriData, SiriVisit, VehicleData } from './model.js';
import { FeedPoll } from './poll.js';
import { stopMonitoringRequest } from './siri-request.js';
import { headOf, notAFeed } from './received.js';
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
  readonly alerts: FeedPoll<AlertData> | undefined;
  /** `vehiclePositionsUrl`'s poll: the vehicles' occupancy. */
  readonly vehicles: FeedPoll<VehicleData> | undefined;
  private readonly shows: AlertShows | undefined;
  private timers: unknown[] = [];
  private alertTimer: unknown;
  private stopped = false;
  private readonly stops: Set<string>;
  /** The feed's own time (header timestamp) of the data held, ms, and on the unit's clock when it last changed. */
  private stamp: number | undefined;
  private stampSeenAt = 0;
  /** The feed's time minus the unit's clock when the feed's time last changed, ms. */
  private skew: number | undefined;
  private staleTimer: unknown;
  /** What the schedule last read says of the boards (board-check.ts). */
  private checked: { schedule: Schedule; faults: BoardFault[] } | undefined;

  constructor(
    readonly config: FeedConfig,
    private readonly ctx: RuntimeContext,
    decoder: FeedDecoder,
    private readonly reader: ScheduleReader,
    private readonly changed: () => void,
  ) {
    const c = ctx.config();
    const maxBytes = c.feedMaxMB * 2 ** 20;
    this.stops = new Set(config.boards.flatMap((b) => b.stops));
    this.rt = new FeedPoll<RtData | SiriData>({
      url: config.url,
      field: `feeds/${config.id}/url`,
      headers: config.headers,
      interval: config.interval,
      maxBytes,
      portRange: c.urlPortRange,
      clock: ctx.clock,
      ...(config.method === 'post' ? { post: () => this.siriRequest() } : {}),
      parse: (body, type) =>
        config.type === 'siri'
          ? decoder.siri(body, this.zone())
          : this.protobuf(body, type, (b) => decoder.tripUpdates(b, this.schedule?.trips.keys() ?? [], this.rtStops())),
      onData: (data) => {
        this.stamped(data.timestamp);
        this.watchStale();
        const skipped = (data as Partial<RtData>).skipped;
        if (skipped)
          ctx.log.warn(
            { feed: config.id, skipped, first: (data as RtData).skippedEntities[0] },
            'feed entities cannot be read; the rest is used',
          );
        this.changed();
        // A SIRI situation for a journey is shown where the journey departs: that moves with the data.
        if (config.type === 'siri' && this.alerts?.data) void this.showAlerts(false);
      },
      onFault: (message) =>
        ctx.log.warn({ feed: config.id, err: message }, 'feed poll failed; the last good data stays'),
    });
    if (config.vehiclePositionsUrl) {
      this.vehicles = new FeedPoll<VehicleData>({
        url: config.vehiclePositionsUrl,
        field: `feeds/${config.id}/vehiclePositionsUrl`,
        headers: config.headers,
        interval: config.interval,
        maxBytes,
        portRange: c.urlPortRange,
        clock: ctx.clock,
        parse: (body, type) => this.protobuf(body, type, (b) => decoder.vehiclePositions(b, this.rtTrips())),
        onData: (data) => {
          if (data.skipped)
            ctx.log.warn(
              { feed: config.id, skipped: data.skipped, first: data.skippedEntities[0] },
              'vehicle positions cannot be read; the rest are used',
            );
          this.changed();
        },
        onFault: (message) =>
          ctx.log.warn({ feed: config.id, err: message }, 'vehicle positions poll failed; the last good data stays'),
      });
    }
    if (config.alertsUrl) {
      this.shows = new AlertShows(config, Math.min(3 * config.interval, 86_400));
      this.alerts = new FeedPoll<AlertData>({
        url: config.alertsUrl,
        field: `feeds/${config.id}/alertsUrl`,
        headers: config.headers,
        interval: config.interval,
        maxBytes,
        portRange: c.urlPortRange,
        clock: ctx.clock,
        parse: (body, type) =>
          config.type === 'siri' ? decoder.siriSx(body) : this.protobuf(body, type, (b) => decoder.gtfsAlerts(b)),
        onData: (data) => {
          if (data.skipped)
            ctx.log.warn(
              { feed: config.id, skipped: data.skipped, first: data.skippedEntities[0] },
              'feed alerts cannot be read; the rest are shown',
            );
          void this.showAlerts(true);
        },
        onFault: (message) =>
          ctx.log.warn({ feed: config.id, err: message }, 'feed alerts poll failed; the last good alerts stay'),
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
      this.vehicles?.start();
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
    if (this.staleTimer !== undefined) this.ctx.clock.clearTimeout(this.staleTimer);
    await Promise.all([this.rt.stop(), this.vehicles?.stop(), this.alerts?.stop()]);
    if (clearAlerts) await this.shows?.clearAll(this.ctx);
  }

  /** What a SIRI feed asked by POST sends: a StopMonitoringRequest for every board stop. */
  private siriRequest(): { body: string; contentType: string } {
    const body = stopMonitoringRequest(this.config.requestorRef ?? '', [...this.stops], this.ctx.clock.now());
    return { body, contentType: 'application/xml; charset=utf-8' };
  }

  /** Where a trip the schedule lacks must call to be kept: the boards' stops and their stations' platforms. */
  private rtStops(): Iterable<string> {
    return this.schedule ? new Set([...this.stops, ...this.schedule.counted()]) : this.stops;
  }

  /** Trips whose vehicles' occupancy a board may show: the schedule's kept trips and those the trip updates name. */
  private rtTrips(): Iterable<string> {
    const updated = (this.rt.data as RtData | undefined)?.trips?.keys() ?? [];
    return new Set([...(this.schedule?.trips.keys() ?? []), ...updated]);
  }

  zone(): string {
    return this.config.timezone ?? this.schedule?.agencyZone ?? this.ctx.config().timezone ?? systemZone();
  }

  board(q: BoardQuery): BoardData {
    const fresh = this.dataAge(q.now) <= q.staleAfter * 1000;
    if (this.config.type === 'siri') return siriBoard(q, this.siri(), fresh, this.config.timezone);
    if (!this.schedule && !this.rt.data) return NO_DATA;
    // The vehicles' occupancy is shown while their own feed is younger than the board's staleAfter.
    const vehicles = this.vehicles && this.vehicles.age(q.now) <= q.staleAfter * 1000 ? this.vehicles.data : undefined;
    return gtfsBoard(q, {
      schedule: this.schedule,
      zone: this.zone(),
      rt: this.rt.data as RtData | undefined,
      fresh,
      ...(vehicles ? { vehicles } : {}),
    });
  }

  /** A SIRI feed's last good data. */
  private siri(): SiriData | undefined {
    return this.config.type === 'siri' ? (this.rt.data as SiriData | undefined) : undefined;
  }

  /** A GTFS-realtime body decoded; when it cannot be, the fault says what the server sent instead. */
  private async protobuf<T>(body: Buffer, type: string | undefined, decode: (b: Buffer) => Promise<T>): Promise<T> {
    // The body moves to the decoding thread: what it began with is kept here.
    const head = headOf(body);
    const total = body.length;
    try {
      return await decode(body);
    } catch (err) {
      throw notAFeed(err, head, total, type, Object.values(this.config.headers ?? {}));
    }
  }

  /**
   * How old the realtime data is. Without a feed time: since it was last fetched (or confirmed
   * by a 304). With one: since the feed's time last changed, by the unit's clock (a producer that
   * stopped may still serve its file, fetched afresh each time), counted from the feed's time
   * itself when that is earlier and within `maxClockSkew`: a clock off by more must neither keep
   * boards live (fast) nor stale forever (slow).
   */
  dataAge(now: number): number {
    if (this.stamp === undefined) return this.rt.age(now);
    const trusted = Math.abs(this.skew ?? 0) <= this.config.maxClockSkew * 1000;
    return Math.max(0, now - (trusted ? Math.min(this.stampSeenAt, this.stamp) : this.stampSeenAt));
  }

  /**
   * The boards are told when their data passes a board's `staleAfter`, so they switch to the
   * timetable then; a board otherwise asks again only when a row or the minute changes.
   */
  private watchStale(): void {
    if (this.staleTimer !== undefined) this.ctx.clock.clearTimeout(this.staleTimer);
    this.staleTimer = undefined;
    if (this.stopped || this.rt.data === undefined) return;
    const age = this.dataAge(this.ctx.clock.now());
    const left = this.config.boards.map((b) => b.staleAfter * 1000 - age).filter((ms) => ms >= 0);
    if (!left.length) return;
    this.staleTimer = this.ctx.clock.setTimeout(
      () => {
        this.staleTimer = undefined;
        this.changed();
        this.watchStale();
      },
      Math.min(...left) + 1,
    );
  }

  /** New data's own time: when it moved, the unit's clock notes when, and how far apart the two were. */
  private stamped(stamp: number): void {
    if (!stamp) {
      this.stamp = undefined;
      this.skew = undefined;
      return;
    }
    if (stamp === this.stamp) return;
    const now = this.ctx.clock.now();
    this.stamp = stamp;
    this.stampSeenAt = now;
    this.skew = stamp - now;
  }

  status(now: number): Record<string, unknown> {
    const rt = this.rt.status(now);
    const stamp = this.rt.data?.timestamp;
    return {
      type: this.config.type,
      state: rt.state,
      ageSeconds: rt.ageSeconds,
      ...(stamp ? { feedTimestamp: isoTime(stamp), dataAgeSeconds: Math.round(this.dataAge(now) / 1000) } : {}),
      ...(this.skew !== undefined ? { clockSkewSeconds: Math.round(this.skew / 1000) } : {}),
      lastFault: rt.lastFault,
      zone: this.zone(),
      ...(this.config.type === 'gtfs-rt' ? skippedOf(this.rt.data as RtData | undefined) : {}),
      ...(this.siri()?.unreadTimes ? { unreadTimes: this.siri()?.unreadTimes } : {}),
      realtime: rt,
      ...(this.config.static
        ? {
            schedule: {
              state: this.scheduleState,
              loadedAt: isoTime(this.scheduleAt),
              nextLoadAt: isoTime(this.nextLoadAt),
              trips: this.schedule?.trips.size,
              stopTimes: this.schedule?.size,
              lastFault: this.scheduleFault,
              lastFaultAt: isoTime(this.scheduleFaultAt),
            },
          }
        : {}),
      ...(this.vehicles
        ? {
            vehiclePositions: {
              ...this.vehicles.status(now),
              trips: this.vehicles.data?.trips.size ?? 0,
              vehicles: this.vehicles.data?.vehicles.size ?? 0,
              ...skippedOf(this.vehicles.data),
            },
          }
        : {}),
      ...(this.alerts
        ? {
            alerts: {
              ...this.alerts.status(now),
              active: this.alerts.data?.alerts.length ?? 0,
              shownOn: this.shows?.count() ?? 0,
              ...skippedOf(this.alerts.data),
            },
          }
        : {}),
    };
  }

  problems(): ServiceProblem[] {
    const out: ServiceProblem[] = [];
    const now = this.ctx.clock.now();
    const rt = this.rt.status(now);
    if (rt.state === 'fault') {
      const age = rt.ageSeconds === undefined ? 'no good data yet' : `the last good data is ${rt.ageSeconds} s old`;
      out.push({
        source: 'feeds',
        message: `feed "${this.config.id}": ${rt.lastFault} (${age})`,
        since: rt.failingSince ?? isoTime(now),
      });
    }
    const unread = this.siri()?.unreadTimes;
    if (unread) {
      const why =
        `${unread.count} SIRI time(s) cannot be read, so their calls are not shown (the first: ` +
        `${unread.example}); a time without a UTC offset is read in the feed's timezone`;
      const since = isoTime(this.rt.lastGoodAt ?? now);
      out.push({ source: 'feeds', message: `feed "${this.config.id}": ${why}`, since });
    }
    if (this.skew !== undefined && Math.abs(this.skew) > this.config.maxClockSkew * 1000) {
      const s = Math.round(Math.abs(this.skew) / 1000);
      out.push({
        source: 'feeds',
        message:
          `feed "${this.config.id}": its time is ${s} s ${this.skew < 0 ? 'behind' : 'ahead of'} the unit's ` +
          `clock (maxClockSkew ${this.config.maxClockSkew} s): ` +
          "the producer's clock is wrong or it stopped updating; the data's age counts from when its time last " +
          'changed here',
        since: isoTime(this.stampSeenAt)!,
      });
    }
    // Boards the schedule leaves blank for ever (an unknown stop, a route that does not call there).
    if (this.schedule) {
      const since = isoTime(this.scheduleAt ?? now);
      if (this.checked?.schedule !== this.schedule) {
        this.checked = {
          schedule: this.schedule,
          faults: boardFaults(this.config.id, this.config.boards, this.schedule),
        };
      }
      for (const f of this.checked.faults) {
        out.push({ source: 'feeds', message: `feed "${this.config.id}": ${f.path}: ${f.message}`, since });
      }
    }
    if (this.scheduleState === 'fault')
      out.push({
        source: 'feeds',
        message: `feed "${this.config.id}" schedule: ${this.scheduleFault}`,
        since: isoTime(this.scheduleFaultAt ?? now),
      });
    const v = this.vehicles?.status(now);
    if (v?.state === 'fault')
      out.push({
        source: 'feeds',
        message: `feed "${this.config.id}" vehicle positions: ${v.lastFault}`,
        since: v.failingSince ?? isoTime(now),
      });
    const a = this.alerts?.status(now);
    if (a?.state === 'fault')
      out.push({
        source: 'feeds',
        message: `feed "${this.config.id}" alerts: ${a.lastFault}`,
        since: a.failingSince ?? isoTime(now),
      });
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
          toFile: file,
          maxBytes: this.ctx.config().feedMaxMB * 2 ** 20 * STATIC_SIZE_FACTOR,
          timeoutMs: STATIC_TIMEOUT_MS,
          portRange: this.ctx.config().urlPortRange,
          field: `feeds/${this.config.id}/static`,
        });
      } else file = src.file;
      const schedule = await this.reader.read(file, this.stops, this.ctx.config().staticMaxMB * 2 ** 20);
      if (this.stopped) return;
      this.schedule = schedule;
      this.scheduleState = 'ok';
      this.scheduleFaults = 0;
      this.scheduleAt = this.ctx.clock.now();
      this.ctx.log.info(
        { feed: this.config.id, trips: schedule.trips.size, stopTimes: schedule.size },
        'feed schedule read',
      );
      this.changed();
    } catch (err) {
      this.scheduleState = 'fault';
      this.scheduleFaults++;
      this.scheduleFault = (err as Error).message;
      this.scheduleFaultAt = this.ctx.clock.now();
      this.ctx.log.warn(
        { feed: this.config.id, err: this.scheduleFault },
        'feed schedule cannot be read; the last good one stays',
      );
    } finally {
      // Daily: a schedule changes with the timetable. One at a URL that failed gets another go
      // within the hour, then less often while it keeps failing (an agency fixes its file).
      // Set before the download is removed: /status never shows a fault without its next try.
      if (!this.stopped) {
        const retry = Math.min(DAY_MS, STATIC_RETRY_MS * 2 ** Math.min(this.scheduleFaults - 1, 5));
        this.nextLoadAt = started + (this.scheduleState === 'fault' && 'url' in src ? retry : DAY_MS);
        this.timers.push(
          this.ctx.clock.setTimeout(() => void this.loadSchedule(), this.nextLoadAt - this.ctx.clock.now()),
        );
      }
      if (dir) await rm(dir, { recursive: true, force: true });
    }
  }

  /** Alerts shown are looked at every interval (and renewed), and at each period's start and end. */
  private alertTick(): void {
    if (this.stopped) return;
    const now = this.ctx.clock.now();
    const next = nextChange(this.alerts?.data?.alerts ?? [], now);
    const wait = Math.min(this.config.interval * 1000, next === undefined ? Infinity : next - now + 1);
    this.alertTimer = this.ctx.clock.setTimeout(() => {
      void this.showAlerts(true).finally(() => this.alertTick());
    }, wait);
  }

  private running: Promise<void> = Promise.resolve();

  /** What a board answers to: the schedule's view of it; for SIRI, its stops and the lines seen there. */
  private alertScope(stops: readonly string[], routes: readonly string[] | undefined): AlertScope {
    if (this.config.type === 'gtfs-rt' && this.schedule) return this.schedule.scopeOf(stops, routes);
    const scope = emptyScope();
    for (const s of stops) scope.stops.add(s);
    // SIRI: the lines (by LineRef and PublishedLineName) and journeys departing at the board now, so
    // a situation for a journey follows it as the realtime data changes.
    const at = (v: SiriVisit) => stops.includes(v.stop) || v.alias?.some((a) => stops.includes(a));
    const shown = (v: SiriVisit) => !routes?.length || routes.includes(v.route) || routes.includes(v.line);
    for (const v of (this.siri()?.visits ?? []).filter((x) => at(x) && shown(x))) {
      if (!routes?.length) for (const r of [v.route, v.line]) if (r) scope.routes.add(r);
      if (v.journey) scope.trips.add(v.journey);
    }
    for (const r of routes ?? []) scope.routes.add(r);
    return scope;
  }

  private showAlerts(renew: boolean): Promise<void> {
    this.running = this.running.then(async () => {
      if (this.stopped || !this.shows) return;
      await this.shows.update(
        this.ctx,
        alertTargets(this.config, (stops, routes) => this.alertScope(stops, routes)),
        this.alerts?.data?.alerts ?? [],
        this.ctx.clock.now(),
        renew,
      );
    });
    return this.running;
  }
}

/** The entities of the last data that could not be read (left out), for /status. */
function skippedOf(data: Pick<RtData, 'skipped' | 'skippedEntities'> | undefined): {
  skippedEntities?: { count: number; named: RtData['skippedEntities'] };
} {
  return data?.skipped ? { skippedEntities: { count: data.skipped, named: data.skippedEntities } } : {};
}
