// The media component's registration (src/runtime/components.ts): wanted only by a
// configuration with an area whose type's content runs outside the process (video, audio,
// web: AreaKind.media), so no other service loads any of it.
import { kindOf } from '../config/area-types/registry.js';
import type { LayoutConfig, ServiceConfig } from '../config/types.js';
import { ComponentEntry } from '../capability/component-contract.js';

export function usesMedia(config: ServiceConfig): boolean {
  const media = (l: LayoutConfig) => l.areas.some((a) => kindOf(a.type).media !== undefined);
  return config.displays.some((d) => [...d.layouts.values()].some(media));
}

export const mediaEntry = ComponentEntry.named('media', usesMedia, async () =>
  (await import('./media-component.js')).mediaComponent(),
);
