// /setethernetconfig on /info: the last network changes and how each ended, a rollback in red,
// and a change still being watched with the moment it would be undone.
import { esc, kvCard, row, text, when, type Obj } from './format.js';

const LABEL: Record<string, string> = {
  written: 'written, not applied yet',
  applying: 'being applied',
  watching: 'applied; waiting for the gateway',
  confirmed: 'applied; the gateway answers',
  'rolled back': 'rolled back',
  failed: 'failed',
};

export function networkCard(facts: Obj, zone: string): string {
  const changes = (facts.changes as Obj[] | undefined) ?? [];
  // Nothing happened since the start: nothing for a technician to read.
  if (!changes.length) return '';
  const rows = changes
    .map((c) => {
      const bad = c.state === 'rolled back' || c.state === 'failed';
      const open =
        c.state === 'watching' && c.rollbackAt
          ? `<div class="note">rolls back at ${when(c.rollbackAt, zone)} unless the gateway answers</div>`
          : '';
      const done = c.doneAt ? ` ${when(c.doneAt, zone)}` : '';
      return row(
        `${String(c.interface)} ${localLabel(c)}`,
        `<div>${when(c.at, zone)}: <code>${esc(c.request)}</code></div>` +
          `<div${bad ? ' class="bad"' : ''}>${esc(LABEL[String(c.state)] ?? c.state)}${done}</div>` +
          (c.message ? `<div${bad ? ' class="bad"' : ' class="note"'}>${text(c.message)}</div>` : '') +
          open,
        bad ? 'bad' : '',
      );
    })
    .join('');
  return kvCard('network', 'Network changes', rows);
}

function localLabel(c: Obj): string {
  return c.resumed ? '(resumed after a restart)' : '';
}
