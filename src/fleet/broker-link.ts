// The connection to the broker (MQTT.js 5 speaking MQTT 5): connect, Last Will, reconnects
// with our own backoff, the connection facts for /status, and a bounded queue for what must
// wait while offline. MQTT.js's own reconnect (every second, forever, refused logins too) is
// off: reconnectPeriod 0, and this class decides when to try again.
import { readFileSync } from 'node:fs';
import { requireCjs } from '../util/require-cjs.js';
import type { IClientOptions, IPublishPacket, MqttClient } from 'mqtt';
import type { MqttSettings } from '../config/types.js';
import type { Logger } from '../log/logger.js';
import { backoffMs, STABLE_MS } from './backoff.js';
import type { Topics } from './topics.js';

export type LinkState = 'connecting' | 'connected' | 'disconnected' | 'refused' | 'stopped';

export interface LinkStatus {
  state: LinkState;
  since: string;
  broker: string;
  clientId: string;
  lastError?: string;
  /** Not connected since then (the start, or the loss of the last connection); absent while connected. */
  downSince?: string;
  reconnects: number;
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

/** Confirmations waiting for the broker; beyond it the oldest is dropped and counted. */
export const QUEUE_LIMIT = 100;
/**
 * QoS 1 publishes whose PUBACK has not come (MQTT.js keeps each, and its packet, until it
 * does); while this many wait, the next go out at QoS 0. Under a flood the PUBACKs came back in
 * bursts of thousands, and MQTT.js takes the packets of one socket read by shifting an array
 * (16,000 PUBACKs fit one read: 1.7 s without a turn of the event loop).
 */
export const INFLIGHT_LIMIT = 1000;
/**
 * A PUBACK not in after this long is not waited for: a broker short of room for a client
 * drops packets to it, PUBACKs included (Mosquitto: "Outgoing messages are being dropped";
 * 15,000 never came in a flood). The message itself went out.
 */
export const ACK_WAIT_MS = 10_000;
/** Bytes of publishes the socket may hold before the rest wait in the queue for it to drain. */
export const SOCKET_LIMIT = 1024 * 1024;
/**
 * Longest MQTT.js works through incoming packets before the event loop has a turn: it takes
 * everything the socket holds in one go (11,599 messages, 1.4 s, under a flood of commands).
 */
const READ_SLICE_MS = 2;
/** A dropped confirmation is logged at most this often, with the count. */
const DROP_LOG_MS = 1000;
/** MQTT 5 DISCONNECT reason "Session taken over": another client connected with our id. */
const TAKEN_OVER = 142;
const CONNACK_REASONS: Record<number, string> = {
  4: 'bad user name or password', 5: 'not authorized', 134: 'bad user name or password', 135: 'not authorized',
  133: 'client identifier not valid', 138: 'banned', 140: 'bad authentication method',
};

/**
 * Errors of the TLS layer: OpenSSL's and Node's TLS codes, and X.509 verification results
 * (CERT_HAS_EXPIRED, SELF_SIGNED_CERT_IN_CHAIN, UNABLE_TO_VERIFY_LEAF_SIGNATURE...).
 */
const TLS_CODE = /^(ERR_(TLS|SSL|OSSL)_|UNABLE_TO_|CERT_|CRL_|DEPTH_ZERO_|SELF_SIGNED_|INVALID_(CA|PURPOSE)$|PATH_LENGTH_|HOSTNAME_MISMATCH$|ERROR_IN_CE?RL?_)/;

export function isTlsFailure(err: { code?: unknown }): boolean {
  return typeof err.code === 'string' && TLS_CODE.test(err.code);
}

export class BrokerLink {
  private client: MqttClient | undefined;
  private state: LinkState = 'connecting';
  private since = Date.now();
  private downSince: number | undefined = Date.now();
  private lastError: string | undefined;
  /** Set by a TLS failure until a connection succeeds: waiting does not mend a certificate. */
  private tlsFailedAt: number | undefined;
  private reconnects = 0;
  private attempt = 0;
  private retryAt: number | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private stableTimer: ReturnType<typeof setTimeout> | undefined;
  private messagesIn = 0;
  private messagesOut = 0;
  private takenOver = { times: 0, last: '' };
  /** Set while connected until any error: a close then came from the broker itself. */
  private cleanSinceConnect = false;
  /** Connections the broker closed while it stayed reachable, in a row. */
  private closedByBroker = 0;
  private readonly queue: Array<{ topic: string; payload: string | Buffer; qos: 0 | 1 }> = [];
  private dropped = 0;
  private droppedLoggedAt = -Infinity;
  /** Message ids of publishes waiting for their PUBACK, oldest first, with when they went out. */
  private readonly unacked = new Map<number, number>();
  private givenUp = 0;
  private qos0 = 0;
  private waitingForDrain = false;
  /** When MQTT.js began the run of packets it is working through; 0 once the event loop had its turn. */
  private sliceStart = 0;
  private readonly endSlice = (): void => { this.sliceStart = 0; };
  readonly clientId: string;

