// The daylight schedule's sunrise and sunset against published values for four cities at both
// solstices and an equinox. suncalc for the exact date must agree with the published minute
// (3 minutes: rounding, refraction and the exact spot of "the city"); the schedule, which uses
// one day per half month, must show a time the sun really has within eight days of the date
// (the specification: "accurate to two weeks").
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { daylightSchedule, sunTimes } from '../../src/brightness/daylight.js';
import { instantOf, offsetMinutes } from '../../src/brightness/local-time.js';
import { evaluate } from '../../src/brightness/schedule.js';

interface Published {
  date: [number, number, number];
  sunrise?: string;
  sunset?: string;
  dayLength?: string;
  source: string;
}
interface City {
  name: string;
  lat: number;
  lng: number;
  zone: string;
  rows: Published[];
}

// Local clock times (daylight saving time where it applies), as published.
const CITIES: City[] = [
  {
    name: 'Sydney',
    lat: -33.85,
    lng: 151.2,
    zone: 'Australia/Sydney',
    rows: [
      // NOAA Solar Calculator, year 2017, as tabulated in Time4J's SunSydneyTest.java ("NOAA-data for year 2017").
      { date: [2017, 3, 20], sunrise: '06:58', sunset: '19:07', source: 'NOAA Solar Calculator 2017' },
      { date: [2017, 6, 21], sunrise: '07:00', sunset: '16:54', source: 'NOAA Solar Calculator 2017' },
      { date: [2017, 12, 21], sunrise: '05:41', sunset: '20:06', source: 'NOAA Solar Calculator 2017' },
    ],
  },
  {
    name: 'New York',
    lat: 40.7128,
    lng: -74.006,
    zone: 'America/New_York',
    rows: [
      // Hunter College (CUNY) geography notes, "NYC length of day" (geo.hunter.cuny.edu); the page names no
      // year (its March times are daylight saving time, so a year after 2007): checked against 2024.
      { date: [2024, 3, 21], sunrise: '06:56', sunset: '19:09', source: 'Hunter College, NYC length of day' },
      { date: [2024, 6, 21], sunrise: '05:25', sunset: '20:30', source: 'Hunter College, NYC length of day' },
      { date: [2024, 12, 21], sunrise: '07:16', sunset: '16:32', source: 'Hunter College, NYC length of day' },
    ],
  },
  {
    name: 'London',
    lat: 51.5074,
    lng: -0.1278,
    zone: 'Europe/London',
    rows: [
      // Steve Owens, Dark Sky Diary, "Happy Spring Equilux", 18 March 2011 (two days before that equinox).
      { date: [2011, 3, 18], sunrise: '06:09', sunset: '18:09', source: 'Dark Sky Diary, 18 March 2011' },
      // inews.co.uk, "When will it start getting lighter again? UK sunrise and sunset times": the 2024 summer solstice
      // on 20 June.
      { date: [2024, 6, 20], sunrise: '04:43', sunset: '21:21', source: 'inews.co.uk' },
      // Wikipedia, Template:December solstice: Finnish Meteorological Institute data for 22 December 2015.
      { date: [2015, 12, 22], sunrise: '08:04', sunset: '15:53', source: 'FMI via Wikipedia, 22 Dec 2015' },
    ],
  },
  {
    name: 'Munich',
    lat: 48.1374,
    lng: 11.5755,
    zone: 'Europe/Berlin',
    rows: [
      // Bayerischer Rundfunk, Sternenhimmel im März 2017: "Sonnenaufgang ist um 6.17 Uhr, Sonnenuntergang um 18.27 Uhr"
      // (20 March).
      { date: [2017, 3, 20], sunrise: '06:17', sunset: '18:27', source: 'br.de Sternenhimmel, March 2017' },
      // Bayerischer Rundfunk, Sternenhimmel im Juni 2020: 1 June 5.18/21.06; on 20 June five minutes earlier and eleven
      // later.
      { date: [2020, 6, 20], sunrise: '05:13', sunset: '21:17', source: 'br.de Sternenhimmel, June 2020' },
      // Süddeutsche Zeitung, "Verwirrung um die Sonnwende" (27 Dec 2017): on 21 December the sun was up 8 h 21 min in
      // Munich.
      { date: [2017, 12, 21], dayLength: '08:21', source: 'Süddeutsche Zeitung, Dec 2017' },
    ],
  },
];

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
const TOLERANCE = 3;

/** suncalc's sunrise and sunset of a date on the local clock, in minutes. */
function exact(c: City, y: number, m: number, d: number): { rise: number; set: number } {
  const s = sunTimes(c.zone, c.lat, c.lng, y, m, d);
  const off = offsetMinutes(c.zone, instantOf(c.zone, y, m, d, 720));
  return { rise: s.sunrise + off, set: s.sunset + off };
}

