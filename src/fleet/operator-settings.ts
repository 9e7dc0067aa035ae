// The broker settings of `mlds fleet`, taken as the unit takes them: the `mqtt` section of a
// configuration file (--config), with --url, --ca, --cert, --key, --username and --prefix over
// it, checked by the unit's own normalization (config/mqtt.ts). The password is never an
// argument (a command line is seen by every user of the machine): it comes from the file's
// `mqtt.password`, the environment variable MLDS_MQTT_PASSWORD, or --password-file.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { mqttOf } from '../config/mqtt.js';
import type { MqttSettings } from '../config/types.js';

export interface LinkFlags {
  config?: string;
  url?: string;
  ca?: string;
  cert?: string;
  key?: string;
  username?: string;
  passwordFile?: string;
  prefix?: string;
}

export type OperatorSettings = { ok: true; settings: MqttSettings } | { ok: false; faults: string[] };

/** The `mqtt` section of a configuration file, or why it cannot be had. */
function section(file: string): Record<string, unknown> | string {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    return `--config ${file}: ${(err as Error).message}`;
  }
  const mqtt = (raw as { mqtt?: unknown } | null)?.mqtt;
  if (typeof mqtt !== 'object' || mqtt === null || Array.isArray(mqtt)) return `--config ${file} has no "mqtt" section`;
  return mqtt as Record<string, unknown>;
}

export function operatorSettings(f: LinkFlags, env: NodeJS.ProcessEnv = process.env): OperatorSettings {
  const faults: string[] = [];
  let raw: Record<string, unknown> = {};
  // Relative file names are the file's folder's in the configuration (as the unit reads them), the
  // working folder's on the command line.
  let dir = process.cwd();
  if (f.config !== undefined) {
    const s = section(f.config);
    if (typeof s === 'string') return { ok: false, faults: [s] };
    raw = s;
    dir = path.dirname(path.resolve(f.config));
  }
  const abs = (file: string | undefined) => (file === undefined ? undefined : path.resolve(file));
  const flags: Record<string, unknown> = {
    url: f.url,
    ca: abs(f.ca),
    cert: abs(f.cert),
    key: abs(f.key),
    username: f.username,
    prefix: f.prefix,
  };
  for (const [k, v] of Object.entries(flags)) if (v !== undefined) raw[k] = v;
  if (f.passwordFile !== undefined) {
    try {
      // One line: the trailing newline an editor leaves is not part of the password.
      raw.password = readFileSync(f.passwordFile, 'utf8').replace(/\r?\n$/, '');
    } catch (err) {
      faults.push(`--password-file: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  } else if (env.MLDS_MQTT_PASSWORD !== undefined) raw.password = env.MLDS_MQTT_PASSWORD;
  if (typeof raw.url !== 'string') faults.push('no broker: give --url mqtt://HOST:PORT, or --config FILE with "mqtt"');
  else if (!/^mqtts?:\/\/[^/?#@]+(:\d{1,5})?\/?$/.test(raw.url)) {
    faults.push(`--url must be mqtt://HOST[:PORT] or mqtts://HOST[:PORT] (no user name or path in it)`);
  }
  // eslint-disable-next-line no-control-regex
  if (raw.prefix !== undefined && (typeof raw.prefix !== 'string' || !/^[^/+#\u0000]{1,64}$/.test(raw.prefix))) {
    faults.push('--prefix must be one topic level (1 to 64 characters, no / + #)');
  }
  if (faults.length) return { ok: false, faults };
  const settings = mqttOf(raw, dir, (where, message) => faults.push(`${where.replace(/^\/mqtt\//, '')}: ${message}`));
  if (!settings || faults.length) return { ok: false, faults };
  return { ok: true, settings };
}
