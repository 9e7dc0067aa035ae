// GET /metrics: the /status facts in the Prometheus text format. Imported only when /metrics is
// first asked for; each scrape reads one status document and writes every family from it, so
// the names follow /status keys (frames.rendered -> mlds_frames_rendered_total) and nothing is
// counted twice. Counts since the start are counters (`_total`); the rest are gauges; a value
// /status does not know (null, absent) has no sample. Per physical unit the labels are `unit`
// (its output address), `display` (its MAIN id) and `displays` (all its ids, comma-separated);
// with `mqtt`, every series also carries `mqtt_unit`, the unit's name on the broker.
import { Registry, type Metric } from 'prom-client';
import type { FeedbackStatus } from './feedback.js';
import type { HealthReport } from './health.js';
import { MetricFamily, type Labels } from './metric-family.js';
import type { Status } from '../capability/status-types.js';
import { commandCounts, confirmationCounts, supersededCount } from '../control/counters.js';
import { UPDATE, UPDATE_OUTCOMES, UPDATE_STATES, type UpdateStatus } from '../capability/update-status.js';

const STATES = ['connecting', 'connected', 'disconnected', 'refused', 'stopped'] as const;

interface FleetFacts {
  unit?: string;
  state?: string;
  messagesIn?: number;
  messagesOut?: number;
  reconnects?: number;
  reconnectAttempts?: number;
  confirmations?: { dropped?: number; queued?: number };
  commands?: { waiting?: number };
  admin?: { refused?: number };
}
interface BrightnessFacts {
  units?: Array<{ id: string; brightness?: number; blanked?: boolean }>;
}

