// What the feeds tests feed the service: GTFS zips written with yazl, GTFS-realtime messages
// encoded with MobilityData's bindings, a loopback server answering what the test says (with
// ETag and 304), and the feeds component on a real configuration outside a running service.
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import GtfsRealtimeBindings from 'gtfs-realtime-bindings';
import yazl from 'yazl';
import { pino } from 'pino';
import { normalize } from '../../src/config/normalize.js';
import type { ConfigFault } from '../../src/config/faults.js';
import type { ServiceConfig } from '../../src/config/types.js';
import type { RuntimeContext } from '../../src/capability/component-contract.js';
import { FeedsComponent } from '../../src/feeds/feeds-component.js';
import type { Clock } from '../../src/util/clock.js';

export const rt = GtfsRealtimeBindings.transit_realtime;

/** CSV text from rows (RFC 4180 quoting where needed). */
export function csv(rows: Array<Array<string | number>>): string {
  return (
    rows
      .map((r) =>
        r.map((v) => (/[",\r\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v))).join(','),
      )
      .join('\r\n') + '\r\n'
  );
}

/** A GTFS zip of these tables (file name -> rows, the first the header). */
export async function gtfsZip(file: string, tables: Record<string, Array<Array<string | number>>>): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const [name, rows] of Object.entries(tables)) zip.addBuffer(Buffer.from(csv(rows)), name);
  zip.end();
  const out = createWriteStream(file);
  zip.outputStream.pipe(out);
  await once(out, 'close');
  return file;
}

/** The header row of a GTFS calendar.txt. */
export const CALENDAR_HEADER = [
  'service_id',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
  'start_date',
  'end_date',
];

/** GTFS-realtime seconds of an instant. */
export const sec = (ms: number) => Math.floor(ms / 1000);

export function feedMessage(
  entities: GtfsRealtimeBindings.transit_realtime.IFeedEntity[],
  timestampMs: number,
): Buffer {
  const msg = rt.FeedMessage.create({
    header: { gtfsRealtimeVersion: '2.0', incrementality: 0, timestamp: sec(timestampMs) },
    entity: entities,
  });
  return Buffer.from(rt.FeedMessage.encode(msg).finish());
}

export interface FeedServer {
  url(p: string): string;
  /** Body per path; a function answers itself. */
  bodies: Map<string, Buffer | string | ((req: IncomingMessage, res: ServerResponse) => void)>;
  /** Requests per path, with their conditional headers. */
  got: Array<{ path: string; ifNoneMatch?: string; headers: IncomingMessage['headers'] }>;
  etags: boolean;
  close(): void;
}

export async function feedServer(): Promise<FeedServer> {
  let port = 0;
  const s: FeedServer = {
    url: (p) => `http://127.0.0.1:${port}${p}`,
    bodies: new Map(),
    got: [],
    etags: true,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
  const server = createServer((req, res) => {
    const p = (req.url ?? '/').split('?')[0];
    s.got.push({ path: p, ifNoneMatch: req.headers['if-none-match'], headers: req.headers });
    const b = s.bodies.get(p);
    if (b === undefined) {
      res.statusCode = 404;
      res.end();
      return;
    }
    if (typeof b === 'function') {
      b(req, res);
      return;
    }
    const body = Buffer.from(b);
    const tag = `"${body.length}-${hash(body)}"`;
    if (s.etags) {
      res.setHeader('etag', tag);
      if (req.headers['if-none-match'] === tag) {
        res.statusCode = 304;
        res.end();
        return;
      }
    }
    res.end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
  return s;
}

function hash(b: Buffer): number {
  let h = 0;
  for (let i = 0; i < b.length; i++) h = (h * 31 + b[i]) | 0;
  return h >>> 0;
}

export interface FeedsRig {
  dir: string;
  feeds: FeedsComponent;
  config: ServiceConfig;
  /** The control messages the feeds sent (alerts). */
  applied: string[];
  stop(): Promise<void>;
}

/**
 * The feeds component on the configuration `raw` (departures areas included: the area type is
 * drawn by another module, the feeds read them from the file), with `files` written into the
 * service folder first. `apply` takes the control messages the feeds send (a running service's
 * control path); without it they are only recorded. `components` are the capabilities it finds, by key name;
 * `log` takes what the feeds log (silent by default).
 */
export async function feedsRig(
  raw: Record<string, unknown>,
  clock: Clock,
  files: Record<string, Buffer> = {},
  apply?: (q: string) => Promise<unknown>,
  components: Record<string, unknown> = {},
  log: RuntimeContext['log'] = pino({ level: 'silent' }),
): Promise<FeedsRig> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mlds-feeds-'));
  for (const [name, bytes] of Object.entries(files)) writeFileSync(path.join(dir, name), bytes);
  const faults: ConfigFault[] = [];
  const config = normalize(raw, dir, faults);
  if (faults.length) throw new Error(`configuration faults: ${JSON.stringify(faults)}`);
  const applied: string[] = [];
  const ctx = {
    log,
    clock,
    config: () => config,
    units: () => new Map(),
    unitFor: () => undefined,
    component: (key: { name: string }) => components[key.name],
    apply: async (q: string) => {
      applied.push(q);
      return apply ? apply(q) : { displayId: '', layout: '', ignored: [] };
    },
  } as unknown as RuntimeContext;
  const feeds = new FeedsComponent();
  await feeds.start(ctx);
  return {
    dir,
    feeds,
    config,
    applied,
    stop: async () => {
      await feeds.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A configuration with one display whose layout `board` holds a departures area of `feed` for `stops`. */
/**
 * A 192x32 stop display whose layout `board` holds a departures area `deps` (with the fields in `board`) over a text
 * area `alert`.
 */
export function boardConfig(
  feeds: Record<string, unknown>,
  stops: string[],
  extra: Record<string, unknown> = {},
  board: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    displays: {
      stop1: {
        displayWidth: 192,
        displayHeight: 32,
        output: { driver: 'virtual' },
        layout: {
          board: {
            deps: {
              type: 'departures',
              coordinates: '0 0 191 23',
              feed: Object.keys(feeds)[0],
              stops,
              rows: '3',
              columns: [
                { field: 'route', width: '30' },
                { field: 'destination', width: '112' },
                { field: 'countdown', width: '50', align: 'right' },
              ],
              ...board,
            },
            alert: { type: 'text', coordinates: '0 24 191 31', fontSize: '8' },
          },
        },
      },
    },
    feeds,
    ...extra,
  };
}

/**
 * A board of `stops` on the GTFS-realtime feed `name` served by `srv` (trip updates at /tu, alerts at /alerts, the
 * schedule gtfs.zip, polled every 30 s), its alerts in the area `alert`; `board` adds to the departures area.
 */
export function alertsBoard(
  srv: FeedServer,
  name: string,
  stops: string[],
  board: Record<string, unknown> = {},
): Record<string, unknown> {
  const feed = {
    type: 'gtfs-rt',
    url: srv.url('/tu'),
    static: 'gtfs.zip',
    interval: '30',
    alertsUrl: srv.url('/alerts'),
  };
  return boardConfig({ [name]: feed }, stops, {}, { alertArea: 'alert', ...board });
}
