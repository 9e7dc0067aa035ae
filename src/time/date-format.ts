// java.time DateTimeFormatter patterns in English, without @js-joda/locale_en and
// @js-joda/timezone: those two inline the whole CLDR and tz databases and cost ~175 MB
// of RSS (measured; docs/decisions.md). @js-joda/core still parses the pattern and
// formats every numeric field; only the English text fields (month and day names,
// AM/PM, era, quarter) are put in as quoted literals, and zone offsets come from
// Date for the process's own zone and the ICU database Node.js carries (Intl) for others.
import type * as Joda from '@js-joda/core';
import { requireCjs } from '../util/require-cjs.js';
import { systemOffsetSeconds, systemZone } from './system-zone.js';
import { wallOffsetMs } from './wall-clock.js';

const { DateTimeFormatter, Instant, ZonedDateTime, ZoneOffset } = requireCjs('@js-joda/core') as typeof Joda;
type DateTimeFormatter = Joda.DateTimeFormatter;
type ZonedDateTime = Joda.ZonedDateTime;
type ZoneOffset = Joda.ZoneOffset;

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

type Token = { kind: 'field'; letter: string; count: number } | { kind: 'text'; raw: string };

/** Splits a pattern the way DateTimeFormatterBuilder.appendPattern reads it: letter runs, quoted text, the rest. */
function tokenize(pattern: string): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < pattern.length;) {
    const ch = pattern[i];
    if (/[A-Za-z]/.test(ch)) {
      let j = i;
      while (pattern[j] === ch) j++;
      out.push({ kind: 'field', letter: ch, count: j - i });
      i = j;
    } else if (ch === "'") {
      let j = i + 1;
      for (; j < pattern.length; j++) {
        if (pattern[j] === "'") {
          if (pattern[j + 1] === "'") {
            j++;
            continue;
          }
          break;
        }
      }
      out.push({ kind: 'text', raw: pattern.slice(i, j + 1) });
      i = j + 1;
    } else {
      out.push({ kind: 'text', raw: ch });
      i++;
    }
  }
  return out;
}

/** The English text of a text field, or undefined when js-joda formats it itself (numbers). */
function english(letter: string, count: number, t: ZonedDateTime): string | undefined {
  switch (letter) {
    case 'M':
    case 'L': {
      if (count < 3) return undefined;
      const name = MONTHS[t.monthValue() - 1];
      return count === 3 ? name.slice(0, 3) : count === 4 ? name : name[0];
    }
    case 'E': {
      const name = DAYS[t.dayOfWeek().value() - 1];
      return count <= 3 ? name.slice(0, 3) : count === 4 ? name : name[0];
    }
    case 'a':
      return t.hour() < 12 ? 'AM' : 'PM';
    case 'G': {
      const ad = t.year() > 0;
      return count <= 3 ? (ad ? 'AD' : 'BC') : count === 4 ? (ad ? 'Anno Domini' : 'Before Christ') : ad ? 'A' : 'B';
    }
    case 'Q':
    case 'q': {
      if (count < 3) return undefined;
      const q = Math.floor((t.monthValue() - 1) / 3) + 1;
      return count === 3 ? `Q${q}` : count === 4 ? `${['1st', '2nd', '3rd', '4th'][q - 1]} quarter` : String(q);
    }
    default:
      return undefined;
  }
}

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;
const tokens = new Map<string, Token[]>();
const formatters = new Map<string, DateTimeFormatter>();

function formatterFor(pattern: string): DateTimeFormatter {
  let f = formatters.get(pattern);
  if (!f) {
    f = DateTimeFormatter.ofPattern(pattern);
    if (formatters.size > 256) formatters.clear();
    formatters.set(pattern, f);
  }
  return f;
}

/** Formats `t` with a java.time pattern, English text. Throws on a pattern java.time would reject. */
export function formatEnglish(t: ZonedDateTime, pattern: string): string {
  let toks = tokens.get(pattern);
  if (!toks) {
    toks = tokenize(pattern);
    tokens.set(pattern, toks);
  }
  let rewritten = '';
  let hasText = false;
  for (const tok of toks) {
    if (tok.kind === 'text') {
      rewritten += tok.raw;
      continue;
    }
    const text = english(tok.letter, tok.count, t);
    if (text === undefined) rewritten += tok.letter.repeat(tok.count);
    else {
      rewritten += quote(text);
      hasText = true;
    }
  }
  return t.format(formatterFor(hasText ? rewritten : pattern));
}

/** The UTC offset of an IANA zone at an instant, from the ICU data built into Node.js. */
export function zoneOffsetAt(zone: string, epochMs: number): ZoneOffset {
  if (zone === systemZone()) return ZoneOffset.ofTotalSeconds(systemOffsetSeconds(epochMs));
  return ZoneOffset.ofTotalSeconds(Math.round(wallOffsetMs(zone, epochMs) / 1000));
}

/** The date-time at an instant, in a fixed offset (hours) or an IANA zone. */
export function zonedAt(epochMs: number, offsetHours: number | undefined, zone: string): ZonedDateTime {
  const offset =
    offsetHours !== undefined ? ZoneOffset.ofTotalSeconds(Math.round(offsetHours * 3600)) : zoneOffsetAt(zone, epochMs);
  return ZonedDateTime.ofInstant(Instant.ofEpochMilli(Math.floor(epochMs)), offset);
}
