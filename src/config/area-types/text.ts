// static, text and dynamic areas: what each accepts and what its value shows (text as given, or
// a key of params); they draw as a line that scrolls when it does not fit, or as sign text.
import { pointer } from '../faults.js';
import { MldsError } from '../../errors.js';
import { docOf } from './markup.js';
import { MultiError } from '../../text/multi.js';
import { scrolling, signTextLook } from './text-look.js';
import type { AreaKind, AreaRules } from './area-type.js';
import type { AreaBase, AreaOf, AreaTaking, NormalizedFields } from './normalized-area.js';
import { hasOwn, paramFor, rawDefault } from './rules.js';

const MAX_TEXT = 4096;
const MAX_STATIC = 255;

/** A MULTI value is checked when it arrives: a faulty command is refused (400, confirm=2) and changes nothing. */
function checkMarkup(area: AreaTaking<'markup'>, value: string): void {
  if (area.markup !== 'multi') return;
  try {
    docOf(area, value);
  } catch (err) {
    if (err instanceof MultiError) throw new MldsError('MLDS_BAD_VALUE', `"${area.id}": ${err.message}`, area.id);
    throw err;
  }
}

/** A tab separates a table's cells; without columns it has no place to go. */
const TAB_WITHOUT_COLUMNS = 'has a tab, which separates cells only in an area with columns';

function checkTabs(area: AreaTaking<'markup'>, value: string): void {
  if (!area.columns && value.includes('\t'))
    throw new MldsError('MLDS_BAD_VALUE', `"${area.id}": the value ${TAB_WITHOUT_COLUMNS}`, area.id);
}

/** Texts the configuration itself holds (defaultValue, params) are held to the same rule at load. */
function configTabs(r: AreaRules, look: Pick<NormalizedFields, 'columns'>, texts: Array<[string, string]>): void {
  if (look.columns) return;
  for (const [at, v] of texts) if (v.includes('\t')) r.fault(at, TAB_WITHOUT_COLUMNS);
}

/** A text or dynamic area's own fields. */
function freeTextFields(r: AreaRules): Omit<AreaOf<'text'>, keyof AreaBase | 'type'> {
  const look = signTextLook(r);
  const defaultValue = rawDefault(r);
  configTabs(r, look, defaultValue !== undefined ? [['/defaultValue', defaultValue]] : []);
  return { defaultValue, ...look, ...scrolling(r) };
}

/** What text and dynamic areas share: the request value is the text. */
const FREE_TEXT: Omit<AreaKind<AreaOf<'text' | 'dynamic'>>, 'type' | 'configure'> = {
  keyed: false,
  overrides: true,
  resolve(area, value) {
    if (value.length > MAX_TEXT) {
      throw new MldsError('MLDS_BAD_VALUE', `"${area.id}": text must be at most ${MAX_TEXT} characters`, area.id);
    }
    checkTabs(area, value);
    checkMarkup(area, value);
    return { text: value };
  },
  fallback: (area) => (area.defaultValue ? { text: area.defaultValue } : undefined),
  configTexts(area, check) {
    if (area.defaultValue) check(area, { text: area.defaultValue });
  },
};

/** Request value shown as given; longer than the area, it scrolls. */
export const text: AreaKind<AreaOf<'text'>> = {
  type: 'text',
  ...FREE_TEXT,
  spoken: 'text',
  configure: (r) => ({ ...r.base, ...freeTextFields(r) }),
};
/** Like text, updated in place without resetting the scroll. */
export const dynamic: AreaKind<AreaOf<'dynamic'>> = {
  type: 'dynamic',
  ...FREE_TEXT,
  configure: (r) => ({ ...r.base, ...freeTextFields(r) }),
};

/** The request value is a key; its params text is shown (no arbitrary text reaches the panel). */
export const staticText: AreaKind<AreaOf<'static'>> = {
  type: 'static',
  keyed: true,
  overrides: true,
  configure(r) {
    for (const [k, v] of Object.entries(r.params))
      if (v.length > MAX_STATIC) r.fault(pointer('params', k), `must be at most ${MAX_STATIC} characters`);
    const look = signTextLook(r);
    configTabs(
      r,
      look,
      Object.entries(r.params).map(([k, v]) => [pointer('params', k), v]),
    );
    if (look.markup === 'multi') {
      for (const [k, v] of Object.entries(r.params)) {
        // The area's align counts: text before a line's first [jl] takes it, and parts come left, centre, right.
        try {
          docOf(look, v);
        } catch (err) {
          if (err instanceof MultiError) r.fault(pointer('params', k), err.message);
        }
      }
    }
    const area = { ...r.base, defaultValue: rawDefault(r), params: r.params, ...look };
    staticDefault(r, area);
    return area;
  },
  resolve: (area, value) => ({ text: paramFor(area, value) }),
  // A defaultValue that is one of the params keys shows that key's text; otherwise the text itself.
  fallback: (area) => {
    const dv = area.defaultValue;
    return dv ? { text: hasOwn(area.params, dv) ? area.params[dv] : dv } : undefined;
  },
  configTexts(area, check) {
    for (const [key, text] of Object.entries(area.params)) check(area, { text, key });
    // A defaultValue naming a params key is checked above; any other is shown as it is.
    if (area.defaultValue && !hasOwn(area.params, area.defaultValue)) check(area, { text: area.defaultValue });
  },
};

/** The value a static area shows unasked must be one it could be asked for: a key of its params. */
function staticDefault(r: AreaRules, a: Pick<NormalizedFields, 'params' | 'defaultValue'>): void {
  if (!a.defaultValue || Object.hasOwn(a.params, a.defaultValue)) return;
  const keys = Object.keys(a.params);
  const listed = `${keys
    .slice(0, 10)
    .map((k) => JSON.stringify(k))
    .join(', ')}${keys.length > 10 ? ', ...' : ''}`;
  const shown = a.defaultValue.slice(0, 60);
  r.fault(
    '/defaultValue',
    `"${shown}" is not a key of this static area's params (${listed}): ` + 'name the key whose text it shows',
  );
}
