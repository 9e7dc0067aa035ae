// Confirmations to the feedback servers on /info: shown only when something is waiting,
// dropped or given up (a healthy queue is empty and says nothing a technician needs).
import { esc, kvCard, row, text, when, type Obj } from './format.js';

export function feedbackCard(facts: Obj, zone: string): string {
  const targets = ((facts.targets as Obj[] | undefined) ?? []).filter(
    (t) => Number(t.queued) || Number(t.dropped) || t.lastError,
  );
  if (!targets.length && !Number(facts.givenUp)) return '';
  const rows = targets
    .map((t) =>
      row(
        esc(t.address),
        `${esc(t.queued)} waiting, ${esc(t.dropped)} ` +
          `dropped${Number(t.failures) ? `, ${esc(t.failures)} failures in a row` : ''}` +
          `${t.lastError ? `<div class="bad">${text(t.lastError)}</div>` : ''}` +
          `${t.failingSince ? `<div class="note">failing since ${when(t.failingSince, zone)}</div>` : ''}`,
        t.lastError ? 'bad' : '',
      ),
    )
    .join('');
  const givenUp = Number(facts.givenUp)
    ? row('Given up', `${esc(facts.givenUp)} <span class="note">after every retry</span>`, 'bad')
    : '';
  return kvCard('feedback', 'Confirmations', rows + row('Delivered', esc(facts.delivered)) + givenUp);
}
