// Rules that tie one part of the configuration to another, checked at load so `mlds test` and
// a reload say what would otherwise go wrong only when it strikes: displays merged into one unit
// only because neither names an address, and (warnings) areas of one layout that overlap, and
// units whose Home Assistant discovery topics would be one. (The control queries crons and
// pollers hold are checked by the control path's own parser: src/control/config-queries.ts.)
import { discoveryId } from './discovery-id.js';
import { pointer, type ConfigFault } from './faults.js';
import type { AreaConfig, DisplayConfig, ServiceConfig } from './types.js';

type Raw = Record<string, unknown>;
type Fault = (path: string, message: string) => void;

/** Overlap warnings beyond this many are counted, not listed: a generated file may hold thousands. */
export const MAX_OVERLAP_WARNINGS = 100;

/** Faults go to `fault`; the warnings (overlapping areas, discovery topics shared) are returned. */
export function crossCheck(config: ServiceConfig, raw: Raw, fault: Fault): ConfigFault[] {
  checkImplicitUnits(config, isObj(raw.displays) ? raw.displays : {}, fault);
  return [...overlapWarnings(config.displays), ...discoveryWarnings(config)];
}

/**
 * Each physical unit after the first is discovered by Home Assistant on
 * `homeassistant/light/<unit>/<MAIN id>/config`, its ids reduced to `[a-zA-Z0-9_-]`: two MAIN
 * ids that reduce alike (`front door`, `front.door`) would share one topic, one light
 * replacing the other.
 */
function discoveryWarnings(config: ServiceConfig): ConfigFault[] {
  if (!config.mqtt?.homeAssistant) return [];
  const out: ConfigFault[] = [];
  const seen = new Map<string, string>();
  for (const u of config.units.slice(1)) {
    const id = u.displayIds[0];
    const reduced = discoveryId(id);
    const other = seen.get(reduced);
    if (other === undefined) {
      seen.set(reduced, id);
      continue;
    }
    const topic = `homeassistant/light/${discoveryId(config.mqtt.unit)}/${reduced}/config`;
    out.push({
      path: pointer('displays', id),
      message:
        `Home Assistant would discover this unit's light on ${topic}, as it does the unit of "${other}": ` +
        `only [a-zA-Z0-9_-] may stand in a discovery topic, so both ids reduce to "${reduced}" and one light ` +
        'would replace the other; give the two displays ids that differ in those characters',
    });
  }
  return out;
}

/**
 * Displays share a physical unit when they share an output (docs/configuration.md, "Physical
 * units"). Sharing that comes only from leaving out displayIp/displayPort (every such display
 * defaults to the same local address) is a fault: two panels written separately would
 * otherwise become one.
 */
function checkImplicitUnits(config: ServiceConfig, raw: Raw, fault: Fault): void {
  for (const u of config.units) {
    if (u.displayIds.length < 2) continue;
    for (const id of u.displayIds) {
      const r = raw[id];
      if (!isObj(r) || !impliedAddress(r)) continue;
      const others = u.displayIds
        .filter((o) => o !== id)
        .slice(0, 5)
        .map((o) => `"${o}"`)
        .join(', ');
      fault(
        pointer('displays', id, r.displayIp === undefined ? 'displayIp' : 'displayPort'),
        `is missing, so this display shares the unit "${u.key}" with ${others} by default: give each display its ` +
          `own displayIp and displayPort, or the same ones to composite them on one unit`,
      );
    }
  }
}

/** Whether a display's unit comes from a defaulted address rather than one it names. */
function impliedAddress(d: Raw): boolean {
  const driver = isObj(d.output) ? d.output.driver : undefined;
  if (driver === 'fbdev' || driver === 'colorlight') return false;
  if (driver === 'ddp') return d.displayIp === undefined;
  return d.displayIp === undefined || d.displayPort === undefined;
}

/** Overlapping areas are allowed (later ones draw on top) but usually a slip: said, not refused. */
export function overlapWarnings(displays: DisplayConfig[]): ConfigFault[] {
  const out: ConfigFault[] = [];
  let more = 0;
  for (const d of displays) {
    for (const [name, layout] of d.layouts) {
      const areas = layout.areas;
      for (let i = 0; i < areas.length; i++) {
        for (let j = i + 1; j < areas.length; j++) {
          const both = intersection(areas[i], areas[j]);
          if (!both) continue;
          if (out.length >= MAX_OVERLAP_WARNINGS) {
            more++;
            continue;
          }
          out.push({
            path: pointer('displays', d.id, 'layout', name),
            message: `areas "${areas[i].id}" and "${areas[j].id}" overlap at ${both}; "${areas[j].id}" draws on top`,
          });
        }
      }
    }
  }
  if (more > 0) out.push({ path: '', message: `${more} more overlapping area pair(s) not listed` });
  return out;
}

/** The shared rectangle in the file's inclusive `x y X Y` form, or undefined. */
function intersection(a: AreaConfig, b: AreaConfig): string | undefined {
  const x = Math.max(a.x, b.x),
    y = Math.max(a.y, b.y);
  const X = Math.min(a.x + a.width, b.x + b.width) - 1,
    Y = Math.min(a.y + a.height, b.y + b.height) - 1;
  return x <= X && y <= Y ? `${x} ${y} ${X} ${Y}` : undefined;
}

const isObj = (v: unknown): v is Raw => v !== null && typeof v === 'object' && !Array.isArray(v);
