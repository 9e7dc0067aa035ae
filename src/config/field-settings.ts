// Top-level settings of the field capabilities: HTTPS, HTTP limits, the network endpoints and
// mDNS. Their schema fragments and their normalization live here so schema.ts and
// normalize.ts each carry one line for all of them. Meanings and defaults: docs/security.md.
import { DEFAULTS } from './defaults.js';
import { pointer } from './faults.js';
import { parseBoolLike, parseIntLike } from './scalars.js';
import { readTlsPair, tlsPath } from './tls.js';
import { MAX_PICTURE_MEGAPIXELS, defaultPictureMegapixels } from '../media/picture-limits.js';
import type { HttpLimits, MdnsSettings, NetworkSettings, PictureLimits, ServiceConfig } from './types.js';

type Raw = Record<string, unknown>;
type Fault = (path: string, message: string) => void;

const int = (min: number, max: number) => ({ xInt: [min, max] });
const iface = { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,15}$' } as const;

/** Every HTTP limit with its default; docs/security.md explains each. */
export const DEFAULT_LIMITS: HttpLimits = {
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 60_000,
  maxUrlBytes: 12_288,
  maxHeaderBytes: 16_384,
  maxConnections: 1_024,
  maxConnectionsPerClient: 256,
  maxUnfinishedPerNetwork: 256,
  maxStreams: 16,
};

const LIMIT_RANGES: Record<keyof HttpLimits, [number, number]> = {
  headersTimeoutMs: [1_000, 600_000],
  requestTimeoutMs: [1_000, 3_600_000],
  keepAliveTimeoutMs: [100, 600_000],
  idleTimeoutMs: [1_000, 3_600_000],
  maxUrlBytes: [256, 1_048_576],
  maxHeaderBytes: [1_024, 1_048_576],
  maxConnections: [1, 100_000],
  maxConnectionsPerClient: [1, 100_000],
  maxUnfinishedPerNetwork: [1, 100_000],
  maxStreams: [1, 99_999],
};

export const DEFAULT_NETWORKD_DIR = '/etc/systemd/network';
export const DEFAULT_ROLLBACK_SECONDS = 60;
const DEFAULT_HTTPS_PORT = 9443;

/** Spread into the top-level `properties` of the configuration schema. */
export const fieldSchema = {
  limits: {
    type: 'object',
    additionalProperties: false,
    properties: {
      ...Object.fromEntries(Object.entries(LIMIT_RANGES).map(([k, [min, max]]) => [k, int(min, max)])),
      maxPictureMegapixels: int(1, MAX_PICTURE_MEGAPIXELS),
    },
  },
  network: {
    type: 'object',
    additionalProperties: false,
    properties: {
      interface: iface,
      networkdDir: { type: 'string', minLength: 1, maxLength: 255, pattern: '^/' },
      rollbackSeconds: int(1, 3600),
    },
  },
  // `false` (or "false") turns the announcement off; `true` or an object turns it on.
  mdns: {
    if: { type: 'object' },
    then: {
      type: 'object',
      additionalProperties: false,
      properties: {
        enabled: { xBool: true },
        name: { type: 'string', minLength: 1, maxLength: 63 },
        interface: iface,
      },
    },
    else: { xBool: true },
  },
};

const isObj = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

export function fieldSettings(
  raw: Raw,
  serviceDir: string,
  fault: Fault,
): Pick<ServiceConfig, 'https' | 'limits' | 'network' | 'mdns'> {
  samePort(raw, fault);
  return {
    https: httpsOf(raw.https, serviceDir, fault),
    limits: limitsOf(raw.limits, fault),
    network: networkOf(raw.network),
    mdns: mdnsOf(raw.mdns, process.env),
  };
}

/** limits.maxPictureMegapixels, or the default for this unit's memory (media/picture-limits.ts). */
export function pictureMegapixelsOf(raw: unknown): number {
  return (isObj(raw) ? parseIntLike(raw.maxPictureMegapixels) : undefined) ?? defaultPictureMegapixels();
}

