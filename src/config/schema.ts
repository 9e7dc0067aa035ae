import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type * as AjvModule from 'ajv';
import { requireCjs } from '../util/require-cjs.js';
import { parseBoolLike, parseColorParts, parseIntLike, parseNumLike } from './scalars.js';
import { fieldSchema } from './field-settings.js';
import { mqttSchema } from './mqtt.js';

// CommonJS, loaded with require() when a validator is made (see util/require-cjs.ts).
const loadAjv = () => (requireCjs('ajv') as typeof AjvModule).Ajv;
const addFormats = (ajv: Ajv): Ajv => (requireCjs('ajv-formats') as { default: (a: Ajv) => Ajv }).default(ajv);

const str255 = { type: 'string', maxLength: 255 } as const;
const int = (min: number, max: number) => ({ xInt: [min, max] });
const num = (min: number, max: number) => ({ xNum: [min, max] });
const bool = { xBool: true } as const;
const url = { type: 'string', maxLength: 2048, format: 'uri', pattern: '^https?://' } as const;
const ipv4 = { type: 'string', format: 'ipv4' } as const;
const rgb = { xColor: false } as const;
const rgba = { xColor: true } as const;
const names = (extra: object) => ({ type: 'object', propertyNames: { maxLength: 255, minLength: 1 }, ...extra });

const area = {
  type: 'object',
  additionalProperties: false,
  required: ['coordinates', 'type'],
  properties: {
    coordinates: { type: 'string', pattern: '^\\s*\\d+\\s+\\d+\\s+\\d+\\s+\\d+\\s*$' },
    type: { enum: ['static', 'text', 'dynamic', 'image', 'video', 'date', 'audio', 'web'] },
    ttl: int(0, 31_536_000),
    defaultValue: str255,
    params: names({ additionalProperties: { type: 'string', maxLength: 2048 } }),
    align: { enum: ['center', 'right', 'left'] },
    font: str255,
    fontSize: int(1, 4000),
    fontColor: rgb,
    backgroundColor: rgba,
    textFromStart: bool,
    textLiveUpdate: bool,
    headToTail: int(0, 1000),
    scrollSpeed: int(0, 8),
    dispEffect: int(1, 15),
    clearEffect: int(1, 15),
    dateOffset: num(-14, 14),
    dateFormat: { type: 'string', maxLength: 255 },
    xy: { type: 'string', pattern: '^\\s*\\d+\\s+\\d+\\s*$' },
    antialias: { enum: ['default', 'none'] },
    wrap: bool,
    lineSpacing: int(0, 1000),
    valign: { enum: ['top', 'middle', 'bottom'] },
    overflow: { enum: ['scroll', 'pages', 'scroll-up'] },
    pageSeconds: num(0.1, 86400),
    fit: { enum: ['none', 'shrink'] },
    minFontSize: int(1, 4000),
    fonts: { type: 'array', maxItems: 16, items: str255 },
    graphics: { type: 'array', maxItems: 64, items: str255 },
    markup: { enum: ['none', 'multi'] },
    scrollDirection: { enum: ['left', 'right', 'up'] },
  },
};

const sensorProps = {
  path: { type: 'string', pattern: '^/dev/' },
  baudRate: int(300, 4_000_000),
  protocol: { enum: ['ascii', 'modbus-rtu', 'modbus-tcp'] },
  unitId: int(0, 255),
  register: int(0, 65535),
  pollMs: int(100, 3_600_000),
  host: { type: 'string', minLength: 1, maxLength: 255 },
  port: int(1, 65535),
  curve: { type: 'array', minItems: 2, items: { type: 'array', minItems: 2, maxItems: 2, items: num(0, 1_000_000) } },
};

