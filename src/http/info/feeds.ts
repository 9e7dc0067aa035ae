// The transit feeds card on /info (components.feeds): per feed its state, the age of its last
// good data and its last fault, the schedule it read and the alerts it shows, so a technician
// sees a board running on old data before a passenger does.
import { duration, esc, text, when, type Obj } from './format.js';

function state(s: unknown): string {
  const cls = s === 'ok' ? 'ok' : s === 'fault' ? 'bad' : 'dim';
  return `<span class="${cls}">${esc(s)}</span>`;
}

export function feedsCard(facts: Obj, zone: string): string {
  const feeds = Object.entries((facts.feeds as Obj | undefined) ?? {}) as Array<[string, Obj]>;
  const rows = feeds.map(([id, f]) => {
    const rt = (f.realtime ?? {}) as Obj;
    const sched = f.schedule as Obj | undefined;
    const alerts = f.alerts as Obj | undefined;
    const age = typeof f.ageSeconds === 'number' ? `last good data ${duration(f.ageSeconds)} old` : 'no good data yet';
    return `<tr data-feed="${esc(id)}"><th><code>${esc(id)}</code><div class="note">${esc(f.type)}${f.zone ? `, ${esc(f.zone)}` : ''}</div></th><td>`
      + `<div>${state(f.state)} <span class="note">${esc(age)}</span></div><div class="note">${text(rt.url)}</div>`
      + `${f.lastFault ? `<div class="note${f.state === 'fault' ? ' bad' : ''}">last fault${rt.lastFaultAt ? ` ${when(rt.lastFaultAt, zone)}` : ''}: ${text(f.lastFault)}</div>` : ''}`
      + `${sched ? `<div>schedule ${state(sched.state)} <span class="note">${esc(sched.trips ?? 0)} trips, ${esc(sched.stopTimes ?? 0)} stop times</span>${sched.lastFault ? `<div class="note bad">${text(sched.lastFault)}</div>` : ''}</div>` : ''}`
      + `${alerts ? `<div>alerts ${state(alerts.state)} <span class="note">${esc(alerts.active)} in the feed, shown on ${esc(alerts.shownOn)} display(s)</span>${alerts.lastFault && alerts.state === 'fault' ? `<div class="note bad">${text(alerts.lastFault)}</div>` : ''}</div>` : ''}`
      + '</td></tr>';
  });
  return `<section class="card component" data-component="feeds"><h2>Transit feeds</h2>${rows.length ? `<table class="kv"><tbody>${rows.join('')}</tbody></table>` : '<p class="dim">none</p>'}</section>`;
}
