// The transit feeds card on /info (components.feeds): per feed its state, the age of its last
// good data and its last fault, the schedule it read and the alerts it shows, so a technician
// sees a board running on old data before a passenger does.
import { card, duration, esc, kvTableOrNone, text, when, type Obj } from './format.js';

function state(s: unknown): string {
  const cls = s === 'ok' ? 'ok' : s === 'fault' ? 'bad' : 'dim';
  return `<span class="${cls}">${esc(s)}</span>`;
}

/** The feed's last fault, in red while the feed is failing. */
function lastFault(f: Obj, rt: Obj, zone: string): string {
  if (!f.lastFault) return '';
  const at = rt.lastFaultAt ? ` ${when(rt.lastFaultAt, zone)}` : '';
  return `<div class="note${f.state === 'fault' ? ' bad' : ''}">last fault${at}: ${text(f.lastFault)}</div>`;
}

function schedule(s: Obj | undefined): string {
  if (!s) return '';
  const counts = `${esc(s.trips ?? 0)} trips, ${esc(s.stopTimes ?? 0)} stop times`;
  const fault = s.lastFault ? `<div class="note bad">${text(s.lastFault)}</div>` : '';
  return `<div>schedule ${state(s.state)} <span class="note">${counts}</span>${fault}</div>`;
}

function alertsOf(a: Obj | undefined): string {
  if (!a) return '';
  const counts = `${esc(a.active)} in the feed, shown on ${esc(a.shownOn)} display(s)`;
  const fault = a.lastFault && a.state === 'fault' ? `<div class="note bad">${text(a.lastFault)}</div>` : '';
  return `<div>alerts ${state(a.state)} <span class="note">${counts}</span>${fault}</div>`;
}

export function feedsCard(facts: Obj, zone: string): string {
  const feeds = Object.entries((facts.feeds as Obj | undefined) ?? {}) as Array<[string, Obj]>;
  const rows = feeds.map(([id, f]) => {
    const rt = (f.realtime ?? {}) as Obj;
    const age = typeof f.ageSeconds === 'number' ? `last good data ${duration(f.ageSeconds)} old` : 'no good data yet';
    return (
      `<tr data-feed="${esc(id)}"><th><code>${esc(id)}</code>` +
      `<div class="note">${esc(f.type)}${f.zone ? `, ${esc(f.zone)}` : ''}</div></th><td>` +
      `<div>${state(f.state)} <span class="note">${esc(age)}</span></div><div class="note">${text(rt.url)}</div>` +
      lastFault(f, rt, zone) +
      schedule(f.schedule as Obj | undefined) +
      alertsOf(f.alerts as Obj | undefined) +
      '</td></tr>'
    );
  });
  return card('feeds', 'Transit feeds', kvTableOrNone(rows));
}
