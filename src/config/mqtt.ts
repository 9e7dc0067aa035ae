// The `mqtt` section (fleet control through a broker, docs/fleet.md): its schema fragment and
// its normalization, so schema.ts, normalize.ts and types.ts each carry one line for it.
// The password and the client key are credentials: they live in this object only, never in
// /status, /info or a log line (src/fleet masks the URL it logs).
import { createHash, X509Certificate } from 'node:crypto';
import { hostname } from 'node:os';
import { readPem, readTlsPair, tlsPath } from './tls.js';
import { parseBoolLike, parseIntLike } from './scalars.js';
import type { MqttSettings } from './types.js';

type Raw = Record<string, unknown>;
type Fault = (path: string, message: string) => void;

/** A topic level: no MQTT wildcard, no separator, no NUL (MQTT 3.1.1 §4.7). */
const LEVEL = '^[^/+#\\u0000]{1,64}$';
const level = { type: 'string', pattern: LEVEL } as const;
export const MQTT_DEFAULTS = {
  prefix: 'mlds',
  keepalive: 30,
  homeAssistant: false,
  groupAdmin: false,
  statusIntervalSeconds: 300,
  sessionExpiry: 86400,
} as const;

export const mqttSchema = {
  mqtt: {
    type: 'object',
    additionalProperties: false,
    required: ['url'],
    properties: {
      url: { type: 'string', maxLength: 2048, pattern: '^mqtts?://[^/?#@]+(:\\d{1,5})?/?$' },
      username: { type: 'string', minLength: 1, maxLength: 255 },
      password: { type: 'string', maxLength: 1024 },
      cert: { type: 'string', minLength: 1, maxLength: 255 },
      key: { type: 'string', minLength: 1, maxLength: 255 },
      ca: { type: 'string', minLength: 1, maxLength: 255 },
      unit: level,
      prefix: level,
      groups: { type: 'array', maxItems: 32, uniqueItems: true, items: level },
      keepalive: { xInt: [1, 3600] },
      homeAssistant: { xBool: true },
      groupAdmin: { xBool: true },
      statusIntervalSeconds: { xInt: [10, 86400] },
      // MQTT 5's Session Expiry Interval is four bytes: 4294967295 is a session that never expires.
      sessionExpiry: { xInt: [0, 4294967295] },
    },
  },
};

const isObj = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** The hostname as a topic level: characters MQTT gives meaning to become `_`. */
export function defaultUnit(): string {
  return (
    hostname()
      // eslint-disable-next-line no-control-regex
      .replace(/[/+#\u0000]/g, '_')
      .slice(0, 64) || 'mlds'
  );
}

export function mqttOf(raw: unknown, serviceDir: string, fault: Fault): MqttSettings | undefined {
  if (!isObj(raw) || typeof raw.url !== 'string') return undefined;
  const files: Record<'cert' | 'key' | 'ca', string | undefined> = { cert: undefined, key: undefined, ca: undefined };
  const hash = createHash('sha256');
  const cert = str(raw.cert),
    key = str(raw.key),
    ca = str(raw.ca);
  if (cert !== undefined && key !== undefined) {
    // Checked as HTTPS checks its pair: a key of another certificate would otherwise fail only
    // inside the TLS handshake's setup, where MQTT.js throws it away and the unit waits forever.
    const read = readTlsPair(tlsPath(serviceDir, cert), tlsPath(serviceDir, key));
    if ('faults' in read) for (const f of read.faults) fault(`/mqtt/${f.field}`, f.message);
    else {
      files.cert = tlsPath(serviceDir, cert);
      files.key = tlsPath(serviceDir, key);
      hash.update('pair').update(read.pair.fingerprint);
    }
  }
  if (ca !== undefined) {
    const file = tlsPath(serviceDir, ca);
    const pem = readPem(file, 'the CA certificate');
    if (typeof pem === 'string') fault('/mqtt/ca', pem);
    else if (!isCertificate(pem)) fault('/mqtt/ca', `${file} holds no PEM certificate`);
    else {
      files.ca = file;
      hash.update('ca').update(pem);
    }
  }
  if ((cert === undefined) !== (key === undefined))
    fault(cert === undefined ? '/mqtt/cert' : '/mqtt/key', 'a client certificate needs both `cert` and `key`');
  if ((files.cert || files.key || files.ca) && !raw.url.startsWith('mqtts://'))
    fault('/mqtt/url', 'certificates need an mqtts:// URL (TLS)');
  if (raw.password !== undefined && raw.username === undefined)
    fault('/mqtt/password', 'a password needs a `username`');
  return {
    url: raw.url,
    username: str(raw.username),
    password: str(raw.password),
    ...files,
    unit: str(raw.unit) ?? defaultUnit(),
    prefix: str(raw.prefix) ?? MQTT_DEFAULTS.prefix,
    groups: Array.isArray(raw.groups) ? raw.groups.filter((g): g is string => typeof g === 'string') : [],
    keepalive: parseIntLike(raw.keepalive) ?? MQTT_DEFAULTS.keepalive,
    homeAssistant: parseBoolLike(raw.homeAssistant) ?? MQTT_DEFAULTS.homeAssistant,
    groupAdmin: parseBoolLike(raw.groupAdmin) ?? MQTT_DEFAULTS.groupAdmin,
    statusIntervalSeconds: parseIntLike(raw.statusIntervalSeconds) ?? MQTT_DEFAULTS.statusIntervalSeconds,
    sessionExpiry: parseIntLike(raw.sessionExpiry) ?? MQTT_DEFAULTS.sessionExpiry,
    // A renewed certificate is a change a reload applies (the connection is made again).
    fingerprint: hash.digest('base64'),
  };
}

function isCertificate(pem: Buffer): boolean {
  try {
    new X509Certificate(pem);
    return true;
  } catch {
    return false;
  }
}
