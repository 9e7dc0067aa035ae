import type { AreaConfig, DisplayConfig, LayoutConfig, Rgb, ServiceConfig } from '../config/types.js';
import { kindOf } from '../config/area-types/registry.js';
import { MldsError } from '../errors.js';
import { CONTROL_OPTIONS } from '../config/reserved-names.js';
import { controlOption, checkLevel, type ControlOptions } from './options.js';
import { parseQuery } from './query.js';
import { isCredentialName, maskQuery } from './credentials.js';
import { bitmapScale, bitmapSizes, isBitmapFontFile, loadBdf } from '../text/bdf.js';
import { checkMultiFit } from '../config/area-types/multi-fit.js';

/** One area's part of a validated command. */
export interface AreaCommand {
  area: AreaConfig;
  /** The value as sent; '' clears the area. */
  value: string;
  /** Resolved content: text (text/dynamic/static), absolute file (image/video/audio) or URL (web). */
  text?: string;
  file?: string;
  url?: string;
}

/** A control message checked against the configuration: nothing in it can fail to apply. */
export interface Command extends ControlOptions {
  clear?: false;
  display: DisplayConfig;
  layout: LayoutConfig;
  areas: Map<string, AreaCommand>;
  fontColor: Map<string, Rgb>;
  fontSize: Map<string, number>;
  inumber?: string;
  /** Area keys not in the layout, accepted because unknownAreaKeys = ignore. */
  ignored: string[];
  /** The query with credentials removed: what is stored and replayed. */
  query: string;
}

/** `priority=<p>&layout=` (p above 0): the message at level p goes at once. */
export interface ClearCommand {
  clear: true;
  display: DisplayConfig;
  priority: number;
  inumber?: string;
  query: string;
}

const OVERRIDE = /^(fontColor|fontSize)\[(.*)\]$/;
/** The longest inumber a command may carry. */
export const MAX_INUMBER = 255;

/**
 * Parses and validates a control query string (the part after `?` of /mlds, a cron's
 * `data` value, a poller's body, a saved request). Throws MldsError naming the field.
 * `credentialNames` are query names that carry keys, not content (removed from `query`).
 */
