// The connection to the broker (MQTT.js 5 speaking MQTT 5): connect, Last Will, reconnects
// with our own backoff, the connection facts for /status, and a bounded queue for what must
// wait while offline. MQTT.js's own reconnect (every second, forever, refused logins too) is
// off: reconnectPeriod 0, and this class decides when to try again.
import { requireCjs } from '../util/require-cjs.js';
import type { IClientOptions, IPublishPacket, MqttClient } from 'mqtt';
import type { MqttSettings } from '../config/types.js';
import type { Logger } from '../log/logger.js';
import { backoffMs, STABLE_MS } from './backoff.js';
import type { Topics } from './topics.js';
import { Outbox } from './outbox.js';
import { CONNACK_REASONS, isTlsFailure, TAKEN_OVER } from './link-errors.js';
import { keepSession, mayResume } from './session.js';
import { loginOptions } from './login.js';

export type LinkState = 'connecting' | 'connected' | 'disconnected' | 'refused' | 'stopped';

export interface LinkStatus {
  state: LinkState;
  since: string;
  broker: string;
  clientId: string;
  lastError?: string;
  /** Not connected since then (the start, or the loss of the last connection); absent while connected. */
  downSince?: string;
  /** Connections made again after one was lost (the first connection is not one). */
  reconnects: number;
  /** Attempts to connect again, whether or not they got through. */
  reconnectAttempts: number;
  /** The wait before the next attempt, while disconnected. */
  retryInMs?: number;
  messagesIn: number;
  messagesOut: number;
  /** Another connection took this client id (two units with one `unit` name). */
  clientIdInUse: { times: number; last: string } | null;
  confirmations: {
    queued: number;
    dropped: number;
    /** Published at QoS 1, their PUBACK not in yet. */
    unacknowledged: number;
    /** Waited for longer than ACK_WAIT_MS: the broker dropped the PUBACK. */
    givenUp: number;
    /** Sent at QoS 0: commands shed under a flood, and any while INFLIGHT_LIMIT wait for their PUBACK. */
    qos0: number;
  };
}

export interface LinkEvents {
  connected(): void;
  message(topic: string, payload: Buffer, packet: IPublishPacket): void;
  stateChanged(): void;
}

/**
 * Longest MQTT.js works through incoming packets before the event loop has a turn: it takes
 * everything the socket holds in one go (11,599 messages, 1.4 s, under a flood of commands).
 */
const READ_SLICE_MS = 2;
export class BrokerLink {
  private client: MqttClient | undefined;
  private state: LinkState = 'connecting';
  private since = Date.now();
  private downSince: number | undefined = Date.now();
  private lastError: string | undefined;
  /** Set by a TLS failure until a connection succeeds: waiting does not mend a certificate. */
  private tlsFailedAt: number | undefined;
  private reconnects = 0;
  private reconnectAttempts = 0;
  private everConnected = false;
  private attempt = 0;
  private retryAt: number | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private stableTimer: ReturnType<typeof setTimeout> | undefined;
  private messagesIn = 0;
  private takenOver = { times: 0, last: '' };
  /** Set while connected until any error: a close then came from the broker itself. */
  private cleanSinceConnect = false;
  /** Connections the broker closed while it stayed reachable, in a row. */
  private closedByBroker = 0;
  /** What goes out: the bounded queue, the publishes waiting for their PUBACK. */
  private readonly outbox: Outbox;
  /** When MQTT.js began the run of packets it is working through; 0 once the event loop had its turn. */
  private sliceStart = 0;
  private readonly endSlice = (): void => {
    this.sliceStart = 0;
  };
  readonly clientId: string;

  /** `stateDir`: where the name of the last session is kept (session.ts); without it every start is clean. */
  constructor(
    private readonly settings: MqttSettings,
    private readonly topics: Topics,
    private readonly log: Logger,
    private readonly on: LinkEvents,
    private readonly stateDir?: string,
  ) {
    this.clientId = `${settings.prefix}-${settings.unit}`;
    this.outbox = new Outbox(
      log,
      () => (this.state === 'connected' ? this.client : undefined),
      (m) => {
        this.lastError = m;
      },
    );
  }

  /**
   * Publishes now when connected and the socket takes it; otherwise `queued` messages wait
   * (bounded, in order), the rest are dropped. QoS 1 unless `qos` says 0.
   */
  publish(topic: string, payload: string | Buffer, opts: { retain: boolean; queued?: boolean; qos?: 0 | 1 }): void {
    this.outbox.publish(topic, payload, opts);
  }

  /**
   * Publishes at QoS 1 and resolves once the broker acknowledged it, or false after `timeoutMs`: a reply that must be
   * out before the unit restarts.
   */
  publishAcked(topic: string, payload: string, timeoutMs = 3000): Promise<boolean> {
    return this.outbox.publishAcked(topic, payload, timeoutMs);
  }

