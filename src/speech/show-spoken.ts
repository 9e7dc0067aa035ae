// What is said is shown (docs/speech.md): while a display speaks an announcement, its text is
// on the display's `showSpoken` area as a priority level that ends with the speech. The level
// is set through the one control path (source `speech`), with an `expires` that outlasts the
// longest announcement, so a service that dies mid-sentence leaves nothing behind for long;
// it is cleared (`priority=<p>&layout=`) the moment the speech ends, however it ends.
import type { RuntimeContext } from '../capability/component-contract.js';
import type { AnnouncementSource } from '../capability/speaker.js';
import { encodeQuery } from '../control/command.js';

/** The level the spoken text takes: above the alerts' defaults (8 for CAP, 5 for a feed's). */
export const SHOW_PRIORITY = 9;
/** Seconds the level holds if it is never cleared: the longest announcement and its chime. */
export const SHOW_EXPIRES_S = 120;

/** MULTI reads `[` and `]` as tags; doubled they are the characters themselves. */
const multiSafe = (t: string) => t.replace(/\[/g, '[[').replace(/\]/g, ']]');

/**
 * Shows `text` on the display's showSpoken area; resolves to what clears it (undefined when the
 * display has none, or for an area's own value, which the sign shows already).
 */
export function showSpoken(
  ctx: RuntimeContext,
  displayId: string,
  source: AnnouncementSource,
  text: string,
): (() => Promise<void>) | undefined {
  const display = ctx.config().displayById.get(displayId);
  const at = display?.showSpoken;
  if (!display || !at || source === 'area') return undefined;
  const area = display.layouts.get(at.layout)?.areas.find((a) => a.id === at.area);
  const value = area && 'markup' in area && area.markup === 'multi' ? multiSafe(text) : text;
  const shown = ctx
    .apply(
      encodeQuery([
        { name: 'id', value: displayId },
        { name: 'layout', value: at.layout },
        { name: at.area, value },
        { name: 'priority', value: String(SHOW_PRIORITY) },
        { name: 'expires', value: String(SHOW_EXPIRES_S) },
      ]),
      'speech',
    )
    .then(
      () => true,
      (err: Error) => {
        ctx.log.warn({ display: displayId, err: err.message }, 'speech: the spoken text cannot be shown');
        return false;
      },
    );
  return async () => {
    if (!(await shown)) return;
    const clear = `id=${encodeURIComponent(displayId)}&priority=${SHOW_PRIORITY}&layout=`;
    await ctx.apply(clear, 'speech').catch((err: Error) => {
      const why = 'speech: the spoken text cannot be cleared (its level ends by itself)';
      ctx.log.warn({ display: displayId, err: err.message }, why);
    });
  };
}
