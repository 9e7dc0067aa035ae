// The crons and pollers cards on /info: for each entry what it does, when it runs next, when
// it ran last and how that ended, so a technician sees a silent schedule or a failing source.
import { esc, text, when, type Obj } from './format.js';

// Four columns that wrap inside themselves on a phone (the page's tables are CSS grids).
const GRID = 'style="grid-template-columns:max-content minmax(0,1fr) max-content minmax(0,1fr)"';

function table(head: string[], rows: string[]): string {
  return `<table class="areas" ${GRID}><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function card(name: string, title: string, body: string): string {
  return `<section class="card component" data-component="${esc(name)}"><h2>${esc(title)}</h2>${body}</section>`;
}

/** "ok" in green, a failure in red with its message, nothing yet dimmed. */
function outcome(result: unknown, message: unknown, good: (r: string) => boolean): string {
  if (result === undefined || result === null) return '<span class="dim">not run yet</span>';
  const cls = good(String(result)) ? 'ok' : 'bad';
  return `<span class="${cls}">${esc(result)}</span>${message ? `<div class="note${cls === 'bad' ? ' bad' : ''}">${text(message)}</div>` : ''}`;
}

const times = (rows: Array<[string, unknown]>, zone: string): string =>
  rows.filter(([, v]) => v).map(([label, v]) => `<div><span class="note">${esc(label)}</span> ${when(v, zone)}</div>`).join('') || '<span class="dim">none</span>';

export function cronsCard(facts: Obj, zone: string): string {
  const list = (facts.crons as Obj[] | undefined) ?? [];
  const rows = list.map((c) => `<tr data-cron="${esc(c.cron)}">`
    + `<td class="key"><code>${esc(c.cron)}</code><div class="note">${esc(c.type)}${c.format === 'json' ? ' (JSON)' : ''}</div></td>`
    + `<td>${text(c.target)}</td>`
    + `<td>${times([['next', c.nextRunAt], ['last', c.lastRunAt]], zone)}</td>`
    + `<td>${c.running ? '<div class="note">running</div>' : ''}${outcome(c.lastResult, c.message, (r) => r === 'ok')}`
    + `${Number(c.skipped) ? `<div class="note bad">skipped ${esc(c.skipped)}x: previous run not finished</div>` : ''}</td></tr>`);
  return card('crons', 'Crons', list.length ? table(['Schedule', 'Does', 'Runs', 'Last result'], rows) : '<p class="dim">none</p>');
}

export function pollersCard(facts: Obj, zone: string): string {
  const list = (facts.pollers as Obj[] | undefined) ?? [];
  const rows = list.map((p) => `<tr data-poller="${esc(p.url)}">`
    + `<td class="key">every ${esc(p.interval)} s${Number(p.backoffSeconds) ? `<div class="note bad">backing off: ${esc(p.backoffSeconds)} s</div>` : ''}</td>`
    + `<td>${text(p.url)}${p.mapper ? `<div class="note">${text(p.mapper)}</div>` : ''}</td>`
    + `<td>${times([['next', p.nextFetchAt], ['last', p.lastFetchAt]], zone)}</td>`
    + `<td>${outcome(p.lastResult, p.message, (r) => r === 'applied' || r === 'unchanged')}`
    + `${Number(p.failures) ? `<div class="note bad">${esc(p.failures)} failures in a row</div>` : ''}</td></tr>`);
  return card('pollers', 'Pollers', list.length ? table(['Interval', 'Fetches', 'Fetched', 'Last result'], rows) : '<p class="dim">none</p>');
}