  async start(): Promise<void> {
    // require(), not import(): an ESM import of the package runs cjs-module-lexer over each of its
    // files first, which left about 6 MB more resident in a bare process (20.6 against 14.1 MB).
    const { connect } = requireCjs('mqtt') as typeof import('mqtt');
    const s = this.settings;
    const opts: IClientOptions = {
      clientId: this.clientId,
      protocolVersion: 5,
      // A session kept by the broker is resumed only by the unit whose name it was made under.
      clean: s.sessionExpiry === 0 || !mayResume(this.stateDir, this.clientId),
      properties: { sessionExpiryInterval: s.sessionExpiry },
      keepalive: s.keepalive,
      reconnectPeriod: 0,
      connectTimeout: Math.min(30, Math.max(2, s.keepalive)) * 1000,
      resubscribe: false,
      queueQoSZero: false,
      // mqtt-packet would otherwise make 65,536 two-byte Buffers at the first write (about 4 MB).
      writeCache: false,
      ...loginOptions(s),
      will: { topic: this.topics.availability, payload: Buffer.from('offline'), qos: 1, retain: true },
    };
    let client: MqttClient;
    try {
      client = connect(s.url, opts);
    } catch (err) {
      // MQTT.js builds the TLS context inside connect(): a key or certificate OpenSSL refuses
      // throws here, with no client left to emit it.
      this.failed(err as Error);
      this.setState('disconnected');
      return;
    }
    this.client = client;
    // MQTT.js takes the next packet once this calls back: after READ_SLICE_MS of packets (ours
    // and the handlers' work) it waits a turn, so HTTP, frames and timers run through a flood.
    client.handleMessage = (_packet, done) => {
      const now = performance.now();
      if (this.sliceStart === 0) {
        this.sliceStart = now;
        setImmediate(this.endSlice);
      }
      if (now - this.sliceStart < READ_SLICE_MS) done();
      else setImmediate(done);
    };
    client.on('connect', () => this.connected());
    client.on('message', (topic, payload, packet) => {
      this.messagesIn++;
      this.on.message(topic, payload, packet);
    });
    client.on('error', (err) => this.failed(err));
    client.on('disconnect', (packet) => {
      this.cleanSinceConnect = false;
      if (packet.reasonCode === TAKEN_OVER) this.takeover();
      else this.lastError = `the broker disconnected (reason ${packet.reasonCode ?? 0})`;
    });
    client.on('close', () => this.closed());
    this.log.info({ broker: s.url, clientId: this.clientId }, 'mqtt: connecting');
  }

  subscribe(topics: string[]): void {
    // rap: a retained message keeps its flag even when published while we are subscribed, so none is acted on.
    this.client?.subscribe(topics, { qos: 1, rap: true, nl: true }, (err) => {
      if (err) {
        this.lastError = `subscribe failed: ${err.message}`;
        this.log.warn({ err: err.message }, 'mqtt: subscribe failed');
      }
    });
  }

  /** Since when the connection has failed in TLS (a certificate, a key, the handshake), if it has. */
  tlsFailureSince(): number | undefined {
    return this.tlsFailedAt;
  }

  connectedNow(): boolean {
    return this.state === 'connected';
  }

