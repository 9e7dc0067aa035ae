// How one capability finds another without importing it: by a key that carries the type the
// other is found as. The runtime registers a component under a key only when the compiler has
// checked that the component has the key's type (ComponentEntry.of), and finds it by the key
// object itself, not its name, so a lookup gets that type with no cast, and a misspelt or
// removed capability does not compile.

declare const carries: unique symbol;

/** A capability's key: its name (for logs and /status) and, for the compiler only, its type. */
export interface CapabilityKey<T> {
  readonly name: string;
  /**
   * Never set. T in and out, so a key is its type's alone: a key of one type passes for no
   * key of another, nor for a wider one.
   */
  readonly [carries]?: (t: T) => T;
}

export function capabilityKey<T>(name: string): CapabilityKey<T> {
  return Object.freeze({ name });
}
