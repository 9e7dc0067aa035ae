/**
 * The unit's cache folder: systemd's CacheDirectory= sets CACHE_DIRECTORY (the first folder when
 * it names several). Undefined outside the unit: nothing is kept between runs then.
 */
export function unitCacheDir(): string | undefined {
  return process.env.CACHE_DIRECTORY?.split(':')[0] || undefined;
}
