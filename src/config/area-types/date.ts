// date areas: a live clock from the system time; they take no request value.
import { DEFAULTS } from '../defaults.js';
import { parseNumLike } from '../scalars.js';
import { MldsError } from '../../errors.js';
import { formatEnglish, zonedAt } from '../../time/date-format.js';
import type { AreaKind } from './area-type.js';
import type { AreaOf } from './normalized-area.js';
import { textLook } from './text-look.js';

/** A pattern java.time would reject fails here, at load, rather than on screen. */
function dateFormatError(pattern: string): string | undefined {
  try {
    formatEnglish(zonedAt(0, 0, 'UTC'), pattern);
    return undefined;
  } catch (err) {
    return (
      `is not a valid DateTimeFormatter pattern: ${(err as Error).message.split('\n')[0]}` +
      " (quote literal text: 'at')"
    );
  }
}

export const date: AreaKind<AreaOf<'date'>> = {
  type: 'date',
  keyed: false,
  configure(r) {
    if (typeof r.raw.dateFormat === 'string') {
      const err = dateFormatError(r.raw.dateFormat);
      if (err) r.fault('/dateFormat', err);
    }
    return {
      ...r.base,
      ...textLook(r),
      dateOffset: parseNumLike(r.raw.dateOffset),
      dateFormat: typeof r.raw.dateFormat === 'string' ? r.raw.dateFormat : DEFAULTS.dateFormat,
    };
  },
  resolve(area) {
    throw new MldsError(
      'MLDS_BAD_VALUE',
      `"${area.id}" is a date area: it shows the clock and takes no value (send "${area.id}=" to clear it)`,
      area.id,
    );
  },
  // The clock shows whenever the area has not been cleared.
  fallback: () => ({}),
};
