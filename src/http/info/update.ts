// Software updates on /info (with RAUC): the slot running, what each slot holds, an update under
// way and how the last one ended, so a technician at the unit sees which version boots.
import type { UpdateStatus } from '../../capability/update-status.js';
import { esc, kvCard, row, text, when, type Obj } from './format.js';

export function updateCard(facts: Obj, zone: string): string {
  const u = facts as unknown as UpdateStatus;
  const slots = (u.slots ?? [])
    .map((s) =>
      row(
        `Slot ${s.bootname}${s.bootname === u.bootSlot ? ' (booted)' : ''}`,
        `${text(s.version ?? 'version unknown')}, ${esc(s.bootStatus ?? '?')}` +
          `${s.installedAt ? `, installed ${when(s.installedAt, zone)}` : ''}`,
        s.bootStatus === 'bad' ? 'bad' : undefined,
      ),
    )
    .join('');
  const l = u.last;
  const percent = u.percent !== null && u.percent !== undefined ? ` ${esc(u.percent)} %` : '';
  const last = l && `${esc(l.outcome)}${l.markedGood ? ' (marked good)' : ''}, ${when(l.at, zone)}: ${text(l.message)}`;
  const lastBad = l?.outcome === 'fell-back' || l?.outcome === 'failed';
  const rows = [
    u.rauc ? row('RAUC', text(u.rauc), 'bad') : '',
    slots,
    row('Now', `${esc(u.state)}${percent}: ${text(u.message)}`, u.state === 'failed' ? 'bad' : undefined),
    last ? row('Last update', last, lastBad ? 'bad' : undefined) : '',
  ].join('');
  return kvCard('update', 'Software update', rows);
}
