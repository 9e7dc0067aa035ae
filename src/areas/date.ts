// date areas: a live clock from the system time; they take no request value.
import { DEFAULTS } from '../config/defaults.js';
import type { AreaConfig } from '../config/types.js';
import { MldsError } from '../errors.js';
import { DateContent, shownDate } from '../render/areas/date.js';
import { formatEnglish, zonedAt } from '../time/date-format.js';
import type { AreaKind } from './kind.js';
import { GLYPH_LOOK, glyphLook } from './text-look.js';
import { TEXT_LOOK } from './text.js';

/** A pattern java.time would reject fails here, at load, rather than on screen. */
function dateFormatError(pattern: string): string | undefined {
  try {
    formatEnglish(zonedAt(0, 0, 'UTC'), pattern);
    return undefined;
  } catch (err) {
    return `is not a valid DateTimeFormatter pattern: ${(err as Error).message.split('\n')[0]} (quote literal text: 'at')`;
  }
}

function safeDate(area: AreaConfig, now: number, zone?: string): string {
  try { return shownDate(area, now, zone); } catch (err) { return `(${(err as Error).message})`; }
}

export const date: AreaKind = {
  type: 'date',
  properties: [...TEXT_LOOK, ...GLYPH_LOOK, 'dateOffset', 'dateFormat'],
  keyed: false,
  configure(r) {
    if (typeof r.raw.dateFormat === 'string') {
      const err = dateFormatError(r.raw.dateFormat);
      if (err) r.fault('/dateFormat', err);
    }
    return { ...glyphLook(r), dateFormat: typeof r.raw.dateFormat === 'string' ? r.raw.dateFormat : DEFAULTS.dateFormat };
  },
  resolve(area) {
    throw new MldsError('MLDS_BAD_VALUE', `"${area.id}" is a date area: it shows the clock and takes no value (send "${area.id}=" to clear it)`, area.id);
  },
  // The clock shows whenever the area has not been cleared.
  fallback: () => ({}),
  statusText: (st, now, zone) => (st.source === 'none' ? undefined : safeDate(st.area, now, zone)),
  signature: (_a, st) => (st?.source === 'none' ? '' : 'clock'),
  draw: (a, st, env) => (st?.source === 'none' ? undefined : new DateContent(a, { font: a.font, size: a.fontSize, color: a.fontColor }, env.timezone)),
};
