// The media component's registration (src/runtime/components.ts): wanted only by a
// configuration with a video, audio or web area, so no other service loads any of it.
import type { AreaType, ServiceConfig } from '../config/types.js';
import { ComponentEntry } from '../capability/component-contract.js';

const MEDIA: readonly AreaType[] = ['video', 'audio', 'web'];

export function usesMedia(config: ServiceConfig): boolean {
  return config.displays.some((d) => [...d.layouts.values()].some((l) => l.areas.some((a) => MEDIA.includes(a.type))));
}

export const mediaEntry = ComponentEntry.named('media', usesMedia, async () => (await import('./media-component.js')).mediaComponent());
