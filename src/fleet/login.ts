// How a client proves itself to the broker and checks the broker: the one place for the unit's
// connection (broker-link.ts) and the operator's (`mlds fleet`, operator-link.ts), so both take
// the same `mqtt` settings the same way.
import { readFileSync } from 'node:fs';
import type { IClientOptions } from 'mqtt';
import type { MqttSettings } from '../config/types.js';

export type LoginSettings = Pick<MqttSettings, 'username' | 'password' | 'ca' | 'cert' | 'key'>;

/** The login and TLS part of MQTT.js's options: the PEM files read now. */
export function loginOptions(s: LoginSettings): IClientOptions {
  return {
    username: s.username,
    password: s.password,
    // Verified always: a broker that cannot prove its name gets no credentials.
    rejectUnauthorized: true,
    ...(s.ca ? { ca: readFileSync(s.ca) } : {}),
    ...(s.cert && s.key ? { cert: readFileSync(s.cert), key: readFileSync(s.key) } : {}),
  };
}
