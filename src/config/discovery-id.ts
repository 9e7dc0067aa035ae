// Home Assistant takes a discovery topic, `homeassistant/<component>/[<node_id>/]<object_id>/config`,
// only when node_id and object_id hold nothing but `[a-zA-Z0-9_-]`: a unit named after its
// hostname (`sign.031`) or a display id with a space was never discovered. The readable name
// stays in the discovery document's `name`.

/** `s` with every character outside `[a-zA-Z0-9_-]` replaced by `_` (one for each code point). */
export function discoveryId(s: string): string {
  return s.replace(/[^a-zA-Z0-9_-]/gu, '_');
}