  /** A clean stop: `offline` retained, then the connection ends (no Last Will). */
  async stop(): Promise<void> {
    this.clearTimers();
    const c = this.client;
    this.client = undefined;
    this.setState('stopped');
    if (!c) return;
    this.outbox.abandon(c);
    if (c.connected) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 1000);
        c.publish(this.topics.availability, 'offline', { qos: 1, retain: true }, () => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    await new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        c.end(true);
        resolve();
      }, 1000);
      c.end(false, {}, () => {
        clearTimeout(t);
        resolve();
      });
    });
    c.removeAllListeners();
    // A late socket error after the end must not become an uncaught exception.
    c.on('error', () => {});
  }

  status(): LinkStatus {
    const state = this.stateNow();
    return {
      state,
      since: new Date(this.since).toISOString(),
      broker: this.settings.url,
      clientId: this.clientId,
      lastError: this.lastError,
      ...(this.downSince !== undefined ? { downSince: new Date(this.downSince).toISOString() } : {}),
      reconnects: this.reconnects,
      reconnectAttempts: this.reconnectAttempts,
      ...(this.retryAt !== undefined ? { retryInMs: Math.max(0, this.retryAt - Date.now()) } : {}),
      messagesIn: this.messagesIn,
      messagesOut: this.outbox.sent,
      clientIdInUse: this.takenOver.times ? { ...this.takenOver } : null,
      confirmations: this.outbox.counts(),
    };
  }

  /**
   * The state as the connection has it: connected only while MQTT.js is, and while the broker
   * has answered within 1.5 keepalives. MQTT.js checks that on a timer of the event loop, which
   * a busy loop runs late: the link said "connected" while its keepalive had long run out. Found
   * run out here, the connection ends as MQTT.js's check would end it (a late answer does not
   * bring it back), and the link connects again.
   */
  private stateNow(): LinkState {
    if (this.state !== 'connected') return this.state;
    const c = this.client;
    if (!c?.connected || (c.stream as { destroyed?: boolean } | undefined)?.destroyed) return 'disconnected';
    const deadline = (c.keepaliveManager as MqttClient['keepaliveManager'] | null)?.keepaliveTimeoutTimestamp;
    if (deadline === undefined || Date.now() <= deadline) return 'connected';
    c.onKeepaliveTimeout();
    return 'disconnected';
  }

  private connected(): void {
    this.retryAt = undefined;
    this.tlsFailedAt = undefined;
    // Confirmations are small writes: Nagle's algorithm would hold each up to 40 ms for an ACK.
    (this.client?.stream as { setNoDelay?: (on: boolean) => void } | undefined)?.setNoDelay?.(true);
    // Mosquitto 2.0 closes the older of two connections with one client id without a
    // DISCONNECT: a broker that closes us and then lets us straight back in, twice in a row, is that.
    if (this.closedByBroker >= 2) this.takeover();
    this.cleanSinceConnect = true;
    if (this.everConnected) this.reconnects++;
    this.everConnected = true;
    this.setState('connected');
    this.log.info({ broker: this.settings.url, reconnects: this.reconnects }, 'mqtt: connected');
    // Reset only once the connection holds: a unit kicked off at once keeps backing off.
    this.stableTimer = setTimeout(() => {
      this.attempt = 0;
      this.closedByBroker = 0;
    }, STABLE_MS);
    if (this.client && this.settings.sessionExpiry > 0) {
      // Cleaned once (a new name), resumed from now on: a reconnect must not drop what the broker queued.
      this.client.options.clean = false;
      keepSession(this.stateDir, this.clientId).catch((err: Error) => {
        this.log.warn({ err: err.message }, 'mqtt: the session name cannot be kept');
      });
    }
    this.client?.publish(this.topics.availability, 'online', { qos: 1, retain: true });
    this.outbox.sent++;
    this.on.connected();
    this.outbox.flush();
  }

  private failed(err: Error & { code?: string | number; reason?: unknown }): void {
    this.cleanSinceConnect = false;
    if (this.state !== 'connected') this.closedByBroker = 0;
    const code = typeof err.code === 'number' ? CONNACK_REASONS[err.code] : undefined;
    const tls = isTlsFailure(err);
    // OpenSSL's message carries its address and source file; its reason alone is what an operator reads.
    const why = tls && typeof err.reason === 'string' ? err.reason : err.message;
    this.lastError = code
      ? `the broker refused the login: ${code} (${err.code})`
      : `${tls ? 'TLS failed: ' : ''}${err.code ? `${err.code}: ` : ''}${why}`;
    if (code) this.setState('refused');
    // The latest failure decides: a broker that is merely away again is an outage, not a certificate fault.
    this.tlsFailedAt = tls ? (this.tlsFailedAt ?? Date.now()) : undefined;
    this.log.warn({ broker: this.settings.url, err: this.lastError }, 'mqtt: connection error');
  }

  private takeover(): void {
    this.takenOver = { times: this.takenOver.times + 1, last: new Date().toISOString() };
    this.lastError =
      `another client connected with the client id "${this.clientId}" (two units with the unit ` +
      `name "${this.settings.unit}"?)`;
    this.log.warn(
      { clientId: this.clientId, times: this.takenOver.times },
      'mqtt: client id in use by another connection',
    );
  }

  private closed(): void {
    this.outbox.connectionClosed();
    if (!this.client || this.state === 'stopped') return;
    if (this.state === 'connected' && this.cleanSinceConnect) this.closedByBroker++;
    this.cleanSinceConnect = false;
    if (this.stableTimer) clearTimeout(this.stableTimer);
    const wait = backoffMs(this.attempt++);
    this.retryAt = Date.now() + wait;
    if (this.state !== 'refused') this.setState('disconnected');
    else this.on.stateChanged();
    this.log.info({ broker: this.settings.url, retryInMs: wait }, 'mqtt: disconnected; retrying');
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (!this.client) return;
      this.reconnectAttempts++;
      this.setState('connecting');
      this.client.reconnect();
    }, wait);
  }

  private setState(s: LinkState): void {
    if (s === this.state) return;
    if (s === 'connected') this.downSince = undefined;
    else this.downSince ??= Date.now();
    this.state = s;
    this.since = Date.now();
    this.on.stateChanged();
  }

  private clearTimers(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.stableTimer) clearTimeout(this.stableTimer);
    this.retryTimer = this.stableTimer = undefined;
  }
}
