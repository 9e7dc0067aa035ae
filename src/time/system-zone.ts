// The zone the process runs in, without ICU's locale data: the first Intl.DateTimeFormat of a
// process costs about 8 MB of resident memory (Node's built-in ICU), while Date's local-time
// methods, which follow the same zone, cost about 1 MB. A sign without a configured timezone
// (the common case) shows its clocks through Date alone.
import { readFileSync, readlinkSync } from 'node:fs';

const ZONEINFO = /^.*\/zoneinfo\/(?:posix\/|right\/)?/;
const UTC_ALIASES = new Set([
  'Etc/UTC',
  'Etc/UCT',
  'Etc/Universal',
  'Etc/Zulu',
  'UCT',
  'Universal',
  'Zulu',
  'Etc/GMT',
  'GMT',
  'Etc/GMT0',
  'GMT0',
  'Etc/Greenwich',
  'Greenwich',
]);

let cached: string | undefined;

function fromTzVariable(tz: string | undefined): string | undefined {
  if (!tz) return undefined;
  const name = tz.replace(/^:/, '').replace(ZONEINFO, '');
  return /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name) ? name : undefined;
}

function fromLocaltime(): string | undefined {
  try {
    const target = readlinkSync('/etc/localtime');
    if (ZONEINFO.test(target)) return target.replace(ZONEINFO, '');
  } catch {
    /* not a link: a copied file */
  }
  try {
    return readFileSync('/etc/timezone', 'utf8').trim() || undefined; // Debian and Buildroot keep the name here
  } catch {
    return undefined;
  }
}

/** The IANA name of the process's zone (TZ, else /etc/localtime's link, else /etc/timezone, else what ICU says). */
export function systemZone(): string {
  if (cached === undefined) {
    const name =
      fromTzVariable(process.env.TZ) ?? fromLocaltime() ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';
    cached = UTC_ALIASES.has(name) ? 'UTC' : name;
  }
  return cached;
}

/** The process's UTC offset at an instant, in seconds (Date follows the same zone as systemZone()). */
export function systemOffsetSeconds(epochMs: number): number {
  return -new Date(epochMs).getTimezoneOffset() * 60;
}
