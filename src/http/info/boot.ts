// The boot screens and /identify on /info: which unit shows a screen instead of its content,
// until when, and whether the backend heard that boot ended (completeUrls).
import { esc, kvCard, row, text, when, type Obj } from './format.js';

const SHOWING: Record<string, string> = {
  info: 'info screen (boot)',
  logo: 'logo (boot)',
  identify: 'info screen (/identify)',
};

export function bootCard(facts: Obj, zone: string): string {
  const units = ((facts.units as Obj[] | undefined) ?? []).filter((u) => u.showing !== 'content');
  const visits = (facts.completeUrls as Obj[] | undefined) ?? [];
  if (!units.length && !visits.length) return '';
  const unitRows = units
    .map((u) =>
      row(
        esc((u.displays as string[]).join(', ')),
        `${esc(SHOWING[String(u.showing)] ?? u.showing)}${u.until ? ` until ${when(u.until, zone)}` : ''}`,
      ),
    )
    .join('');
  const visitRows = visits
    .map((v) =>
      row(
        `completeUrls ${esc(v.display)}`,
        `${text(v.url)}: ${esc(v.result)}${v.httpStatus ? ` (HTTP ${esc(v.httpStatus)})` : ''}, ` +
          `${esc(v.attempts)} attempt(s)` +
          `${v.lastError && v.result !== 'ok' ? `<div class="bad">${text(v.lastError)}</div>` : ''}` +
          `${v.nextAttemptAt ? `<div class="note">next attempt ${when(v.nextAttemptAt, zone)}</div>` : ''}`,
        v.result === 'failed' ? 'bad' : '',
      ),
    )
    .join('');
  return kvCard('boot', 'Boot screens', unitRows + visitRows);
}
