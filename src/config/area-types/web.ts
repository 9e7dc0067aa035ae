// web areas: a page from params rendered by the shared headless Chromium, cut out at `xy`.
import { pointer } from '../faults.js';
import { MldsError } from '../../errors.js';
import { checkUrl } from '../../fetch/url-rules.js';
import type { AreaKind, AreaRules } from './area-type.js';
import type { AreaOf } from './normalized-area.js';
import { paramFor, rawDefault } from './rules.js';

function urlFault(r: AreaRules, url: string, at: string): void {
  try {
    checkUrl(url, r.settings.urlPortRange, at);
  } catch (err) {
    if (!(err instanceof MldsError)) throw err;
    r.fault(at, err.message);
  }
}

export const web: AreaKind<AreaOf<'web'>> = {
  type: 'web',
  keyed: true,
  media: 'drawn',
  configure(r) {
    for (const [k, v] of Object.entries(r.params)) urlFault(r, v, pointer('params', k));
    if (typeof r.raw.defaultValue === 'string' && r.raw.defaultValue !== '')
      urlFault(r, r.raw.defaultValue, '/defaultValue');
    const xy = typeof r.raw.xy === 'string' ? r.raw.xy.trim().split(/\s+/).map(Number) : undefined;
    return {
      ...r.base,
      params: r.params,
      defaultValue: rawDefault(r),
      xy: xy && xy.length === 2 ? { x: xy[0], y: xy[1] } : undefined,
      refreshSeconds: r.settings.webRefreshSeconds,
    };
  },
  resolve: (area, value) => ({ url: paramFor(area, value) }),
  fallback: (area) => (area.defaultValue ? { url: area.defaultValue } : undefined),
};
