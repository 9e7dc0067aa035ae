import type { ValidateFunction } from 'ajv';
import { fieldSchema } from './field-settings.js';
import { mqttSchema } from './mqtt.js';
import { alertsSchema } from './alerts.js';
import { speechSchema } from './speech.js';
import { passengerSchema } from './readout.js';
import { fetchSchema } from './fetch-settings.js';
import { areaSchema } from './area-types/area-fields.js';
import { bool, int, ipv4, names, num, str255, url } from './schema-parts.js';
import { validate } from './validator.generated.js';

const area = areaSchema();

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
    {
      properties: { driver: { const: 'fbdev' }, device: { type: 'string', pattern: '^/dev/' } },
      required: ['device'],
      additionalProperties: false,
    },
    {
      properties: {
        driver: { const: 'colorlight' },
        interface: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,15}$' },
      },
      required: ['interface'],
      additionalProperties: false,
    },
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
    pitchMm: num(0.1, 100),
    viewingDistanceM: num(0.1, 1000),
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
    ...passengerSchema,
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
        type: 'object',
        additionalProperties: false,
        required: ['type', 'cron'],
        properties: {
          type: { enum: ['sendInfo', 'data', 'loadLastRequest', 'url'] },
          value: { type: 'string', maxLength: 4096 },
          cron: { type: 'string' },
          format: { enum: ['html', 'json'] },
        },
      },
    },
    pollers: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['url', 'interval'],
        properties: {
          url,
          interval: int(1, 86400),
          keep: bool,
          priority: int(0, 9),
          expires: int(1, 86400),
          mapper: {
            type: 'object',
            additionalProperties: false,
            required: ['id', 'layout', 'areas'],
            properties: {
              id: { type: 'string', minLength: 1, maxLength: 255 },
              layout: { type: 'string', minLength: 1, maxLength: 255 },
              areas: names({ additionalProperties: { type: 'string', maxLength: 1024 } }),
            },
          },
        },
      },
    },
    displays: names({ minProperties: 1, additionalProperties: display }),
    latitude: num(-90, 90),
    longitude: num(-180, 180),
    timezone: { type: 'string', minLength: 1 },
    logRetentionDays: int(1, 3650),
    logMaxMB: int(1, 1_000_000),
    unknownAreaKeys: { enum: ['reject', 'ignore'] },
    https: {
      type: 'object',
      additionalProperties: false,
      required: ['cert', 'key'],
      properties: { cert: str255, key: str255, port: int(1025, 65535) },
    },
    security: {
      type: 'object',
      additionalProperties: false,
      properties: { apiKey: { type: 'string', minLength: 8 }, adminKey: { type: 'string', minLength: 8 } },
    },
    rateLimit: int(1, 100_000),
    effectDurationMs: int(0, 10_000),
    fps: int(1, 100),
    urlPortRange: { type: 'array', minItems: 2, maxItems: 2, items: int(1, 65535) },
    audioDevice: { type: 'string', minLength: 1, maxLength: 255 },
    webRefreshSeconds: int(1, 86400),
    maxClockSkew: int(1, 86400),
    ...fieldSchema,
    ...mqttSchema,
    feeds: names({
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['type', 'url'],
        properties: {
          type: { enum: ['gtfs-rt', 'siri'] },
          url,
          static: { type: 'string', minLength: 1, maxLength: 2048 },
          interval: int(5, 86400),
          maxClockSkew: int(1, 86400),
          timezone: { type: 'string', minLength: 1, maxLength: 64 },
          alertsUrl: url,
          vehiclePositionsUrl: url,
          method: { enum: ['get', 'post'] },
          requestorRef: { type: 'string', minLength: 1, maxLength: 255 },
          headers: {
            type: 'object',
            maxProperties: 16,
            propertyNames: { pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$" },
            additionalProperties: { type: 'string', maxLength: 1024, pattern: '^[^\\r\\n]*$' },
          },
        },
      },
    }),
    feedMaxMB: int(1, 1024),
    staticMaxMB: int(1, 65536),
    ...alertsSchema,
    ...speechSchema,
    ...fetchSchema,
    updateMaxMB: int(1, 4096),
    sensors: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['protocol', 'displays'],
        properties: { ...sensorProps, displays: { type: 'array', minItems: 1, items: { type: 'string' } } },
      },
    },
  },
};

/** The configuration validator, generated from configSchema at build time (validator-source.ts). */
export function schemaValidator(): ValidateFunction {
  return validate as unknown as ValidateFunction;
}