function limitsOf(raw: unknown, fault: Fault): HttpLimits & PictureLimits {
  const limits = { ...DEFAULT_LIMITS, maxPictureMegapixels: pictureMegapixelsOf(raw) };
  if (!isObj(raw)) return limits;
  for (const k of Object.keys(DEFAULT_LIMITS) as Array<keyof HttpLimits>) limits[k] = parseIntLike(raw[k]) ?? limits[k];
  // Node refuses a server whose headers may take longer than the whole request.
  if (limits.headersTimeoutMs > limits.requestTimeoutMs)
    fault('/limits/headersTimeoutMs', `must not be longer than requestTimeoutMs (${limits.requestTimeoutMs})`);
  if (limits.maxUrlBytes > limits.maxHeaderBytes)
    fault(
      '/limits/maxUrlBytes',
      `must not be larger than maxHeaderBytes (${limits.maxHeaderBytes}): the request line counts towards the headers`,
    );
  // Live views never take every connection: control messages always find room. Unset, the
  // default shrinks to half of a small maxConnections.
  if (parseIntLike(raw.maxStreams) === undefined)
    limits.maxStreams = Math.min(DEFAULT_LIMITS.maxStreams, Math.floor(limits.maxConnections / 2));
  else if (limits.maxStreams >= limits.maxConnections)
    fault(
      '/limits/maxStreams',
      `must be smaller than maxConnections (${limits.maxConnections}): live views must leave room for control messages`,
    );
  return limits;
}

function networkOf(raw: unknown): NetworkSettings {
  const r = isObj(raw) ? raw : {};
  return {
    interface: typeof r.interface === 'string' ? r.interface : undefined,
    networkdDir: typeof r.networkdDir === 'string' ? r.networkdDir : DEFAULT_NETWORKD_DIR,
    rollbackSeconds: parseIntLike(r.rollbackSeconds) ?? DEFAULT_ROLLBACK_SECONDS,
  };
}

/**
 * Announced unless `mdns` is false or `{ "enabled": false }`: a technician finds a new unit
 * before anyone has configured it. MLDS_MDNS=off in the environment changes only the default
 * (no `mdns` written), so a test or a lab can keep a machine quiet without editing every file.
 */
export function mdnsOf(raw: unknown, env: NodeJS.ProcessEnv): MdnsSettings | undefined {
  if (raw === undefined) return env.MLDS_MDNS === 'off' ? undefined : {};
  if (!isObj(raw)) return parseBoolLike(raw) === false ? undefined : {};
  if (parseBoolLike(raw.enabled) === false) return undefined;
  return {
    name: typeof raw.name === 'string' ? raw.name : undefined,
    interface: typeof raw.interface === 'string' ? raw.interface : undefined,
  };
}

function httpsOf(raw: unknown, serviceDir: string, fault: Fault): ServiceConfig['https'] {
  if (!isObj(raw) || typeof raw.cert !== 'string' || typeof raw.key !== 'string') return undefined;
  const cert = tlsPath(serviceDir, raw.cert);
  const key = tlsPath(serviceDir, raw.key);
  const read = readTlsPair(cert, key);
  if ('faults' in read) {
    for (const f of read.faults) fault(pointer('https', f.field), f.message);
    return undefined;
  }
  return { cert, key, port: parseIntLike(raw.port) ?? DEFAULT_HTTPS_PORT, fingerprint: read.pair.fingerprint };
}

/** Two servers cannot listen on one port: said at load, not found out as a failed start. */
function samePort(raw: Raw, fault: Fault): void {
  if (!isObj(raw.https)) return;
  const https = parseIntLike(raw.https.port) ?? DEFAULT_HTTPS_PORT;
  if (https === (parseIntLike(raw.port) ?? DEFAULTS.port))
    fault('/https/port', `must differ from port (${https}): HTTP and HTTPS each need a port of their own`);
}
