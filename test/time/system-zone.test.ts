// The process's own zone without ICU's locale data: the name and the offsets must be what
// Intl says, across daylight-saving changes, and a clock in that zone must not need Intl.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../src/time/', import.meta.url));

function inChild(tz: string, script: string): string {
  return execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    env: { ...process.env, TZ: tz },
    encoding: 'utf8',
  }).trim();
}

const ZONES = ['Europe/Warsaw', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'UTC'];

test("systemZone() names the zone Intl finds, and its offsets equal Intl's over two years of instants", () => {
  for (const tz of ZONES) {
    const out = inChild(
      tz,
      `
      import { systemZone, systemOffsetSeconds } from '${SRC}system-zone.ts';
      const intl = Intl.DateTimeFormat().resolvedOptions().timeZone;
      const f = new Intl.DateTimeFormat('en-US', { timeZone: intl, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
      let bad = 0, n = 0;
      for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2028, 0, 1); t += 3_600_000 * 7 + 60_000 * 13) {
        const p = Object.fromEntries(f.formatToParts(t).map((x) => [x.type, x.value]));
        const local = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second);
        if ((local - Math.floor(t / 1000) * 1000) / 1000 !== systemOffsetSeconds(t)) bad++;
        n++;
      }
      const same = new Intl.DateTimeFormat('en', { timeZone: systemZone() }).resolvedOptions().timeZone;
      console.log(JSON.stringify({ name: systemZone(), intl, same, bad, n }));`,
    );
    const r = JSON.parse(out) as { name: string; intl: string; same: string; bad: number; n: number };
    assert.equal(r.name, tz, `${tz}: the name TZ gives`);
    assert.equal(r.same, r.intl, `${tz}: the same zone as Intl's (ICU may call it by an older name: Asia/Calcutta)`);
    assert.equal(r.bad, 0, `${tz}: ${r.bad} of ${r.n} offsets differ from Intl's`);
  }
});

test('a clock in the system zone is formatted without constructing any Intl.DateTimeFormat', () => {
  const out = inChild(
    'Europe/Warsaw',
    `
    let made = 0;
    const Real = Intl.DateTimeFormat;
    Intl.DateTimeFormat = function (...a) { made++; return new Real(...a); };
    const { zonedAt, formatEnglish } = await import('${SRC}date-format.ts');
    const { systemZone } = await import('${SRC}system-zone.ts');
    const summer = formatEnglish(zonedAt(Date.UTC(2026, 6, 1, 12), undefined, systemZone()), 'HH:mm xxx');
    const winter = formatEnglish(zonedAt(Date.UTC(2026, 11, 1, 12), undefined, systemZone()), 'HH:mm xxx');
    console.log(JSON.stringify({ made, summer, winter }));`,
  );
  assert.deepEqual(JSON.parse(out), { made: 0, summer: '14:00 +02:00', winter: '13:00 +01:00' });
});
