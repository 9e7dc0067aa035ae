// The service configuration the alerts tests share: display `main` (200 x 100, virtual) with
// layout `l1` and an alert layout whose one area fills the panel in red.
import { baseConfig, decode, get, near, type Reply } from '../helpers/service.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const LAT = 52.23;
export const LON = 21.01;
export const RED: [number, number, number] = [255, 0, 0];

/** The alert area: the whole 200 x 100 panel in red, with `extra` fields. */
export function alertArea(extra: Obj = {}): Obj {
  return {
    coordinates: '0 0 199 99',
    type: 'text',
    fontSize: '14',
    backgroundColor: '255 0 0',
    fontColor: '255 255 255',
    ...extra,
  };
}

export function alertsConfig(url: string, entry: Obj = {}): Obj {
  const c = baseConfig();
  c.timezone = 'UTC';
  c.latitude = String(LAT);
  c.longitude = String(LON);
  c.displays.main.layout.warn = { msg: alertArea() };
  c.alerts = [{ url, interval: '1', show: { layout: 'warn', area: 'msg' }, ...entry }];
  return c;
}

export const status = async (svc: { url: string }): Promise<Obj> => (await get(svc, '/status')).json as Obj;
export const alertsStatus = async (svc: { url: string }): Promise<Obj> => (await status(svc)).components.alerts as Obj;
export const mainDisplay = async (svc: { url: string }): Promise<Obj> =>
  ((await status(svc)).displays as Obj[]).find((d) => d.id === 'main') as Obj;

/** The colour at a point of main's screenshot (PNG, so exact). */
export async function pixel(svc: { url: string }, x: number, y: number): Promise<[number, number, number]> {
  const r: Reply = await get(svc, '/screenshot?id=main&format=png');
  return (await decode(r.bytes)).at(x, y);
}

export const isRed = async (svc: { url: string }) => near(await pixel(svc, 195, 95), RED);
export const isBlack = async (svc: { url: string }) => near(await pixel(svc, 195, 95), [0, 0, 0]);
