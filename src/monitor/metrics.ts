// GET /metrics: the /status facts in the Prometheus text format, with prom-client. Imported
// only when /metrics is first asked for; each scrape reads the status document and sets the
// gauges from it, so the metric names follow /status keys (frames.rendered ->
// mlds_frames_rendered) and nothing is counted twice.
import { Gauge, Registry } from 'prom-client';
import type { Status } from './status-types.js';
import { commandCounts, confirmationCounts } from './counters.js';
import type { HealthReport } from './health.js';

const STATES = ['connecting', 'connected', 'disconnected', 'refused', 'stopped'] as const;

function build() {
  const registry = new Registry();
  const g = (name: string, help: string, labelNames: string[] = []) => new Gauge({ name, help, labelNames, registers: [registry] });
  return {
    registry,
    rendered: g('mlds_frames_rendered', 'frames rendered by the unit\'s frame loop since the start (/status displays[].frames.rendered)', ['unit']),
    sent: g('mlds_frames_sent', 'frames handed to the unit\'s output (frames.sent)', ['unit']),
    missed: g('mlds_frames_missed', 'frame deadlines that passed without a frame (frames.missed)', ['unit']),
    dropped: g('mlds_frames_dropped', 'frames replaced before the output took them (frames.dropped)', ['unit']),
    outputFailures: g('mlds_output_consecutive_failures', 'failed sends in a row of the unit\'s output (output.consecutiveFailures)', ['unit', 'driver']),
    outputReopens: g('mlds_output_reopens', 'times the output was closed and opened again after failures (output.reopens)', ['unit', 'driver']),
    commands: g('mlds_commands', 'control messages since the start, by source (http, cron, poller, mqtt...) and result (ok, fault)', ['source', 'result']),
    confirmations: g('mlds_confirmations', 'confirmations produced since the start, by value (0 not shown, 1 shown, 2 faulty)', ['confirm']),
    broker: g('mlds_broker_state', 'the MQTT connection (components.fleet.state): 1 for the current state', ['state']),
    brokerMessages: g('mlds_broker_messages', 'MQTT messages in and out (components.fleet.messagesIn/messagesOut)', ['direction']),
    brokerReconnects: g('mlds_broker_reconnects', 'MQTT reconnect attempts (components.fleet.reconnects)'),
    temperature: g('mlds_temperature_celsius', 'SoC temperature (components.health.temperatureC)'),
    clockSynchronized: g('mlds_clock_synchronized', '1 when the system clock is synchronized (components.health.clock.synchronized)'),
    diskFree: g('mlds_disk_free_bytes', 'free space of the state and log folders (components.health.disks)', ['folder']),
    memoryAvailable: g('mlds_memory_available_bytes', 'memory available to new work (components.health.memory.availableBytes)'),
    rss: g('mlds_service_rss_bytes', 'resident memory of the service (components.health.memory.serviceRssBytes)'),
    load: g('mlds_load1', 'one-minute load average (components.health.load[0])'),
  };
}

let m: ReturnType<typeof build> | undefined;

export async function renderMetrics(status: Status): Promise<{ contentType: string; body: string }> {
  m ??= build();
  m.registry.resetMetrics();
  const units = new Set<string>();
  for (const d of status.displays) {
    if (units.has(d.unit)) continue;
    units.add(d.unit);
    if (d.frames) {
      m.rendered.set({ unit: d.unit }, d.frames.rendered);
      m.sent.set({ unit: d.unit }, d.frames.sent);
      m.missed.set({ unit: d.unit }, d.frames.missed);
      m.dropped.set({ unit: d.unit }, d.frames.dropped);
    }
    if (d.output) {
      m.outputFailures.set({ unit: d.unit, driver: d.output.driver }, d.output.consecutiveFailures);
      m.outputReopens.set({ unit: d.unit, driver: d.output.driver }, d.output.reopens);
    }
  }
  for (const c of commandCounts()) m.commands.set({ source: c.source, result: c.result }, c.count);
  for (const c of confirmationCounts()) m.confirmations.set({ confirm: String(c.confirm) }, c.count);
  const fleet = status.components.fleet as { state?: string; messagesIn?: number; messagesOut?: number; reconnects?: number } | undefined;
  if (fleet?.state) {
    for (const s of STATES) m.broker.set({ state: s }, s === fleet.state ? 1 : 0);
    m.brokerMessages.set({ direction: 'in' }, fleet.messagesIn ?? 0);
    m.brokerMessages.set({ direction: 'out' }, fleet.messagesOut ?? 0);
    m.brokerReconnects.set(fleet.reconnects ?? 0);
  }
  const h = status.components.health as HealthReport | undefined;
  if (h) {
    if (h.temperatureC !== null) m.temperature.set(h.temperatureC);
    if (h.clock.synchronized !== null) m.clockSynchronized.set(h.clock.synchronized ? 1 : 0);
    for (const d of h.disks) m.diskFree.set({ folder: d.folder }, d.freeBytes);
    m.memoryAvailable.set(h.memory.availableBytes);
    m.rss.set(h.memory.serviceRssBytes);
    m.load.set(h.load[0]);
  }
  return { contentType: m.registry.contentType, body: await m.registry.metrics() };
}
