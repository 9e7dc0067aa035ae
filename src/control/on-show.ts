// Which accepted commands a frame carried to the output. Commands arrive faster than frames
// (a burst is drawn once per frame period, and a slow output takes the newest frame only), so
// a command's content can leave the display's state before any frame that went out held it:
// that command is `superseded`, not `shown`. Frames are numbered as they are rendered; a
// command whose content left the state after frame n was carried by the frame that went out
// only when that frame's number is n or less.
import type { FrameFate } from '../frame.js';
import type { Layer, Outcome } from './state.js';

interface Waiting {
  layer: Layer;
  settle: (o: Outcome) => void;
  /** Frames rendered when its content left the display's state; Infinity while it is there. */
  until: number;
  /** Its outcome when no frame that went out carried it: replaced, or cleared and ended. */
  unseen: Outcome;
  /** Left under a higher level: shown or not, that level's reveal settles it. */
  covered: boolean;
}

export class OnShow {
  private readonly waiting = new Map<string, Waiting[]>();

  /** `rendered(id)`: frames the unit showing the display has rendered so far. */
  constructor(private readonly rendered: (displayId: string) => number) {}

  /**
   * The display now shows `layers[0]` (or nothing). Commands whose content it no longer holds
   * leave: one still underneath waits to be shown again, the rest end `unseen` unless a frame
   * already rendered carries them out. The top level's own command waits for `fate`.
   */
  changed(id: string, layers: readonly Layer[], fate: Promise<FrameFate>, unseen: Outcome): void {
    const top = layers[0] as Layer | undefined;
    const list = this.waiting.get(id);
    if (list) {
      for (let i = list.length - 1; i >= 0; i--) {
        const w = list[i];
        if (carried(w.layer, top)) continue;
        w.until = this.rendered(id);
        list.splice(i, 1);
        if (layers.includes(w.layer)) {
          w.covered = true;
          w.layer.reveal = w.settle;
        } else w.unseen = unseen;
      }
    }
    if (!top?.reveal) return;
    const w: Waiting = { layer: top, settle: top.reveal, until: Infinity, unseen: 'superseded', covered: false };
    top.reveal = undefined;
    if (list) list.push(w);
    else this.waiting.set(id, [w]);
    void fate.then((f) => this.settle(id, w, f));
  }

  /** A display left the configuration: nothing of it is followed any more. */
  forget(id: string): void {
    this.waiting.delete(id);
  }

  private settle(id: string, w: Waiting, f: FrameFate): void {
    const list = this.waiting.get(id);
    const i = list ? list.indexOf(w) : -1;
    if (i >= 0) list!.splice(i, 1);
    const carriedOut = f.frame <= w.until;
    if (w.covered) {
      // Covered by a higher level before any frame carried it: it waits there to be shown.
      if (!carriedOut) return;
      if (w.layer.reveal === w.settle) w.layer.reveal = undefined;
    }
    w.settle(carriedOut ? (f.ok ? 'shown' : 'not shown') : w.unseen);
  }
}

/**
 * Whether the level on show still holds all that `l`'s command put there: the same level, or
 * every area it gave a value kept (`keep`) or sent again with an equal value. One area still as
 * it was is not enough: a burst that repeats a route beside a new note each time would otherwise
 * have every note confirmed `shown`. A command that named no area (a layout alone) is held while
 * every area is as it left it.
 */
function carried(l: Layer, top: Layer | undefined): boolean {
  if (!top || top.layout !== l.layout) return false;
  if (top === l) return true;
  const held = (k: string) => top.areas.get(k) === l.areas.get(k);
  if (l.named.size) {
    for (const k of l.named) if (!held(k)) return false;
    return true;
  }
  for (const k of l.areas.keys()) if (!held(k)) return false;
  return true;
}
