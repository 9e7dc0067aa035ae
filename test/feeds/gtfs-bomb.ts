// A GTFS zip bomb: a zip of some 1.4 MB whose stop_times.txt inflates to 1.2 GB, 40,000 rows at
// stop S1 each with its own 30 KB trip_id (read as it stood, it took a service from 105 MB to
// more than 743 MB). Deflate writes a run of one character in a few bytes; deflating the 1.2 GB
// takes 10-40 s here, with the machine's load.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import yazl from 'yazl';

export const BOMB_ROWS = 40_000;
export const BOMB_ID_CHARS = 30_000;

export async function writeGtfsBomb(file: string, stop = 'S1'): Promise<string> {
  const pad = 'x'.repeat(BOMB_ID_CHARS - 8);
  let n = 0;
  const rows = new Readable({
    read() {
      if (n >= BOMB_ROWS) {
        this.push(null);
        return;
      }
      const lines = n === 0 ? ['trip_id,arrival_time,departure_time,stop_id,stop_sequence'] : [];
      for (const end = n + 100; n < end; n++) {
        lines.push(`B${String(n).padStart(6, '0')}-${pad},08:00:00,08:00:00,${stop},1`);
      }
      this.push(lines.join('\n') + '\n');
    },
  });
  const zip = new yazl.ZipFile();
  const agency = 'agency_name,agency_url,agency_timezone\nBomb,https://example.org,Europe/Berlin\n';
  zip.addBuffer(Buffer.from(agency), 'agency.txt');
  zip.addBuffer(Buffer.from(`stop_id,stop_name\n${stop},One\n`), 'stops.txt');
  zip.addBuffer(Buffer.from('route_id,route_short_name,route_type\nR,7,3\n'), 'routes.txt');
  zip.addBuffer(Buffer.from('route_id,service_id,trip_id\n'), 'trips.txt');
  zip.addReadStream(rows, 'stop_times.txt');
  zip.end();
  const out = createWriteStream(file);
  zip.outputStream.pipe(out);
  await once(out, 'close');
  return file;
}
