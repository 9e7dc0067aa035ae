// An entry's `template` filled from the alert's chosen info: {event} {headline} {description}
// {instruction} {areaDesc} {severity} {urgency} {certainty} {sender} {expires}. Unknown names
// stay as written; line breaks in CAP text become spaces (a sign line, not a paragraph).
import { formatEnglish, zonedAt } from '../time/date-format.js';
import { systemZone } from '../time/system-zone.js';
import type { CapAlert, CapInfo } from './cap-alert.js';

/** How {expires} reads: in the unit's time zone. */
export const EXPIRES_PATTERN = 'd MMM HH:mm';
const MAX_TEXT = 1024;

/** `expiresAt`: the info's expires as select.ts read it (a time past any calendar is clamped there). */
export function fillTemplate(
  template: string,
  alert: CapAlert,
  info: CapInfo,
  expiresAt: number | undefined,
  timezone: string | undefined,
): string {
  const fields: Record<string, string> = {
    event: info.event,
    headline: info.headline,
    description: info.description,
    instruction: info.instruction,
    areaDesc: info.areas
      .map((a) => a.areaDesc)
      .filter(Boolean)
      .join(', '),
    severity: info.severity,
    urgency: info.urgency,
    certainty: info.certainty,
    sender: info.senderName ?? alert.sender,
    expires:
      expiresAt === undefined
        ? ''
        : formatEnglish(zonedAt(expiresAt, undefined, timezone ?? systemZone()), EXPIRES_PATTERN),
  };
  const out = template.replace(/\{(\w+)\}/g, (all, name: string) => (Object.hasOwn(fields, name) ? fields[name] : all));
  return out
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .trim()
    .slice(0, MAX_TEXT);
}
