// Light sensors in the configuration: a display's own `sensor` and the top-level shared
// `sensors` (docs/configuration.md). The schema checks each field; these are the rules
// between fields and between sensors that it cannot express.
import { pointer } from './faults.js';
import { parseIntLike, parseNumLike } from './scalars.js';
import type { DisplayConfig, SensorConfig, SharedSensorConfig, UnitConfig } from './types.js';

type Raw = Record<string, unknown>;
type Fault = (path: string, message: string) => void;

const isObj = (v: unknown): v is Raw => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export function sensorFrom(s: Raw): SensorConfig {
  return {
    path: str(s.path),
    baudRate: parseIntLike(s.baudRate) ?? 9600,
    protocol: (s.protocol as SensorConfig['protocol']) ?? 'ascii',
    unitId: parseIntLike(s.unitId) ?? 1,
    register: parseIntLike(s.register) ?? 0,
    pollMs: parseIntLike(s.pollMs) ?? 1000,
    host: str(s.host),
    port: parseIntLike(s.port),
    curve: Array.isArray(s.curve)
      ? (s.curve as unknown[][]).map((p) => [parseNumLike(p?.[0]) ?? 0, parseNumLike(p?.[1]) ?? 0] as [number, number])
      : undefined,
  };
}

/** One sensor's own rules: where it is reached, and a curve that maps lux to a percent. */
function checkSensor(s: SensorConfig, at: string, fault: Fault): void {
  if (s.protocol === 'modbus-tcp') {
    if (!s.host) fault(`${at}/host`, 'is required for protocol modbus-tcp');
  } else if (!s.path) fault(`${at}/path`, `is required for protocol ${s.protocol}`);
  s.curve?.forEach(([lux, percent], i) => {
    if (percent > 100) fault(`${at}/curve/${i}/1`, `is a brightness percent: at most 100, not ${percent}`);
    if (i > 0 && lux <= s.curve![i - 1][0])
      fault(
        `${at}/curve/${i}/0`,
        `lux values must increase from point to point (${lux} follows ${s.curve![i - 1][0]})`,
      );
  });
}

/**
 * The shared sensors, with each display sensor checked too: a sensor dims a whole unit, so it
 * belongs on the unit's MAIN display; a shared sensor names displays that exist; one serial
 * device is read by one sensor entry only (it can be opened once).
 */
export function normalizeSensors(
  raw: unknown,
  displays: DisplayConfig[],
  units: UnitConfig[],
  fault: Fault,
): SharedSensorConfig[] {
  const ids = new Set(displays.map((d) => d.id));
  const paths = new Map<string, string>();
  const claim = (s: SensorConfig, at: string) => {
    if (s.protocol === 'modbus-tcp' || !s.path) return;
    const first = paths.get(s.path);
    const instead = 'list every display it serves in one shared sensor instead';
    if (first) fault(`${at}/path`, `${s.path} is already read by the sensor at ${first}; ${instead}`);
    else paths.set(s.path, at);
  };
  for (const d of displays) {
    if (!d.sensor) continue;
    const at = pointer('displays', d.id, 'sensor');
    const main = units.find((u) => u.key === d.unit)?.displayIds[0];
    if (main !== undefined && main !== d.id)
      fault(at, `a sensor sets the brightness of the whole unit: put it on the unit's MAIN display "${main}"`);
    checkSensor(d.sensor, at, fault);
    claim(d.sensor, at);
  }
  const out: SharedSensorConfig[] = [];
  (Array.isArray(raw) ? raw : []).forEach((s, i) => {
    if (!isObj(s)) return;
    const at = pointer('sensors', i);
    const listed = Array.isArray(s.displays) ? s.displays.filter((x): x is string => typeof x === 'string') : [];
    listed.forEach((id, j) => {
      if (!ids.has(id)) fault(`${at}/displays/${j}`, `names no display: "${id}"`);
    });
    const sensor = { ...sensorFrom(s), displays: listed };
    checkSensor(sensor, at, fault);
    claim(sensor, at);
    out.push(sensor);
  });
  return out;
}