export function parseCommand(
  raw: string,
  config: ServiceConfig,
  credentialNames: readonly string[] = [],
): Command | ClearCommand {
  const parsed = parseQuery(raw.startsWith('?') ? raw.slice(1) : raw);
  const pairs = credentialNames.length ? parsed.filter((p) => !credentialNames.includes(p.name)) : parsed;
  // One pass for both: this runs for every command.
  let ids = 0,
    layouts = 0,
    id = '',
    layoutName = '';
  for (const p of pairs) {
    if (p.name === 'id' && ids++ === 0) id = p.value;
    else if (p.name === 'layout' && layouts++ === 0) layoutName = p.value;
  }
  single('id', ids, id, 'MLDS_MISSING_ID', 'MLDS_REPEATED_ID');
  // An empty layout is faulty, except in a clear (priority above 0): looked for only then.
  if (layouts === 1 && layoutName === '' && pairs.some((p) => p.name === 'priority'))
    return parseClear(pairs, id, config);
  single('layout', layouts, layoutName, 'MLDS_MISSING_LAYOUT', 'MLDS_REPEATED_LAYOUT');
  const display = config.displayById.get(id);
  if (!display) throw new MldsError('MLDS_UNKNOWN_ID', `no display "${id}" in the configuration`, 'id');
  const layout = display.layouts.get(layoutName);
  if (!layout)
    throw new MldsError(
      'MLDS_UNKNOWN_LAYOUT',
      `display "${id}" has no layout "${layoutName}" (it has: ${[...display.layouts.keys()].join(', ')})`,
      'layout',
    );

  const areaById = areasOf(layout);
  const cmd: Command = {
    display,
    layout,
    areas: new Map(),
    fontColor: new Map(),
    fontSize: new Map(),
    ignored: [],
    query: '',
    keep: false,
    priority: 0,
  };
  const seen = new Set<string>();
  for (const { name, value } of pairs) {
    if (name === 'id' || name === 'layout') continue;
    if (CONTROL_OPTIONS.has(name)) {
      controlOption(cmd, name, value, seen);
      continue;
    }
    if (name === 'inumber') {
      if (cmd.inumber !== undefined)
        throw new MldsError('MLDS_BAD_PARAMETER', '"inumber" must appear at most once', 'inumber');
      if (value.length > MAX_INUMBER)
        throw new MldsError('MLDS_BAD_PARAMETER', `"inumber" must be at most ${MAX_INUMBER} characters`, 'inumber');
      cmd.inumber = value;
      continue;
    }
    if (seen.has(name)) throw new MldsError('MLDS_REPEATED_AREA', `"${name}" appears more than once`, name);
    seen.add(name);
    const override = name.endsWith(']') ? OVERRIDE.exec(name) : null;
    if (override) {
      parseOverride(cmd, override[1] as 'fontColor' | 'fontSize', areaById.get(override[2]), override[2], name, value);
      continue;
    }
    const area = areaById.get(name);
    if (!area) {
      if (config.unknownAreaKeys === 'ignore') {
        cmd.ignored.push(name);
        continue;
      }
      throw new MldsError(
        'MLDS_UNKNOWN_AREA',
        `layout "${layoutName}" has no area "${name}" (it has: ${layout.areas.map((a) => a.id).join(', ')})`,
        name,
      );
    }
    cmd.areas.set(name, resolveValue(area, value));
  }
  // After every pair: a fontSize[area] may come after the area's value.
  for (const c of cmd.areas.values()) {
    if (!c.text || !('markup' in c.area) || c.area.markup !== 'multi') continue;
    checkMultiFit(c.area, c.text, cmd.fontSize.get(c.area.id) ?? c.area.fontSize);
  }
  checkLevel(cmd);
  // An ignored name that reads as `key` (`Key`, `KEY`, `key[]`) was meant as one: not kept for
  // /info; nor is a key inside an ignored value (`x=1;key=...`, from a `;` separator).
  cmd.query = encodeQuery(cmd.ignored.length ? storedIgnoring(pairs, areaById) : pairs);
  return cmd;
}

/** The pairs a command keeps when it ignored some: the areas' as sent, the rest without credentials. */
function storedIgnoring(
  pairs: ReadonlyArray<{ name: string; value: string }>,
  areaById: Map<string, AreaConfig>,
): Array<{ name: string; value: string }> {
  const kept: Array<{ name: string; value: string }> = [];
  for (const p of pairs) {
    if (
      areaById.has(p.name) ||
      CONTROL_OPTIONS.has(p.name) ||
      p.name === 'id' ||
      p.name === 'layout' ||
      p.name === 'inumber'
    )
      kept.push(p);
    else if (!isCredentialName(p.name)) kept.push({ name: p.name, value: maskQuery(p.value) });
  }
  return kept;
}

/** Pairs back into a query string, every name and value percent-encoded. */
export function encodeQuery(pairs: ReadonlyArray<{ name: string; value: string }>): string {
  let query = '';
  for (const p of pairs) query += `${query ? '&' : ''}${encodeURIComponent(p.name)}=${encodeURIComponent(p.value)}`;
  return query;
}

function parseClear(pairs: Array<{ name: string; value: string }>, id: string, config: ServiceConfig): ClearCommand {
  const display = config.displayById.get(id);
  if (!display) throw new MldsError('MLDS_UNKNOWN_ID', `no display "${id}" in the configuration`, 'id');
  const opts: ControlOptions & { inumber?: string } = { keep: false, priority: 0 };
  const seen = new Set<string>();
  for (const { name, value } of pairs) {
    if (name === 'id' || name === 'layout') continue;
    if (CONTROL_OPTIONS.has(name)) controlOption(opts, name, value, seen);
    else if (name === 'inumber' && !seen.has(name) && value.length <= MAX_INUMBER) {
      seen.add(name);
      opts.inumber = value;
    } else
      throw new MldsError(
        'MLDS_BAD_CONTROL_OPTION',
        `"${name}": a clear (priority=<p>&layout= with an empty layout) names no areas`,
        name,
      );
  }
  if (opts.priority === 0)
    throw new MldsError(
      'MLDS_MISSING_LAYOUT',
      '"layout" is required (an empty layout clears a level only with a priority above 0)',
      'layout',
    );
  return { clear: true, display, priority: opts.priority, inumber: opts.inumber, query: encodeQuery(pairs) };
}

