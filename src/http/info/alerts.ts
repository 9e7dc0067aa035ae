// The CAP alerts card on /info (components.alerts): per display the alerts in force, the one
// on show marked, one the display refused with why; per feed its fault with its age and why
// each other alert was not shown.
import { card, esc, kvTable, text, when, type Obj } from './format.js';

export function alertsCard(facts: Obj, zone: string): string {
  const displays = (facts.displays as Record<string, Obj[]> | undefined) ?? {};
  const feeds = (facts.feeds as Obj[] | undefined) ?? [];
  const alert = (a: Obj) =>
    `<div${a.showing ? ' class="ok"' : ''}>${esc(a.event)} <code>${esc(a.identifier)}</code> ` +
    `${a.showing ? '(on show)' : ''}` +
    `<div class="note">${text(a.sender)}; ` +
    `${a.expires ? `until ${when(a.expires, zone)}` : 'until it leaves the feed'}</div>` +
    `${a.refused ? `<div class="bad">refused here: ${text(a.refused)}</div>` : ''}</div>`;
  const inForce = Object.entries(displays).map(
    ([id, list]) => `<tr data-alerts-display="${esc(id)}"><th>${esc(id)}</th><td>${list.map(alert).join('')}</td></tr>`,
  );
  const feedRows = feeds.map((f) => {
    const fault = f.fault as Obj | undefined;
    const passed = ((f.notShown as Obj[] | undefined) ?? [])
      .map(
        (n) => `<div class="note">${n.identifier ? `<code>${esc(n.identifier)}</code> ` : ''}${text(n.reason)}</div>`,
      )
      .join('');
    return (
      `<tr data-alerts-feed="${esc(f.url)}"><th>${text(f.url)}<div class="note">every ${esc(f.interval)} ` +
      `s</div></th><td>` +
      (fault
        ? `<div class="bad">failing for ${esc(fault.ageSeconds)} s: ${text(fault.message)}</div>`
        : '<div class="ok">ok</div>') +
      `${passed}</td></tr>`
    );
  });
  const none = '<tr><th>in force</th><td class="dim">none</td></tr>';
  return card('alerts', 'Emergency alerts (CAP)', kvTable((inForce.join('') || none) + feedRows.join('')));
}