function build() {
  const registry = new Registry();
  const family = (name: string, help: string, type: 'counter' | 'gauge' = 'gauge') => {
    const f = new MetricFamily(name, help, type);
    registry.registerMetric(f as unknown as Metric);
    return f;
  };
  const counter = (name: string, help: string) => family(name, help, 'counter');
  return {
    registry,
    buildInfo: family('mlds_build_info', 'always 1; `version` is the running software version (/status version)'),
    startTime: family('mlds_start_time_seconds', 'when the service started, in seconds since 1970 (/status startedAt)'),
    configLoaded: family(
      'mlds_config_loaded_timestamp_seconds',
      'when the running configuration was loaded, in seconds since 1970 (config.loadedAt)',
    ),
    configGeneration: family(
      'mlds_config_generation',
      'configurations taken into use since the start: 1 for the first, one more for each reload that changed ' +
        'something (config.generation)',
    ),
    configOk: family(
      'mlds_config_last_load_successful',
      '1 when the last load of the configuration file succeeded, 0 when it had faults and the earlier ' +
        'configuration keeps running (config.status)',
    ),
    rendered: counter(
      'mlds_frames_rendered_total',
      "frames rendered by the unit's frame loop (/status displays[].frames.rendered)",
    ),
    sent: counter('mlds_frames_sent_total', "frames handed to the unit's output (frames.sent)"),
    missed: counter('mlds_frames_missed_total', 'frame deadlines that passed without a frame (frames.missed)'),
    dropped: counter('mlds_frames_dropped_total', 'frames replaced before the output took them (frames.dropped)'),
    outputFailures: family(
      'mlds_output_consecutive_failures',
      "failed sends in a row of the unit's output (output.consecutiveFailures)",
    ),
    outputReopens: counter(
      'mlds_output_reopens_total',
      'times the output was closed and opened again after failures (output.reopens)',
    ),
    brightness: family(
      'mlds_brightness_percent',
      "the brightness the unit's output is given, 0..100 (components.brightness.units[].brightness; 0 while blanked)",
    ),
    blanked: family(
      'mlds_blanked',
      '1 while the unit is blanked: dark, its content kept (components.brightness.units[].blanked)',
    ),
    commandAge: family(
      'mlds_last_command_age_seconds',
      "seconds since the display's last accepted command (displays[].lastCommand.at); no sample before its first",
    ),
    commands: counter(
      'mlds_commands_total',
      'control messages by source (http, cron, poller, mqtt...) and result (ok, fault, busy: shed under a flood, ' +
        'MLDS_BUSY)',
    ),
    superseded: counter(
      'mlds_commands_superseded_total',
      'accepted commands whose content was replaced before any frame carried it to the output, confirmed 1 ' +
        '(commands.superseded)',
    ),
    queued: family(
      'mlds_queued',
      'work waiting now: `queue` mqtt_commands (MQTT commands waiting for the control path, ' +
        'components.fleet.commands.waiting) or mqtt_confirmations (confirmations waiting for the broker, ' +
        'components.fleet.confirmations.queued)',
    ),
    confirmations: counter(
      'mlds_confirmations_total',
      'confirmations produced, by value (0 not shown, 1 shown, 2 faulty)',
    ),
    confirmationsDropped: counter(
      'mlds_confirmations_dropped_total',
      'confirmations that never reached their receiver: channel feedback (the HTTP feedback address; reason ' +
        'gave_up after the last retry, queue_full) or mqtt (queue_full while the broker was away)',
    ),
    broker: family('mlds_broker_state', 'the MQTT connection (components.fleet.state): 1 for the current state'),
    brokerMessages: counter(
      'mlds_broker_messages_total',
      'MQTT messages in and out (components.fleet.messagesIn, messagesOut)',
    ),
    brokerReconnects: counter(
      'mlds_broker_reconnects_total',
      'MQTT connections made again after one was lost (components.fleet.reconnects)',
    ),
    brokerReconnectAttempts: counter(
      'mlds_broker_reconnect_attempts_total',
      'MQTT attempts to connect again, whether or not they got through (components.fleet.reconnectAttempts)',
    ),
    adminRefused: counter(
      'mlds_broker_admin_refused_total',
      'MQTT admin commands refused for a missing or wrong adminKey (components.fleet.admin.refused)',
    ),
    temperature: family(
      'mlds_temperature_celsius',
      'SoC temperature (components.health.temperatureC); no sample without a thermal zone',
    ),
    clockSynchronized: family(
      'mlds_clock_synchronized',
      '1 when the system clock is synchronized, 0 when not (components.health.clock.synchronized); no sample ' +
        'until known',
    ),
    clockOffset: family(
      'mlds_clock_offset_seconds',
      "how far the clock is ahead of its time source, chrony's or timesyncd's report " +
        '(components.health.clock.offsetMs); no sample until known',
    ),
    clockSkew: family(
      'mlds_clock_skew_exceeded',
      '1 while the clock is further from its time source than maxClockSkew, 0 when not; no sample until the ' +
        'offset is known',
    ),
    diskFree: family('mlds_disk_free_bytes', 'free space of the state and log folders (components.health.disks)'),
    memoryAvailable: family(
      'mlds_memory_available_bytes',
      'memory available to new work (components.health.memory.availableBytes)',
    ),
    rss: family('mlds_service_rss_bytes', 'resident memory of the service (components.health.memory.serviceRssBytes)'),
    anonymous: family(
      'mlds_service_anonymous_bytes',
      'anonymous memory of the service, which the kernel cannot take back without swap ' +
        '(components.health.memory.serviceAnonymousBytes)',
    ),
    load: family('mlds_load1', 'one-minute load average (components.health.load[0])'),
    updateState: family(
      'mlds_update_state',
      'the software update now (components.update.state, with RAUC): 1 for the current state',
    ),
    updateOutcome: family(
      'mlds_update_last_outcome',
      "how the last software update ended (components.update.last.outcome): 1 for its outcome, `version` the bundle's",
    ),
    slot: family(
      'mlds_slot_info',
      'always 1, per RAUC slot (components.update.slots): `slot` its boot name, `booted` 1 for the one running, ' +
        '`boot_status` good or bad, `version` the bundle installed in it',
    ),
  };
}

let m: ReturnType<typeof build> | undefined;

const seconds = (iso: string | undefined) => (iso === undefined ? undefined : Date.parse(iso) / 1000);