  constructor(private readonly settings: MqttSettings, private readonly topics: Topics, private readonly log: Logger, private readonly on: LinkEvents) {
    this.clientId = `${settings.prefix}-${settings.unit}`;
  }

  async start(): Promise<void> {
    // require(), not import(): an ESM import of the package runs cjs-module-lexer over each of its
    // files first, which left about 6 MB more resident in a bare process (20.6 against 14.1 MB).
    const { connect } = requireCjs('mqtt') as typeof import('mqtt');
    const s = this.settings;
    const opts: IClientOptions = {
      clientId: this.clientId,
      protocolVersion: 5,
      clean: true,
      keepalive: s.keepalive,
      reconnectPeriod: 0,
      connectTimeout: Math.min(30, Math.max(2, s.keepalive)) * 1000,
      resubscribe: false,
      queueQoSZero: false,
      // mqtt-packet would otherwise make 65,536 two-byte Buffers at the first write (about 4 MB).
      writeCache: false,
      username: s.username,
      password: s.password,
      // Verified always: a broker that cannot prove its name gets no credentials.
      rejectUnauthorized: true,
      ...(s.ca ? { ca: readFileSync(s.ca) } : {}),
      ...(s.cert && s.key ? { cert: readFileSync(s.cert), key: readFileSync(s.key) } : {}),
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
    client.on('message', (topic, payload, packet) => { this.messagesIn++; this.on.message(topic, payload, packet); });
    client.on('error', (err) => this.failed(err));
    client.on('disconnect', (packet) => {
      this.cleanSinceConnect = false;
      if (packet.reasonCode === TAKEN_OVER) this.takeover();
      else this.lastError = `the broker disconnected (reason ${packet.reasonCode ?? 0})`;
    });
    client.on('close', () => this.closed());
    this.log.info({ broker: s.url, clientId: this.clientId }, 'mqtt: connecting');
  }

  /**
   * Publishes now when connected and the socket takes it; otherwise `queued` messages wait
   * (bounded, in order), the rest are dropped. QoS 1 unless `qos` says 0.
   */
  publish(topic: string, payload: string | Buffer, opts: { retain: boolean; queued?: boolean; qos?: 0 | 1 }): void {
    const qos = opts.qos ?? 1;
    if (this.queue.length === 0 && this.canSend()) {
      this.send(topic, payload, opts.retain, qos);
      return;
    }
    if (!opts.queued) return;
    this.queue.push({ topic, payload, qos });
    if (this.queue.length > QUEUE_LIMIT) {
      this.queue.shift();
      this.dropped++;
      const now = Date.now();
      if (now - this.droppedLoggedAt >= DROP_LOG_MS) {
        this.droppedLoggedAt = now;
        this.log.warn({ queueLimit: QUEUE_LIMIT, dropped: this.dropped }, 'mqtt: confirmation dropped, the queue for the broker is full');
      }
    }
  }

  /** Connected, and the socket holds less than SOCKET_LIMIT (else the queue flushes on its drain). */
  private canSend(): boolean {
    const c = this.client;
    if (!c?.connected || this.state !== 'connected') return false;
    const out = c.stream as { writableLength?: number; once?(e: 'drain', f: () => void): void } | undefined;
    if ((out?.writableLength ?? 0) <= SOCKET_LIMIT) return true;
    if (!this.waitingForDrain && out?.once) {
      this.waitingForDrain = true;
      out.once('drain', () => { this.waitingForDrain = false; this.flush(); });
    }
    return false;
  }

  private send(topic: string, payload: string | Buffer, retain: boolean, qos: 0 | 1): void {
    const c = this.client!;
    this.messagesOut++;
    if (qos === 1 && !this.roomInFlight(c)) qos = 0;
    if (qos === 0) {
      this.qos0++;
      c.publish(topic, payload, { qos: 0, retain });
      return;
    }
    let id = 0;
    c.publish(topic, payload, { qos: 1, retain }, (err) => {
      if (err && err.message !== 'Message removed') this.lastError = err.message;
      this.unacked.delete(id);
    });
    id = c.getLastMessageId() ?? 0;
    if (id !== 0) this.unacked.set(id, Date.now());
  }

  /** Fewer than INFLIGHT_LIMIT wait for their PUBACK, once those waiting past ACK_WAIT_MS are given up. */
  private roomInFlight(c: MqttClient): boolean {
    if (this.unacked.size < INFLIGHT_LIMIT) return true;
    const old = Date.now() - ACK_WAIT_MS;
    for (const [id, at] of this.unacked) {
      if (at > old) break;
      this.unacked.delete(id);
      this.givenUp++;
      c.removeOutgoingMessage(id);
    }
    return this.unacked.size < INFLIGHT_LIMIT;
  }

  /** What waits goes out while the socket takes it. */
  private flush(): void {
    while (this.queue.length > 0 && this.canSend()) {
      const m = this.queue.shift()!;
      this.send(m.topic, m.payload, false, m.qos);
    }
  }

  /** Publishes at QoS 1 and resolves once the broker acknowledged it, or false after `timeoutMs`: a reply that must be out before the unit restarts. */
  publishAcked(topic: string, payload: string, timeoutMs = 3000): Promise<boolean> {
    const c = this.client;
    if (!c || !this.connectedNow()) return Promise.resolve(false);
    this.messagesOut++;
    return new Promise((resolve) => {
      const t = setTimeout(() => resolve(false), timeoutMs);
      c.publish(topic, payload, { qos: 1, retain: false }, (err) => { clearTimeout(t); resolve(!err); });
    });
  }

  subscribe(topics: string[]): void {
    // rap: a retained message keeps its flag even when published while we are subscribed, so none is acted on.
    this.client?.subscribe(topics, { qos: 1, rap: true, nl: true }, (err) => {
      if (err) { this.lastError = `subscribe failed: ${err.message}`; this.log.warn({ err: err.message }, 'mqtt: subscribe failed'); }
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
    // MQTT.js's end waits for what is unacknowledged, and counts it on every PUBACK: after a
    // flood, thousands waiting made each of them cost a walk of all the rest (16 s to stop).
    for (const id of this.unacked.keys()) c.removeOutgoingMessage(id);
    this.unacked.clear();
    if (c.connected) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 1000);
        c.publish(this.topics.availability, 'offline', { qos: 1, retain: true }, () => { clearTimeout(t); resolve(); });
      });
    }
    await new Promise<void>((resolve) => {
      const t = setTimeout(() => { c.end(true); resolve(); }, 1000);
      c.end(false, {}, () => { clearTimeout(t); resolve(); });
    });
    c.removeAllListeners();
    // A late socket error after the end must not become an uncaught exception.
    c.on('error', () => {});
  }

