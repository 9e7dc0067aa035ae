// The operator's connection for `mlds fleet`: MQTT 5 with the unit's login and TLS (login.ts),
// a clean session of its own client id, no Last Will and no reconnects (a command that loses
// its broker says so and ends). It watches the fleet's retained topics (fleet-view.ts) and
// publishes desired documents retained at QoS 1, waiting for the broker's acknowledgement.
import { randomBytes } from 'node:crypto';
import type { MqttClient } from 'mqtt';
import type { MqttSettings } from '../config/types.js';
import { requireCjs } from '../util/require-cjs.js';
import { FleetView } from './fleet-view.js';
import { CONNACK_REASONS, isTlsFailure } from './link-errors.js';
import { loginOptions } from './login.js';

/** After the subscription, retained messages are taken until none came for QUIET_MS, for at most CAP_MS. */
export const QUIET_MS = 400;
export const CAP_MS = 5000;
const CONNECT_MS = 10_000;
const PUBACK_MS = 10_000;
const MAX_PACKET = 256 * 1024;

/** Why the connection failed, in an operator's words: never the password, which no error carries. */
function why(err: Error & { code?: unknown; reason?: unknown }): string {
  const refused = typeof err.code === 'number' ? CONNACK_REASONS[err.code] : undefined;
  if (refused) return `the broker refused the login: ${refused}`;
  if (isTlsFailure(err)) return `TLS failed: ${typeof err.reason === 'string' ? err.reason : err.message}`;
  return err.message;
}

export class OperatorLink {
  readonly view: FleetView;
  private lost: string | undefined;

  private constructor(
    private readonly client: MqttClient,
    readonly prefix: string,
  ) {
    this.view = new FleetView(prefix);
    client.on('message', (topic, payload) => this.view.take(topic, payload));
    client.on('close', () => {
      this.lost ??= 'the connection to the broker was lost';
    });
    client.on('error', (err) => {
      this.lost = why(err);
    });
  }

  static async open(s: MqttSettings): Promise<OperatorLink> {
    const { connect } = requireCjs('mqtt') as typeof import('mqtt');
    const client = connect(s.url, {
      clientId: `mlds-fleet-${randomBytes(6).toString('hex')}`,
      protocolVersion: 5,
      clean: true,
      reconnectPeriod: 0,
      connectTimeout: CONNECT_MS,
      keepalive: 30,
      // MQTT 5: the broker sends nothing larger (a unit's status is under 2 KB, a report a few).
      properties: { maximumPacketSize: MAX_PACKET },
      ...loginOptions(s),
    });
    await new Promise<void>((resolve, reject) => {
      const fail = (err: Error) => {
        client.end(true);
        reject(new Error(`cannot connect to ${s.url}: ${why(err)}`));
      };
      client.once('connect', () => {
        client.off('error', fail);
        client.off('close', closed);
        resolve();
      });
      const closed = () => fail(new Error('the connection closed before the broker answered'));
      client.once('error', fail);
      client.once('close', closed);
    });
    return new OperatorLink(client, s.prefix);
  }

  /** Why the connection ended, once it has. */
  lostWhy(): string | undefined {
    return this.client.connected ? undefined : (this.lost ?? 'the connection to the broker was lost');
  }

  /** Subscribes to the fleet's retained topics and takes what the broker holds (see QUIET_MS, CAP_MS). */
  async watch(): Promise<void> {
    await this.client.subscribeAsync(this.view.topics(), { qos: 1 });
    const start = performance.now();
    this.view.lastAt = start;
    while (performance.now() - start < CAP_MS && performance.now() - this.view.lastAt < QUIET_MS) {
      await new Promise((r) => setTimeout(r, 50));
      const lost = this.lostWhy();
      if (lost) throw new Error(lost);
    }
  }

  /** Publishes `doc` retained at QoS 1; resolves once the broker acknowledged it. */
  async publishRetained(topic: string, doc: string): Promise<void> {
    const acked = this.client.publishAsync(topic, doc, { qos: 1, retain: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the broker did not acknowledge ${topic} within 10 s`)), PUBACK_MS);
    });
    try {
      await Promise.race([acked, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.client.endAsync(false).catch(() => {});
  }
}