for (const c of CITIES) {
  test(`sun times: ${c.name} at both solstices and an equinox`, () => {
    const schedule = daylightSchedule(c.zone, c.lat, c.lng);
    for (const row of c.rows) {
      const [y, m, d] = row.date;
      const label = `${c.name} ${row.date.join('-')} (${row.source})`;
      const e = exact(c, y, m, d);
      if (row.dayLength) {
        assert.ok(
          Math.abs(e.set - e.rise - minutes(row.dayLength)) <= TOLERANCE,
          `${label}: day length ${(e.set - e.rise).toFixed(1)} min, published ${row.dayLength}`,
        );
      } else {
        assert.ok(
          Math.abs(e.rise - minutes(row.sunrise!)) <= TOLERANCE,
          `${label}: suncalc sunrise ${e.rise.toFixed(1)} min, published ${row.sunrise}`,
        );
        assert.ok(
          Math.abs(e.set - minutes(row.sunset!)) <= TOLERANCE,
          `${label}: suncalc sunset ${e.set.toFixed(1)} min, published ${row.sunset}`,
        );
      }

      // What the schedule uses on that date: one day's times for the whole half month.
      const noon = instantOf(c.zone, y, m, d, 720);
      const st = evaluate(schedule, c.zone, noon);
      const rise = minutes(st.sunrise!),
        set = minutes(st.sunset!);
      const around = Array.from({ length: 17 }, (_, i) => {
        const t = new Date(Date.UTC(y, m - 1, d - 8 + i));
        return exact(c, t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
      });
      const within = (v: number, xs: number[]) => v >= Math.min(...xs) - 1 && v <= Math.max(...xs) + 1;
      assert.ok(
        within(
          rise,
          around.map((a) => a.rise),
        ),
        `${label}: schedule sunrise ${st.sunrise} is a sunrise of the eight days around`,
      );
      assert.ok(
        within(
          set,
          around.map((a) => a.set),
        ),
        `${label}: schedule sunset ${st.sunset} is a sunset of the eight days around`,
      );
      const spread = Math.max(
        ...around.map((a) => Math.abs(a.rise - e.rise)),
        ...around.map((a) => Math.abs(a.set - e.set)),
      );
      if (row.sunrise) {
        assert.ok(
          Math.abs(rise - minutes(row.sunrise)) <= spread + TOLERANCE,
          `${label}: schedule sunrise ${st.sunrise} vs published ${row.sunrise} (half-month spread ` +
            `${spread.toFixed(0)} min)`,
        );
        assert.ok(
          Math.abs(set - minutes(row.sunset!)) <= spread + TOLERANCE,
          `${label}: schedule sunset ${st.sunset} vs published ${row.sunset}`,
        );
      }
    }
  });
}

test('sun times: polar day and polar night are whole days of one level', () => {
  const tromso = daylightSchedule('Europe/Oslo', 69.65, 18.96);
  const june = evaluate(tromso, 'Europe/Oslo', Date.UTC(2024, 5, 21, 22, 0));
  const dec = evaluate(tromso, 'Europe/Oslo', Date.UTC(2024, 11, 21, 11, 0));
  assert.equal(june.phase, 'day');
  assert.equal(june.percent, 100);
  assert.equal(june.sunrise, undefined);
  assert.equal(dec.phase, 'night');
  assert.equal(dec.percent, 50);
});

test('the daylight schedule computes the sun of the half month in force, once, not the whole year', () => {
  const asked: string[] = [];
  const counted: typeof sunTimes = (zone, lat, lng, y, m, d) => {
    asked.push(`${y}-${m}-${d}`);
    return sunTimes(zone, lat, lng, y, m, d);
  };
  const schedule = daylightSchedule('Europe/Warsaw', 52.23, 21.01, counted);
  const plain = daylightSchedule('Europe/Warsaw', 52.23, 21.01);
  const t = Date.UTC(2026, 11, 7, 9, 0);
  assert.deepEqual(evaluate(schedule, 'Europe/Warsaw', t), evaluate(plain, 'Europe/Warsaw', t));
  assert.deepEqual(asked, ['2026-12-8'], 'one date stands for December 1-15');
  evaluate(schedule, 'Europe/Warsaw', t + 3 * 3_600_000);
  assert.deepEqual(asked, ['2026-12-8'], 'kept for the rest of the half month');
  evaluate(schedule, 'Europe/Warsaw', Date.UTC(2026, 11, 20, 9, 0));
  assert.deepEqual(asked, ['2026-12-8', '2026-12-23']);
});
