// A display's passenger fields (docs/speech.md): `readout` (what the sign shows, read aloud on
// a button, a transmitter's receiver, HTTP or MQTT), `showSpoken` (the area that shows what is
// said while it is said) and `volume` (this display's announcements' volume). Their schema
// fragment and normalization, so schema.ts and normalize.ts each carry one line.
import type { AreaType } from './area-types/area-fields.js';
import { kindOf } from './area-types/registry.js';
import { parseIntLike } from './scalars.js';
import { int } from './schema-parts.js';

type Raw = Record<string, unknown>;
type Fault = (path: string, message: string) => void;

/** A GPIO line (libgpiod's gpiomon) whose edge asks for a readout. */
export interface GpioReadoutInput {
  type: 'gpio';
  chip: string;
  line: number;
  edge: 'rising' | 'falling';
  debounceMs: number;
}
/** A serial port on which `pattern` (bytes) asks for a readout: a transmitter receiver's message. */
export interface SerialReadoutInput {
  type: 'serial';
  port: string;
  baudRate: number;
  pattern: Buffer;
}
export type ReadoutInput = GpioReadoutInput | SerialReadoutInput;
export interface ReadoutConfig {
  inputs: ReadoutInput[];
}
/** Where what is spoken for a display is shown while it is spoken. */
export interface ShowSpokenConfig {
  layout: string;
  area: string;
}

export const READOUT_DEFAULTS = { edge: 'falling', debounceMs: 50, baudRate: 9600 } as const;
/** Inputs a display may have: each is a process or an open port. */
const MAX_INPUTS = 8;

const gpio = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'chip', 'line'],
  properties: {
    type: { const: 'gpio' },
    // A chip's name (gpiochip0), label or path under /dev: never an option.
    chip: { type: 'string', pattern: '^(/dev/)?[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$' },
    line: int(0, 1023),
    edge: { enum: ['rising', 'falling'] },
    debounceMs: int(0, 10_000),
  },
};
const serial = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'port', 'pattern'],
  properties: {
    type: { const: 'serial' },
    port: { type: 'string', pattern: '^/dev/', maxLength: 255 },
    baudRate: int(300, 4_000_000),
    // The bytes as hex pairs ("02 52 03"), spaces allowed between them.
    pattern: { type: 'string', pattern: '^\\s*[0-9A-Fa-f]{2}(\\s*[0-9A-Fa-f]{2}){0,63}\\s*$' },
  },
};

export const passengerSchema = {
  readout: {
    type: 'object',
    additionalProperties: false,
    required: ['inputs'],
    properties: {
      inputs: {
        type: 'array',
        maxItems: MAX_INPUTS,
        items: {
          type: 'object',
          required: ['type'],
          properties: { type: { enum: ['gpio', 'serial'] } },
          discriminator: { propertyName: 'type' },
          oneOf: [gpio, serial],
        },
      },
    },
  },
  showSpoken: {
    type: 'object',
    additionalProperties: false,
    required: ['layout', 'area'],
    properties: {
      layout: { type: 'string', minLength: 1, maxLength: 255 },
      area: { type: 'string', minLength: 1, maxLength: 255 },
    },
  },
  volume: int(0, 100),
};

const isObj = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

/** "02 52 03" as its bytes. */
export const patternBytes = (hex: string): Buffer => Buffer.from(hex.replace(/\s+/g, ''), 'hex');

export function readoutOf(raw: unknown): ReadoutConfig | undefined {
  if (!isObj(raw)) return undefined;
  const inputs: ReadoutInput[] = [];
  for (const i of Array.isArray(raw.inputs) ? raw.inputs : []) {
    if (!isObj(i)) continue;
    if (i.type === 'gpio') {
      inputs.push({
        type: 'gpio',
        chip: String(i.chip),
        line: parseIntLike(i.line) ?? 0,
        edge: i.edge === 'rising' ? 'rising' : READOUT_DEFAULTS.edge,
        debounceMs: parseIntLike(i.debounceMs) ?? READOUT_DEFAULTS.debounceMs,
      });
    } else if (i.type === 'serial') {
      inputs.push({
        type: 'serial',
        port: String(i.port),
        baudRate: parseIntLike(i.baudRate) ?? READOUT_DEFAULTS.baudRate,
        pattern: patternBytes(String(i.pattern)),
      });
    }
  }
  return { inputs };
}

/** `showSpoken` checked against the display's layouts: an area that cannot show text is refused. */
export function showSpokenOf(
  raw: unknown,
  layouts: ReadonlyMap<string, { areas: ReadonlyArray<{ id: string; type: AreaType }> }>,
  at: string,
  fault: Fault,
): ShowSpokenConfig | undefined {
  if (!isObj(raw) || typeof raw.layout !== 'string' || typeof raw.area !== 'string') return undefined;
  const layout = layouts.get(raw.layout);
  if (!layout) {
    fault(`${at}/layout`, `no layout "${raw.layout}" in this display's "layout"`);
    return undefined;
  }
  const area = layout.areas.find((a) => a.id === raw.area);
  if (!area) {
    fault(`${at}/area`, `no area "${raw.area}" in layout "${raw.layout}"`);
    return undefined;
  }
  if (kindOf(area.type).spoken !== 'text') {
    fault(`${at}/area`, `"${raw.area}" is a ${area.type} area: what is spoken is shown on a text area`);
    return undefined;
  }
  return { layout: raw.layout, area: raw.area };
}