function single(
  name: 'id' | 'layout',
  count: number,
  value: string,
  missing: 'MLDS_MISSING_ID' | 'MLDS_MISSING_LAYOUT',
  repeated: 'MLDS_REPEATED_ID' | 'MLDS_REPEATED_LAYOUT',
): void {
  if (count > 1) throw new MldsError(repeated, `"${name}" must appear exactly once; it appears ${count} times`, name);
  if (count === 0 || value === '') throw new MldsError(missing, `"${name}" is required`, name);
}

/** A layout's areas by id, made once per layout (a reload makes new layout objects). */
const areaIndex = new WeakMap<LayoutConfig, Map<string, AreaConfig>>();
function areasOf(layout: LayoutConfig): Map<string, AreaConfig> {
  let m = areaIndex.get(layout);
  if (!m) {
    m = new Map(layout.areas.map((a) => [a.id, a]));
    areaIndex.set(layout, m);
  }
  return m;
}

function resolveValue(area: AreaConfig, value: string): AreaCommand {
  if (value === '') return { area, value };
  return { area, value, ...kindOf(area.type).resolve(area, value) };
}

function parseOverride(
  cmd: Command,
  kind: 'fontColor' | 'fontSize',
  area: AreaConfig | undefined,
  areaId: string,
  name: string,
  value: string,
): void {
  if (!area)
    throw new MldsError('MLDS_BAD_OVERRIDE', `"${name}": layout "${cmd.layout.name}" has no area "${areaId}"`, name);
  if (!kindOf(area.type).overrides)
    throw new MldsError(
      'MLDS_BAD_OVERRIDE',
      `"${name}": ${kind} overrides apply to text and static areas, "${areaId}" is ${area.type}`,
      name,
    );
  if (kind === 'fontColor') {
    const m = /^(\d{1,3})_(\d{1,3})_(\d{1,3})$/.exec(value);
    const parts = m ? [m[1], m[2], m[3]].map(Number) : [];
    if (!m || parts.some((p) => p > 255))
      throw new MldsError(
        'MLDS_BAD_OVERRIDE',
        `"${name}": "${value}" must be R_G_B with each value 0..255, e.g. 255_128_0`,
        name,
      );
    cmd.fontColor.set(areaId, { r: parts[0], g: parts[1], b: parts[2] });
  } else {
    const size = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
    if (!(size >= 1))
      throw new MldsError(
        'MLDS_BAD_OVERRIDE',
        `"${name}": "${value}" must be a whole number of points (1 pt = 1 px)`,
        name,
      );
    // The configuration's rule (src/config/area-config.ts): up to the area height.
    if (size > area.height)
      throw new MldsError(
        'MLDS_BAD_OVERRIDE',
        `"${name}": ${size} must not be larger than the area height (${area.height} px)`,
        name,
      );
    // A bitmap font draws only at its pixel size and whole multiples of it, as in the configuration.
    const font = 'font' in area ? area.font : undefined;
    const bdf = font && isBitmapFontFile(font) ? loadBdf(font) : undefined;
    if (bdf && !bitmapScale(bdf, size))
      throw new MldsError(
        'MLDS_BAD_OVERRIDE',
        `"${name}": ${size} does not suit the bitmap font of "${areaId}": use its pixel size or a whole multiple ` +
          `(${bitmapSizes(bdf, area.height)})`,
        name,
      );
    cmd.fontSize.set(areaId, size);
  }
}