const output = {
  type: 'object',
  required: ['driver'],
  properties: { driver: { enum: ['virtual', 'fbdev', 'colorlight', 'ddp'] } },
  discriminator: { propertyName: 'driver' },
  oneOf: [
    { properties: { driver: { const: 'virtual' } }, additionalProperties: false },
    { properties: { driver: { const: 'fbdev' }, device: { type: 'string', pattern: '^/dev/' } }, required: ['device'], additionalProperties: false },
    { properties: { driver: { const: 'colorlight' }, interface: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,15}$' } }, required: ['interface'], additionalProperties: false },
    { properties: { driver: { const: 'ddp' } }, additionalProperties: false },
  ],
};

const display = {
  type: 'object',
  additionalProperties: false,
  required: ['displayWidth', 'displayHeight', 'layout'],
  properties: {
    displayName: str255,
    displayIp: ipv4,
    displayPort: int(1, 65535),
    controllerType: str255,
    confirmIp: ipv4,
    confirmPort: int(1025, 65535),
    displayHeight: int(1, 16384),
    displayWidth: int(1, 16384),
    infoScreenTtl: int(0, 86400),
    sensorBrightness: bool,
    brightnessUrl: url,
    startScreen: {
      type: 'object',
      additionalProperties: false,
      properties: { completeUrls: url, loadLastRequest: bool, image: str255, imageTtl: int(0, 86400) },
    },
    layout: names({ minProperties: 1, additionalProperties: names({ additionalProperties: area }) }),
    output,
    sensor: { type: 'object', additionalProperties: false, required: ['protocol'], properties: sensorProps },
  },
};

export const configSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['displays'],
  properties: {
    port: int(1025, 65535),
    crons: {
      type: 'array',
      items: {
        type: 'object', additionalProperties: false, required: ['type', 'cron'],
        properties: {
          type: { enum: ['sendInfo', 'data', 'loadLastRequest', 'url'] }, value: { type: 'string', maxLength: 4096 }, cron: { type: 'string' },
          format: { enum: ['html', 'json'] },
        },
      },
    },
    pollers: {
      type: 'array',
      items: {
        type: 'object', additionalProperties: false, required: ['url', 'interval'],
        properties: {
          url, interval: int(1, 86400),
          keep: bool, priority: int(0, 9), expires: int(1, 86400),
          mapper: {
            type: 'object', additionalProperties: false, required: ['id', 'layout', 'areas'],
            properties: { id: { type: 'string', minLength: 1, maxLength: 255 }, layout: { type: 'string', minLength: 1, maxLength: 255 }, areas: names({ additionalProperties: { type: 'string', maxLength: 1024 } }) },
          },
        },
      },
    },
    displays: names({ minProperties: 1, additionalProperties: display }),
    latitude: num(-90, 90),
    longitude: num(-180, 180),
    timezone: { type: 'string', minLength: 1 },
    logRetentionDays: int(1, 3650),
    unknownAreaKeys: { enum: ['reject', 'ignore'] },
    https: { type: 'object', additionalProperties: false, required: ['cert', 'key'], properties: { cert: str255, key: str255, port: int(1025, 65535) } },
    security: { type: 'object', additionalProperties: false, properties: { apiKey: { type: 'string', minLength: 8 }, adminKey: { type: 'string', minLength: 8 } } },
    rateLimit: int(1, 100_000),
    effectDurationMs: int(0, 10_000),
    fps: int(1, 100),
    urlPortRange: { type: 'array', minItems: 2, maxItems: 2, items: int(1, 65535) },
    audioDevice: { type: 'string', minLength: 1, maxLength: 255 },
    webRefreshSeconds: int(1, 86400),
    ...fieldSchema,
    ...mqttSchema,
    sensors: {
      type: 'array',
      items: {
        type: 'object', additionalProperties: false, required: ['protocol', 'displays'],
        properties: { ...sensorProps, displays: { type: 'array', minItems: 1, items: { type: 'string' } } },
      },
    },
  },
};

function makeAjv(): Ajv {
  // validateSchema off: checking our own schema against the draft-07 meta-schema compiled that
  // meta-schema at every start (a quarter of this module's 160 ms, 4 MB RSS); a test does it once.
  // code.optimize off: its passes over the generated code took about a fifth of the compile
  // (about 20 of 110 ms), and the validator runs once per load.
  const ajv = new (loadAjv())({ allErrors: true, strict: true, discriminator: true, allowUnionTypes: true, validateSchema: false, code: { optimize: false } });
  addFormats(ajv);
  const range = (kw: string, parse: (v: unknown) => number | undefined, what: string) =>
    ajv.addKeyword({
      keyword: kw,
      schemaType: 'array',
      errors: true,
      validate: function check(schema: [number, number], data: unknown) {
        const v = parse(data);
        const [min, max] = schema;
        const message = v === undefined ? `must be ${what} (a JSON number or a string such as "${min}")` : v < min || v > max ? `must be between ${min} and ${max}` : undefined;
        if (message) (check as unknown as { errors: Partial<ErrorObject>[] }).errors = [{ keyword: kw, message, params: {} }];
        return message === undefined;
      },
    });
  range('xInt', parseIntLike, 'an integer');
  range('xNum', parseNumLike, 'a number');
  ajv.addKeyword({
    keyword: 'xBool',
    schemaType: 'boolean',
    errors: true,
    validate: function check(_s: boolean, data: unknown) {
      const ok = parseBoolLike(data) !== undefined;
      if (!ok) (check as unknown as { errors: Partial<ErrorObject>[] }).errors = [{ keyword: 'xBool', message: 'must be true or false (or "true"/"false")', params: {} }];
      return ok;
    },
  });
  ajv.addKeyword({
    keyword: 'xColor',
    schemaType: 'boolean',
    errors: true,
    validate: function check(withAlpha: boolean, data: unknown) {
      const parts = parseColorParts(data);
      let message: string | undefined;
      const shape = withAlpha ? 'three values R G B 0..255 and an optional alpha 0..127' : 'three values R G B, each 0..255';
      if (!parts || parts.length < 3 || parts.length > (withAlpha ? 4 : 3)) message = `must be ${shape}, separated by spaces`;
      else if (parts.slice(0, 3).some((p) => p > 255)) message = 'colour values must be between 0 and 255';
      else if (parts.length === 4 && parts[3] > 127) message = 'alpha must be between 0 (opaque) and 127 (transparent)';
      if (message) (check as unknown as { errors: Partial<ErrorObject>[] }).errors = [{ keyword: 'xColor', message, params: {} }];
      return message === undefined;
    },
  });
  return ajv;
}

/** How long a compiled validator is kept after its last use: a burst of loads compiles once. */
export const VALIDATOR_KEEP_MS = 2000;
let compiled: ValidateFunction | undefined;
let release: ReturnType<typeof setTimeout> | undefined;

/**
 * The configuration validator, compiled on first use and let go VALIDATOR_KEEP_MS after the
 * last one: a running service holds no compiled schema between loads (about 2 MB of heap;
 * a reload compiles it again, about 50 ms).
 */
export function schemaValidator(): ValidateFunction {
  compiled ??= makeAjv().compile(configSchema);
  if (release) clearTimeout(release);
  release = setTimeout(() => { compiled = undefined; release = undefined; }, VALIDATOR_KEEP_MS);
  release.unref();
  return compiled;
}

/** Whether a compiled validator is held now (tests). */
export function validatorHeld(): boolean {
  return compiled !== undefined;
}
