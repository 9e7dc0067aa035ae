import { loadImage, type Image } from 'canvas';
import { readFile } from 'node:fs/promises';

// Decoded pictures by absolute path. Loading is async, drawing is sync: control awaits
// preload() before it commits new content, so the render path only ever reads the cache.
const cache = new Map<string, Image>();

export async function preloadImage(file: string): Promise<Image> {
  const hit = cache.get(file);
  if (hit) return hit;
  const img = await loadImage(await readFile(file));
  cache.set(file, img);
  return img;
}

export function cachedImage(file: string): Image | undefined {
  return cache.get(file);
}

export function forgetImages(): void {
  cache.clear();
}