export async function renderMetrics(status: Status): Promise<{ contentType: string; body: string }> {
  m ??= build();
  m.registry.resetMetrics();
  const fleet = status.components.fleet as FleetFacts | undefined;
  m.registry.setDefaultLabels(fleet?.unit ? { mqtt_unit: fleet.unit } : {});

  m.buildInfo.add(1, { version: status.version });
  m.startTime.add(seconds(status.startedAt));
  m.configLoaded.add(seconds(status.config.loadedAt));
  m.configGeneration.add(status.config.generation);
  m.configOk.add(status.config.status === 'ok' ? 1 : 0);

  // Per physical unit: its MAIN display (the first of its ids) names it besides its output address.
  const units = new Map<string, Labels>();
  for (const d of status.displays) {
    const l = units.get(d.unit);
    if (l) l.displays += `,${d.id}`;
    else units.set(d.unit, { unit: d.unit, display: d.id, displays: d.id });
  }
  const done = new Set<string>();
  const now = seconds(status.time);
  for (const d of status.displays) {
    const at = seconds(d.lastCommand?.at);
    if (now !== undefined && at !== undefined)
      m.commandAge.add(Math.max(0, Math.round((now - at) * 1000) / 1000), { display: d.id, unit: d.unit });
    if (done.has(d.unit)) continue;
    done.add(d.unit);
    const u = units.get(d.unit)!;
    if (d.frames) {
      m.rendered.add(d.frames.rendered, u);
      m.sent.add(d.frames.sent, u);
      m.missed.add(d.frames.missed, u);
      m.dropped.add(d.frames.dropped, u);
    }
    if (d.output) {
      m.outputFailures.add(d.output.consecutiveFailures, { ...u, driver: d.output.driver });
      m.outputReopens.add(d.output.reopens, { ...u, driver: d.output.driver });
    }
  }
  for (const b of (status.components.brightness as BrightnessFacts | undefined)?.units ?? []) {
    const unit = status.displays.find((d) => d.id === b.id)?.unit;
    if (unit === undefined) continue;
    m.brightness.add(b.blanked ? 0 : b.brightness, units.get(unit));
    m.blanked.add(b.blanked ? 1 : 0, units.get(unit));
  }

  for (const c of commandCounts()) m.commands.add(c.count, { source: c.source, result: c.result });
  for (const c of confirmationCounts()) m.confirmations.add(c.count, { confirm: String(c.confirm) });
  m.superseded.add(supersededCount());
  const feedback = status.components.feedback as FeedbackStatus | undefined;
  if (feedback) {
    m.confirmationsDropped.add(feedback.givenUp, { channel: 'feedback', reason: 'gave_up' });
    m.confirmationsDropped.add(feedback.dropped, { channel: 'feedback', reason: 'queue_full' });
  }
  if (fleet?.state) {
    for (const s of STATES) m.broker.add(s === fleet.state ? 1 : 0, { state: s });
    m.brokerMessages.add(fleet.messagesIn ?? 0, { direction: 'in' });
    m.brokerMessages.add(fleet.messagesOut ?? 0, { direction: 'out' });
    m.brokerReconnects.add(fleet.reconnects ?? 0);
    m.brokerReconnectAttempts.add(fleet.reconnectAttempts ?? 0);
    m.adminRefused.add(fleet.admin?.refused ?? 0);
    m.confirmationsDropped.add(fleet.confirmations?.dropped ?? 0, { channel: 'mqtt', reason: 'queue_full' });
    m.queued.add(fleet.commands?.waiting ?? 0, { queue: 'mqtt_commands' });
    m.queued.add(fleet.confirmations?.queued ?? 0, { queue: 'mqtt_confirmations' });
  }

  const h = status.components.health as HealthReport | undefined;
  if (h) {
    m.temperature.add(h.temperatureC);
    m.clockSynchronized.add(h.clock.synchronized === null ? null : h.clock.synchronized ? 1 : 0);
    const offset = h.clock.offsetMs ?? null;
    m.clockOffset.add(offset === null ? null : offset / 1000);
    m.clockSkew.add(offset === null ? null : Math.abs(offset) > h.clock.maxSkewMs ? 1 : 0);
    for (const d of h.disks) m.diskFree.add(d.freeBytes, { folder: d.folder });
    m.memoryAvailable.add(h.memory.availableBytes);
    m.rss.add(h.memory.serviceRssBytes);
    if (typeof h.memory.serviceAnonymousBytes === 'number') m.anonymous.add(h.memory.serviceAnonymousBytes);
    m.load.add(h.load[0]);
  }
  const u = status.components[UPDATE.name] as UpdateStatus | undefined;
  if (u) {
    for (const s of UPDATE_STATES) m.updateState.add(s === u.state ? 1 : 0, { state: s });
    if (u.last)
      for (const o of UPDATE_OUTCOMES)
        m.updateOutcome.add(o === u.last.outcome ? 1 : 0, { outcome: o, version: u.last.version ?? '' });
    for (const s of u.slots)
      m.slot.add(1, {
        slot: s.bootname,
        booted: s.bootname === u.bootSlot ? '1' : '0',
        boot_status: s.bootStatus ?? '',
        version: s.version ?? '',
      });
  }
  return { contentType: m.registry.contentType, body: await m.registry.metrics() };
}
