// Whether a string names an IANA time zone that Node.js's ICU knows. It builds an
// Intl.DateTimeFormat, which loads ICU's data (about 8 MB resident, src/time/system-zone.ts):
// called only for a configured zone name.

export function isZoneName(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
