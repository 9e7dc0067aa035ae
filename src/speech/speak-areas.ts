// Areas with `"speak": true`: each new value is read aloud as the sign shows it. The values
// follow the displays' state through the same subscription audio areas use
// (src/control/changes.ts), not the frame loop, so speech never waits on a slow panel.
import type { ServiceConfig } from '../config/types.js';
import type { DisplayState } from '../control/state.js';
import type { Announcement } from '../capability/speaker.js';
import { spokenText } from './words.js';

export class SpeakAreas {
  /** The text each speaking area holds now, by display and area id. */
  private readonly said = new Map<string, string>();

  constructor(private readonly announce: (a: Announcement) => void) {}

  /** Takes the states as they are without speaking them (a start on saved states, a reload). */
  seed(config: ServiceConfig, states: ReadonlyMap<string, DisplayState>): void {
    this.said.clear();
    for (const [id, st] of states) this.update(config, id, st, false);
  }

  update(config: ServiceConfig, displayId: string, state: DisplayState | undefined, speak = true): void {
    // The spoken text shown over the sign (showSpoken) is no new value: when it ends, what it
    // covered shows again and was said already.
    if (state?.layers?.[0]?.source === 'speech') return;
    // A feed's alert is said by the feed, in the words it gives for speech (src/feeds/alerts.ts).
    if (state?.layers?.[0]?.source === 'feed') return;
    const now = new Map<string, { text: string; multi: boolean }>();
    if (state?.layout && config.displayById.has(displayId)) {
      for (const a of state.areas.values()) {
        if (!('speak' in a.area) || !a.area.speak || a.source === 'none' || !a.text) continue;
        now.set(`${displayId}\n${a.area.id}`, { text: a.text, multi: a.area.markup === 'multi' });
      }
    }
    // A value a restart replays or a reload re-applies is not new: it was said when it came.
    const again = state?.lastCommand?.source === 'replay' || state?.lastCommand?.source === 'reload';
    for (const key of [...this.said.keys()])
      if (key.startsWith(`${displayId}\n`) && !now.has(key)) this.said.delete(key);
    for (const [key, v] of now) {
      if (this.said.get(key) === v.text) continue;
      this.said.set(key, v.text);
      const words = spokenText(v.text, v.multi);
      if (speak && !again && words) this.announce({ displayId, text: words, priority: false, source: 'area' });
    }
  }
}
