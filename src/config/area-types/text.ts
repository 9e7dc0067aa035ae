// static, text and dynamic areas: what each accepts and what its value shows (text as given, or
// a key of params); they draw as a line that scrolls when it does not fit, or as sign text.
import { pointer } from '../faults.js';
import type { AreaConfig } from '../types.js';
import { MldsError } from '../../errors.js';
import { docOf } from './markup.js';
import { MultiError } from '../../text/multi.js';
import { signTextLook } from './text-look.js';
import type { AreaKind, AreaRules } from './area-type.js';
import { hasOwn, paramFor } from './rules.js';

const MAX_TEXT = 4096;
const MAX_STATIC = 255;

/** A MULTI value is checked when it arrives: a faulty command is refused (400, confirm=2) and changes nothing. */
function checkMarkup(area: AreaConfig, value: string): void {
  if (area.markup !== 'multi') return;
  try { docOf(area, value); } catch (err) {
    if (err instanceof MultiError) throw new MldsError('MLDS_BAD_VALUE', `"${area.id}": ${err.message}`, area.id);
    throw err;
  }
}

/** A tab separates a table's cells; without columns it has no place to go. */
const TAB_WITHOUT_COLUMNS = 'has a tab, which separates cells only in an area with columns';

function checkTabs(area: AreaConfig, value: string): void {
  if (!area.columns && value.includes('\t')) throw new MldsError('MLDS_BAD_VALUE', `"${area.id}": the value ${TAB_WITHOUT_COLUMNS}`, area.id);
}

/** Texts the configuration itself holds (defaultValue, params) are held to the same rule at load. */
function configTabs(r: AreaRules, look: Partial<AreaConfig>, texts: Array<[string, string]>): void {
  if (look.columns) return;
  for (const [at, v] of texts) if (v.includes('\t')) r.fault(at, TAB_WITHOUT_COLUMNS);
}

function freeText(type: 'text' | 'dynamic'): AreaKind {
  return {
    type,
    keyed: false,
    overrides: true,
    configure(r: AreaRules) {
      const look = signTextLook(r);
      configTabs(r, look, typeof r.raw.defaultValue === 'string' ? [['/defaultValue', r.raw.defaultValue]] : []);
      return look;
    },
    resolve(area, value) {
      if (value.length > MAX_TEXT) throw new MldsError('MLDS_BAD_VALUE', `"${area.id}": text must be at most ${MAX_TEXT} characters`, area.id);
      checkTabs(area, value);
      checkMarkup(area, value);
      return { text: value };
    },
    fallback: (area) => (area.defaultValue ? { text: area.defaultValue } : undefined),
  };
}

/** Request value shown as given; longer than the area, it scrolls. */
export const text = freeText('text');
/** Like text, updated in place without resetting the scroll. */
export const dynamic = freeText('dynamic');

/** The request value is a key; its params text is shown (no arbitrary text reaches the panel). */
export const staticText: AreaKind = {
  type: 'static',
  keyed: true,
  overrides: true,
  configure(r) {
    for (const [k, v] of Object.entries(r.params)) if (v.length > MAX_STATIC) r.fault(pointer('params', k), `must be at most ${MAX_STATIC} characters`);
    const look = signTextLook(r);
    configTabs(r, look, Object.entries(r.params).map(([k, v]) => [pointer('params', k), v]));
    if (look.markup === 'multi') {
      for (const [k, v] of Object.entries(r.params)) {
        // The area's align counts: text before a line's first [jl] takes it, and parts come left, centre, right.
        try { docOf({ ...look, id: r.id, align: r.raw.align ?? 'left' } as AreaConfig, v); } catch (err) { if (err instanceof MultiError) r.fault(pointer('params', k), err.message); }
      }
    }
    return look;
  },
  resolve: (area, value) => ({ text: paramFor(area, value) }),
  // A defaultValue that is one of the params keys shows that key's text; otherwise the text itself.
  fallback: (area) => {
    const dv = area.defaultValue;
    return dv ? { text: hasOwn(area.params, dv) ? area.params[dv] : dv } : undefined;
  },
};
