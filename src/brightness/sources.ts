// The live sources behind the precedence: manual values, light sensors and brightnessUrl
// pollers, kept in step with the configuration (a sensor or URL that a reload leaves as it was
// keeps running and keeps its readings), and each unit's candidate list built from them.
import { clockHeld } from '../time/clock-guard.js';
import type { DisplayConfig, SensorConfig, ServiceConfig, UnitConfig } from '../config/types.js';
import type { Logger } from '../log/logger.js';
import { describeUrl } from '../fetch/url-rules.js';
import type { Clock } from '../util/clock.js';
import type { Candidate } from './precedence.js';
import type { ScheduleSource } from './schedule-source.js';
import { Sensor, type SensorStatus } from './sensors/sensor.js';
import type { LinkDeps } from './sensors/lux-link.js';
import { UrlSource, type UrlStatus } from './url-source.js';

/**
 * Who set a manual level: over HTTP (/brightness) or from Home Assistant it needs
 * sensorBrightness; a fleet's admin command sets it on any unit.
 */
export type ManualBy = 'http' | 'home-assistant' | 'fleet';

/** How /status, /info and the log tell who set a manual level. */
export const MANUAL_BY: Record<ManualBy, string> = {
  http: 'set over HTTP',
  'home-assistant': 'set from Home Assistant (MQTT)',
  fleet: 'set by a fleet admin command (MQTT)',
};

export interface ManualValue {
  value: number;
  at: number;
  by?: ManualBy;
}

interface LiveSensor {
  sensor: Sensor;
  displays: string[];
}

export interface SourcesDeps {
  clock: Clock;
  log: Logger;
  link: LinkDeps;
  onChange(): void;
  urlPollMs?: number;
}

/** A sensor is the same sensor while everything that says how it is read is the same. */
function sensorKey(cfg: SensorConfig): string {
  const { protocol, path, baudRate, host, port, unitId, register, pollMs, curve } = cfg;
  return JSON.stringify({ protocol, path, baudRate, host, port, unitId, register, pollMs, curve });
}

const lx = (v: number | undefined) => (v === undefined ? '?' : `${Math.round(v)} lx`);

/** Why a sensor has no value now: how long it has been silent, and what is wrong. */
function silence(s: Sensor, now: number): string {
  const st = s.status(now);
  const last = st.lastReadingAt ? `no reading since ${st.lastReadingAt}` : 'no reading yet';
  return `${st.device}: ${last}${st.warning ? `; ${st.warning}` : ''}`;
}

export class Sources {
  /** Manual values by the MAIN id of their unit; memory only (a restart forgets them). */
  readonly manual = new Map<string, ManualValue>();
  private sensors = new Map<string, LiveSensor>();
  private urls = new Map<string, UrlSource>();

  constructor(private readonly deps: SourcesDeps) {}

  /** Starts what the configuration now asks for and stops what it no longer does. */
  async sync(config: ServiceConfig): Promise<void> {
    const mains = new Map(config.units.map((u) => [u.displayIds[0], config.displayById.get(u.displayIds[0])!]));
    // "Until sensorBrightness is turned off": a reload that turns it off (or drops the unit) ends the manual value.
    for (const [id, m] of [...this.manual])
      if (!mains.has(id) || (m.by !== 'fleet' && !mains.get(id)!.sensorBrightness)) this.manual.delete(id);

    const wanted = new Map<string, { cfg: SensorConfig; name: string; displays: string[] }>();
    for (const d of mains.values())
      if (d.sensor)
        wanted.set(sensorKey(d.sensor), { cfg: d.sensor, name: `displays/${d.id}/sensor`, displays: [d.id] });
    config.sensors.forEach((s, i) => wanted.set(sensorKey(s), { cfg: s, name: `sensors/${i}`, displays: s.displays }));
    for (const [key, live] of this.sensors) {
      if (!wanted.has(key)) {
        this.sensors.delete(key);
        await live.sensor.stop();
      }
    }
    for (const [key, w] of wanted) {
      const live = this.sensors.get(key);
      if (live) {
        live.displays = w.displays;
        live.sensor.name = w.name;
        continue;
      }
      const sensor = new Sensor(w.name, w.cfg, {
        clock: this.deps.clock,
        log: this.deps.log,
        link: this.deps.link,
        onChange: this.deps.onChange,
      });
      this.sensors.set(key, { sensor, displays: w.displays });
      sensor.start();
    }

    // A poller follows its unit, its URL and the port range the URL rules allow.
    const urlKey = (main: string, url: string | undefined) => `${main}\n${url}\n${config.urlPortRange.join('-')}`;
    const urls = new Map<string, { main: string; url: string }>();
    for (const d of mains.values())
      if (!d.sensorBrightness && d.brightnessUrl)
        urls.set(urlKey(d.id, d.brightnessUrl), { main: d.id, url: d.brightnessUrl });
    for (const [key, u] of this.urls)
      if (!urls.has(key)) {
        this.urls.delete(key);
        u.stop();
      }
    for (const [key, u] of urls) {
      if (this.urls.has(key)) continue;
      const src = new UrlSource(u.main, u.url, {
        clock: this.deps.clock,
        log: this.deps.log,
        portRange: config.urlPortRange,
        onChange: this.deps.onChange,
        pollMs: this.deps.urlPollMs,
      });
      this.urls.set(key, src);
      src.start();
    }
  }

