// What each area of a layout shows after a command: its request value, its defaultValue, or
// (keep=1) what the level already held there. Pictures are decoded first, so a broken file is
// caught before the commit, not on screen.
import { kindOf } from '../config/area-types/registry.js';
import type { Command } from './command.js';
import { defaultContent, requestedContent, sameContent, type Overrides } from './content.js';
import type { AreaState, Layer } from './state.js';

export interface BuildDeps {
  preload(file: string): Promise<unknown>;
  log: { warn(obj: object, msg: string): void };
}

export async function buildAreas(
  cmd: Command,
  old: Layer | undefined,
  now: number,
  deps: BuildDeps,
): Promise<Map<string, AreaState>> {
  const sameLayout = old?.layout === cmd.layout.name;
  const next = new Map<string, AreaState>();
  for (const area of cmd.layout.areas) {
    const o: Overrides = { fontColor: cmd.fontColor.get(area.id), fontSize: cmd.fontSize.get(area.id) };
    const given = cmd.areas.get(area.id);
    const prev = sameLayout ? old.areas.get(area.id) : undefined;
    if (!given && cmd.keep && prev) {
      // Kept with its content and remaining ttl; a new override restyles it.
      next.set(
        area.id,
        o.fontColor || o.fontSize
          ? { ...prev, fontColor: o.fontColor ?? prev.fontColor, fontSize: o.fontSize ?? prev.fontSize, setAt: now }
          : prev,
      );
      continue;
    }
    let content = given ? requestedContent(given, o, now) : defaultContent(area, o, now);
    // Only pictures are loaded first; the other areas cost no turn of the event loop.
    if (content.file && kindOf(content.area.type).decodedFirst) {
      content = await loadable(content, content.file, o, now, deps);
    }
    if (prev && sameContent(prev, content)) {
      prev.expiresAt = content.expiresAt;
      prev.value = content.value;
      content = prev;
    }
    next.set(area.id, content);
  }
  return next;
}
/** A picture that cannot be decoded falls back to the defaultValue, then to blank; the fault stays visible. */
async function loadable(
  content: AreaState,
  file: string,
  o: Overrides,
  now: number,
  deps: BuildDeps,
): Promise<AreaState> {
  try {
    await deps.preload(file);
    return content;
  } catch (err) {
    const fault = `${content.file}: ${(err as Error).message}`;
    deps.log.warn({ area: content.area.id, fault }, 'picture cannot be shown');
    const fallback =
      content.source === 'request'
        ? defaultContent(content.area, o, now)
        : { area: content.area, source: 'none' as const, setAt: now };
    if (fallback.file && fallback.file !== content.file) {
      try {
        await deps.preload(fallback.file);
      } catch {
        return { area: content.area, source: 'none', setAt: now, fault };
      }
    }
    return { ...fallback, fault };
  }
}
