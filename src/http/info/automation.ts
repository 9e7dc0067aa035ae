// The crons and pollers cards on /info: for each entry what it does, when it runs next, when
// it ran last and how that ended, so a technician sees a silent schedule or a failing source.
//
// One row per entry, label and value (the page's `kv` grid): the schedule on the left, what it
// does, its times and its result stacked on the right, so a 412 px phone shows every fact
// without side-scrolling and a long URL wraps at its slashes.
import { card, esc, kvTableOrNone, text, when, type Obj } from './format.js';

/** "ok" in green, a failure in red with its message, nothing yet dimmed. */
function outcome(result: unknown, message: unknown, good: (r: string) => boolean): string {
  if (result === undefined || result === null) return '<span class="dim">not run yet</span>';
  const cls = good(String(result)) ? 'ok' : 'bad';
  const note = message ? `<div class="note${cls === 'bad' ? ' bad' : ''}">${text(message)}</div>` : '';
  return `<span class="${cls}">${esc(result)}</span>${note}`;
}

const times = (rows: Array<[string, unknown]>, zone: string): string =>
  rows
    .filter(([, v]) => v)
    .map(([label, v]) => `<div><span class="note">${esc(label)}</span> ${when(v, zone)}</div>`)
    .join('');

const ok = (r: string) => r === 'ok';
const skipped = (n: unknown) => `<div class="note bad">skipped ${esc(n)}x: previous run not finished</div>`;

export function cronsCard(facts: Obj, zone: string): string {
  const list = (facts.crons as Obj[] | undefined) ?? [];
  const rows = list.map(
    (c) =>
      `<tr data-cron="${esc(c.cron)}">` +
      `<th><code>${esc(c.cron)}</code><div ` +
      `class="note">${esc(c.type)}${c.format === 'json' ? ' (JSON)' : ''}</div></th>` +
      `<td><div>${text(c.target)}</div>${times(
        [
          ['next', c.nextRunAt],
          ['last', c.lastRunAt],
        ],
        zone,
      )}` +
      `<div>${c.running ? '<span class="note">running </span>' : ''}${outcome(c.lastResult, c.message, ok)}</div>` +
      `${Number(c.skipped) ? skipped(c.skipped) : ''}</td></tr>`,
  );
  return card('crons', 'Crons', kvTableOrNone(rows));
}

export function pollersCard(facts: Obj, zone: string): string {
  const list = (facts.pollers as Obj[] | undefined) ?? [];
  const rows = list.map(
    (p) =>
      `<tr data-poller="${esc(p.url)}">` +
      `<th>every ${esc(p.interval)} ` +
      `s${Number(p.backoffSeconds) ? `<div class="note bad">backing off: ${esc(p.backoffSeconds)} s</div>` : ''}</th>` +
      `<td><div>${text(p.url)}</div>${p.mapper ? `<div class="note">${text(p.mapper)}</div>` : ''}` +
      `${times(
        [
          ['next', p.nextFetchAt],
          ['last', p.lastFetchAt],
        ],
        zone,
      )}` +
      `<div>${outcome(p.lastResult, p.message, (r) => r === 'applied' || r === 'unchanged')}</div>` +
      `${Number(p.failures) ? `<div class="note bad">${esc(p.failures)} failures in a row</div>` : ''}</td></tr>`,
  );
  return card('pollers', 'Pollers', kvTableOrNone(rows));
}
