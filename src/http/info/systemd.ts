// What the service told systemd, on /info: the STATUS= line `systemctl status` shows, since
// when it is ready, and whether the watchdog is fed. Only present when run by systemd.
import { esc, kvCard, row, text, when, type Obj } from './format.js';

export function systemdCard(facts: Obj, zone: string): string {
  const withheld = (facts.watchdogWithheldFor as string[] | undefined) ?? [];
  const watchdog = facts.watchdogSeconds
    ? `every ${esc(Number(facts.watchdogSeconds) / 2)} s: ` +
      `${esc(facts.watchdogSent ?? 0)} sent, ${esc(facts.watchdogWithheld ?? 0)} withheld`
    : 'off';
  const rows = [
    facts.problem ? row('Problem', text(facts.problem), 'bad') : '',
    row('Status', text(facts.lastStatus ?? '')),
    row('Ready', facts.readyAt ? `since ${when(facts.readyAt, zone)}` : esc(facts.phase ?? 'starting')),
    row('Watchdog', watchdog),
    withheld.length ? row('Watchdog withheld', withheld.map((w) => `<div>${text(w)}</div>`).join(''), 'bad') : '',
    facts.lastSendError ? row('Last send error', text(facts.lastSendError), 'bad') : '',
  ].join('');
  return kvCard('systemd', 'systemd', rows);
}
