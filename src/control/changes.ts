// Display state changes as they are committed, for what must follow them without drawing
// (audio areas). The controller publishes; a service's media component subscribes and keeps
// the changes of its own configuration (the events of `mlds test`'s offline controller, or of
// another service in the same process, carry another configuration object).
import type { ServiceConfig } from '../config/types.js';
import type { DisplayState } from './state.js';

export interface StateChange {
  /** The configuration the controller runs (identity: a reload makes a new object). */
  config: ServiceConfig;
  displayId: string;
  /** The display's state after the change; undefined when the controller was disposed. */
  state: DisplayState | undefined;
}

type Listener = (change: StateChange) => void;

const listeners = new Set<Listener>();
/** The last state of each display, per configuration, for a subscriber that starts late. */
const latest = new WeakMap<ServiceConfig, Map<string, DisplayState>>();

export function onStateChange(fn: Listener): () => void {
  listeners.add(fn);
  return () => {
    listeners.delete(fn);
  };
}

export function publishStateChange(change: StateChange): void {
  let m = latest.get(change.config);
  if (!m) {
    m = new Map();
    latest.set(change.config, m);
  }
  if (change.state) m.set(change.displayId, change.state);
  else m.delete(change.displayId);
  for (const fn of listeners) {
    // A listener's failure must not undo or block a committed change.
    try {
      fn(change);
    } catch {
      /* the listener reports its own faults */
    }
  }
}

/** The displays' states last published under `config`. */
export function latestStates(config: ServiceConfig): ReadonlyMap<string, DisplayState> {
  return latest.get(config) ?? new Map();
}
