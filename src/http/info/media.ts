// Media areas on /info: what plays outside the service (audio players, video decoders, the
// shared browser), so a technician sees a sound card that refuses or a browser left running.
// Faults of single areas show on their display's card with the area.
import { esc, kvCard, row, text, type Obj } from './format.js';

export function mediaCard(facts: Obj): string {
  const audio = (facts.audio as Obj[] | undefined) ?? [];
  const browser = (facts.browser as Obj | undefined) ?? {};
  const audioRows = audio.map((a) =>
    row(
      `audio ${esc(a.display)}/${esc(a.area)}`,
      `${esc(a.file)} to ${text(a.sink)}${a.running ? '' : ' (not running)'}` +
        `${a.fault ? `<div class="bad">${text(a.fault)}</div>` : ''}`,
      a.fault ? 'bad' : '',
    ),
  );
  return kvCard(
    'media',
    'Media areas',
    audioRows.join('') +
      row('Video decoders', esc(facts.videoDecoders)) +
      row(
        'Web browser',
        browser.running ? `running, ${esc(browser.pages)} page(s)` : 'not running (no web area shown)',
      ),
  );
}