  /** Every source for one unit, in the precedence order; `main` is its MAIN display. */
  candidates(unit: UnitConfig, main: DisplayConfig, schedule: ScheduleSource, now: number): Candidate[] {
    const manual = this.manual.get(main.id);
    const own = main.sensor ? this.sensors.get(sensorKey(main.sensor))?.sensor : undefined;
    const shared = [...this.sensors.values()]
      .filter((s) => s.displays.some((id) => unit.displayIds.includes(id)) && s.sensor !== own)
      .map((s) => s.sensor);
    const sharedValues = shared.map((s) => s.value(now)).filter((v): v is number => v !== undefined);
    const url = [...this.urls.values()].find((u) => u.unitMain === main.id && u.url === main.brightnessUrl);
    const urlValue = url?.current(now);
    const sched = schedule.state(now);
    const out: Candidate[] = [
      {
        mode: 'manual',
        configured: manual !== undefined && (manual.by === 'fleet' || main.sensorBrightness),
        value: manual?.value,
        source: manual
          ? `manual: ${manual.value} % ${MANUAL_BY[manual.by ?? 'http']} at ${new Date(manual.at).toISOString()}`
          : 'manual: not set',
      },
      {
        mode: 'sensor',
        configured: own !== undefined,
        value: own?.value(now),
        source: own ? `sensor ${own.status(now).device}: ${lx(own.lux)}` : 'no sensor',
        reason: own ? silence(own, now) : undefined,
      },
      {
        // Several shared sensors over one unit: the mean of those with a fresh reading.
        mode: 'shared-sensor',
        configured: shared.length > 0,
        value: sharedValues.length ? sharedValues.reduce((a, b) => a + b, 0) / sharedValues.length : undefined,
        source:
          `shared sensor${shared.length > 1 ? 's' : ''} ` +
          `${shared.map((s) => `${s.status(now).device}: ${lx(s.lux)}`).join(', ')}`,
        reason: shared.map((s) => silence(s, now)).join('; '),
      },
      {
        mode: 'url',
        configured: url !== undefined,
        value: urlValue,
        source: url ? `brightnessUrl ${describeUrl(url.url)}: ${urlValue ?? '?'}` : 'no brightnessUrl',
        reason: url ? (url.status(now).warning ?? 'no good value yet') : undefined,
      },
    ];
    const held = sched ? clockHeld(now) : undefined;
    if (sched && held) {
      // A schedule read from a clock still in 1970 would pick a night (or a day) at random.
      out.push({
        mode: sched.schedule.kind === 'file' ? 'schedule' : 'daylight',
        configured: true,
        value: 100,
        source: 'schedule held at full brightness: the clock is not set',
        reason: held,
      });
    } else if (sched) {
      const s = sched.state;
      const when = s.sunrise ? `, sunrise ${s.sunrise}, sunset ${s.sunset}` : '';
      out.push({
        mode: sched.schedule.kind === 'file' ? 'schedule' : 'daylight',
        configured: true,
        value: s.percent,
        source:
          `${sched.schedule.kind === 'file' ? 'brightness-schedule.json' : 'daylight schedule'}: ` +
          `${s.phase} (period from ${s.from}${when})`,
      });
    } else {
      out.push({
        mode: 'fixed',
        configured: true,
        value: 100,
        source: 'no latitude/longitude and no brightness-schedule.json: full brightness',
      });
    }
    return out;
  }

  /** The earliest moment a fresh sensor or URL value runs stale (the unit then hands over). */
  nextStale(now: number): number | undefined {
    const times = [
      ...[...this.sensors.values()].map((s) => s.sensor.freshUntil()),
      ...[...this.urls.values()].map((u) => u.freshUntil()),
    ].filter((t): t is number => t !== undefined && t > now);
    return times.length ? Math.min(...times) + 1 : undefined;
  }

  sensorStatus(now: number): Array<SensorStatus & { displays: string[] }> {
    return [...this.sensors.values()].map((s) => ({ ...s.sensor.status(now), displays: s.displays }));
  }

  urlStatus(now: number): Array<UrlStatus & { unit: string }> {
    return [...this.urls.values()].map((u) => ({ unit: u.unitMain, ...u.status(now) }));
  }

  async stop(): Promise<void> {
    for (const u of this.urls.values()) u.stop();
    this.urls.clear();
    await Promise.all([...this.sensors.values()].map((s) => s.sensor.stop()));
    this.sensors.clear();
  }
}
