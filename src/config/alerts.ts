// The `alerts` list (CAP emergency alerts, docs/alerts.md), the unit's `geocodes` and
// `alertMaxMB`: their schema fragment and normalization, so schema.ts, normalize.ts and
// types.ts each carry one line for them.
import { checkUrl } from '../fetch/url-rules.js';
import { MldsError } from '../errors.js';
import { DEFAULTS } from './defaults.js';
import { pointer } from './faults.js';
import { bool, int, url } from './schema-parts.js';
import { parseBoolLike, parseIntLike } from './scalars.js';
import type { DisplayConfig } from './types.js';
import type { AlertFeedConfig, GeocodeConfig } from './alert-speech-types.js';

type Raw = Record<string, unknown>;
type Fault = (path: string, message: string) => void;

export const ALERT_DEFAULTS = { interval: 60, priority: 8, template: '{event}: {headline}' } as const;

const text = (max: number) => ({ type: 'string', minLength: 1, maxLength: max });

export const alertsSchema = {
  alerts: {
    type: 'array',
    maxItems: 32,
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['url', 'show'],
      properties: {
        url,
        interval: int(1, 86400),
        displays: { type: 'array', maxItems: 1000, items: text(255) },
        show: {
          type: 'object',
          additionalProperties: false,
          required: ['layout', 'area'],
          properties: { layout: text(255), area: text(255) },
        },
        priority: int(1, 9),
        template: text(1024),
        languages: { type: 'array', maxItems: 32, items: text(35) },
        test: bool,
        speak: bool,
      },
    },
  },
  geocodes: {
    type: 'array',
    maxItems: 256,
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['valueName', 'value'],
      properties: { valueName: text(255), value: text(255) },
    },
  },
  alertMaxMB: int(1, 256),
};

export interface AlertsSettings {
  alerts: AlertFeedConfig[];
  geocodes: GeocodeConfig[];
  alertMaxMB: number;
}

/** Every display an entry names must exist and hold the `show` layout with the `show` area. */
export function alertsOf(
  raw: Raw,
  displays: DisplayConfig[],
  portRange: [number, number],
  fault: Fault,
): AlertsSettings {
  const alerts: AlertFeedConfig[] = [];
  (Array.isArray(raw.alerts) ? raw.alerts : []).forEach((a: unknown, i: number) => {
    if (!isObj(a) || typeof a.url !== 'string' || !isObj(a.show)) return;
    try {
      checkUrl(a.url, portRange, pointer('alerts', i, 'url'));
    } catch (err) {
      if (!(err instanceof MldsError)) throw err;
      fault(pointer('alerts', i, 'url'), err.message);
    }
    const layout = String(a.show.layout ?? '');
    const area = String(a.show.area ?? '');
    const named = Array.isArray(a.displays) ? a.displays.map(String) : undefined;
    const ids = named ?? displays.map((d) => d.id);
    ids.forEach((id, k) => {
      const d = displays.find((x) => x.id === id);
      const at = named ? pointer('alerts', i, 'displays', k) : pointer('alerts', i, 'show');
      if (!d) fault(at, `names display "${id}", which the configuration does not define`);
      else if (!d.layouts.has(layout)) fault(at, `display "${id}" has no layout "${layout}" to show alerts in`);
      else if (!d.layouts.get(layout)!.areas.some((x) => x.id === area))
        fault(at, `layout "${layout}" of display "${id}" has no area "${area}" to show alerts in`);
    });
    alerts.push({
      url: a.url,
      interval: parseIntLike(a.interval) ?? ALERT_DEFAULTS.interval,
      displays: [...new Set(ids)],
      show: { layout, area },
      priority: parseIntLike(a.priority) ?? ALERT_DEFAULTS.priority,
      template: typeof a.template === 'string' ? a.template : ALERT_DEFAULTS.template,
      languages: Array.isArray(a.languages) ? a.languages.map(String) : [],
      test: parseBoolLike(a.test) ?? false,
      speak: parseBoolLike(a.speak) ?? false,
    });
  });
  const geocodes = (Array.isArray(raw.geocodes) ? raw.geocodes : [])
    .filter(isObj)
    .map((g) => ({ valueName: String(g.valueName ?? ''), value: String(g.value ?? '') }));
  return { alerts, geocodes, alertMaxMB: parseIntLike(raw.alertMaxMB) ?? DEFAULTS.alertMaxMB };
}

const isObj = (v: unknown): v is Raw => v !== null && typeof v === 'object' && !Array.isArray(v);