  status(): LinkStatus {
    return {
      state: this.state,
      since: new Date(this.since).toISOString(),
      broker: this.settings.url,
      clientId: this.clientId,
      lastError: this.lastError,
      ...(this.downSince !== undefined ? { downSince: new Date(this.downSince).toISOString() } : {}),
      reconnects: this.reconnects,
      ...(this.retryAt !== undefined ? { retryInMs: Math.max(0, this.retryAt - Date.now()) } : {}),
      messagesIn: this.messagesIn,
      messagesOut: this.messagesOut,
      clientIdInUse: this.takenOver.times ? { ...this.takenOver } : null,
      confirmations: { queued: this.queue.length, dropped: this.dropped, unacknowledged: this.unacked.size, givenUp: this.givenUp, qos0: this.qos0 },
    };
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
    this.setState('connected');
    this.log.info({ broker: this.settings.url, reconnects: this.reconnects }, 'mqtt: connected');
    // Reset only once the connection holds: a unit kicked off at once keeps backing off.
    this.stableTimer = setTimeout(() => { this.attempt = 0; this.closedByBroker = 0; }, STABLE_MS);
    this.client?.publish(this.topics.availability, 'online', { qos: 1, retain: true });
    this.messagesOut++;
    this.on.connected();
    this.flush();
  }

  private failed(err: Error & { code?: string | number; reason?: unknown }): void {
    this.cleanSinceConnect = false;
    if (this.state !== 'connected') this.closedByBroker = 0;
    const code = typeof err.code === 'number' ? CONNACK_REASONS[err.code] : undefined;
    const tls = isTlsFailure(err);
    // OpenSSL's message carries its address and source file; its reason alone is what an operator reads.
    const why = tls && typeof err.reason === 'string' ? err.reason : err.message;
    this.lastError = code ? `the broker refused the login: ${code} (${err.code})` : `${tls ? 'TLS failed: ' : ''}${err.code ? `${err.code}: ` : ''}${why}`;
    if (code) this.setState('refused');
    // The latest failure decides: a broker that is merely away again is an outage, not a certificate fault.
    this.tlsFailedAt = tls ? this.tlsFailedAt ?? Date.now() : undefined;
    this.log.warn({ broker: this.settings.url, err: this.lastError }, 'mqtt: connection error');
  }

  private takeover(): void {
    this.takenOver = { times: this.takenOver.times + 1, last: new Date().toISOString() };
    this.lastError = `another client connected with the client id "${this.clientId}" (two units with the unit name "${this.settings.unit}"?)`;
    this.log.warn({ clientId: this.clientId, times: this.takenOver.times }, 'mqtt: client id in use by another connection');
  }

  private closed(): void {
    // The old connection's: MQTT.js settles or drops them itself.
    this.unacked.clear();
    this.waitingForDrain = false;
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
      this.reconnects++;
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
