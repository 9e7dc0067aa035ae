// The brightness card on /info: per physical unit the brightness, the mode and where it comes
// from (schedule period, sensor and its lux, URL, manual), a failed source handing over in red;
// then the schedule file, the sensors and the URLs, so a technician sees what to fix.
import { esc, kvCard, row, text, when, type Obj } from './format.js';

const MODES: Record<string, string> = {
  manual: 'manual (HTTP)',
  sensor: 'light sensor',
  'shared-sensor': 'shared light sensor',
  url: 'brightnessUrl',
  schedule: 'brightness-schedule.json',
  daylight: 'daylight schedule',
  fixed: 'fixed',
};

function unitRow(u: Obj, zone: string): string {
  const h = u.handover as Obj | undefined;
  const standby = ((u.sources as Obj[] | undefined) ?? [])
    .filter((s) => s.state !== 'in use')
    .map((s) => {
      const failed = s.state === 'failed';
      const why = failed ? `failed, ${text(s.reason)}` : `standing by at ${esc(s.value)} %`;
      return `<div class="note${failed ? ' bad' : ''}">${esc(MODES[String(s.mode)] ?? s.mode)}: ${why}</div>`;
    })
    .join('');
  const displays = esc(((u.displays as string[] | undefined) ?? []).join(', '));
  return (
    `<tr data-unit="${esc(u.id)}"><th>${esc(u.id)}<div class="note">${displays}</div></th>` +
    `<td><b>${esc(u.brightness)} %</b> <span class="tag">${esc(MODES[String(u.mode)] ?? u.mode)}</span>` +
    `<div>${text(u.source)}</div><div class="note">since ${when(u.since, zone)}</div>` +
    (h
      ? `<div class="bad">${esc(MODES[String(h.from)] ?? h.from)} failed: ${text(h.reason)}; ` +
        `handed over since ${when(h.since, zone)}</div>`
      : '') +
    `${standby}</td></tr>`
  );
}

function scheduleRows(s: Obj): string {
  const f = (s.file ?? {}) as Obj;
  const faults = (f.faults as Obj[] | undefined) ?? [];
  const loc = s.location as Obj | undefined;
  const file =
    f.status === 'ok'
      ? `in use: ${esc(f.periods)} periods, ramps of ${esc(f.rampMinutes)} min`
      : f.status === 'absent'
        ? '<span class="dim">absent</span>'
        : '<span class="bad">faulty</span>';
  const fault = (x: Obj) => `<li><code>${esc(x.path || '/')}</code>: ${text(x.message)}</li>`;
  const daylight = loc
    ? `${esc(loc.latitude)}, ${esc(loc.longitude)} <span class="note">${esc(s.timezone)}</span>`
    : '<span class="dim">no latitude/longitude: full brightness when nothing else rules</span>';
  return (
    row(
      'Schedule file',
      `${file}<div class="note">${text(f.path)}</div>` +
        (f.message ? `<div class="bad">${text(f.message)}</div>` : '') +
        (faults.length ? `<ul class="bad">${faults.map(fault).join('')}</ul>` : ''),
      f.status === 'faulty' ? 'bad' : '',
    ) + row('Daylight', daylight)
  );
}

function sensorRows(list: Obj[], zone: string): string {
  const reading = (s: Obj) =>
    s.lux === undefined
      ? '<span class="dim">no reading yet</span>'
      : `${esc(Math.round(Number(s.lux)))} lx → ${esc(s.percent)} %`;
  return list
    .map((s) =>
      row(
        `Sensor ${String(s.name)}`,
        `${esc(s.protocol)} ${text(s.device)}: ` +
          `${s.connected ? '<span class="ok">connected</span>' : '<span class="bad">not connected</span>'}` +
          `<div>${reading(s)}` +
          `${s.lastReadingAt ? ` <span class="note">read ${when(s.lastReadingAt, zone)}</span>` : ''}</div>` +
          `<div class="note">for ${esc(((s.displays as string[] | undefined) ?? []).join(', '))}</div>` +
          (s.warning ? `<div class="bad">${text(s.warning)}</div>` : ''),
        s.warning ? 'bad' : '',
      ),
    )
    .join('');
}

const NO_VALUE = '<span class="dim">no good value yet</span>';

function urlRows(list: Obj[], zone: string): string {
  return list
    .map((u) =>
      row(
        `URL of ${String(u.unit)}`,
        `${text(u.url)}<div>${u.value === undefined ? NO_VALUE : `${esc(u.value)} %`}` +
          `${u.lastGoodAt ? ` <span class="note">good at ${when(u.lastGoodAt, zone)}</span>` : ''}</div>` +
          (u.warning ? `<div class="bad">${text(u.warning)}</div>` : ''),
        u.warning ? 'bad' : '',
      ),
    )
    .join('');
}

export function brightnessCard(facts: Obj, zone: string): string {
  const units = (facts.units as Obj[] | undefined) ?? [];
  return kvCard(
    'brightness',
    'Brightness',
    units.map((u) => unitRow(u, zone)).join('') +
      scheduleRows((facts.schedule ?? {}) as Obj) +
      sensorRows((facts.sensors as Obj[] | undefined) ?? [], zone) +
      urlRows((facts.urls as Obj[] | undefined) ?? [], zone),
  );
}
