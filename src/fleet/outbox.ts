// What the unit publishes to the broker, and how much of it may wait: a bounded queue for what
// must wait while offline or while the socket is full (confirmations, admin results), the newest
// message of each topic that tells how the unit is now (status, discovery, light states, a
// screenshot) while connected and the socket is full or the queue waits, and a bound on the
// QoS 1 publishes waiting for their PUBACK (beyond it the next go out at QoS 0).
import type { MqttClient } from 'mqtt';
import type { Logger } from '../log/logger.js';

/**
 * Confirmations waiting for the broker; beyond it one is dropped and counted: the oldest sent at
 * QoS 0 (a shed command's MLDS_BUSY, at most once anyway) before any applied command's.
 */
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
/** A dropped confirmation is logged at most this often, with the count. */
const DROP_LOG_MS = 1000;

export class Outbox {
  private readonly queue: Array<{ topic: string; payload: string | Buffer; qos: 0 | 1 }> = [];
  /**
   * The newest unqueued message per topic while connected and unable to send it now: one per
   * topic, so bounded by the unit's topics. Dropped, a status or discovery sent on connect while
   * an admin result waited was lost, and the status said what it had not.
   */
  private readonly newest = new Map<string, { payload: string | Buffer; retain: boolean; qos: 0 | 1 }>();
  private dropped = 0;
  private droppedLoggedAt = -Infinity;
  /** Message ids of publishes waiting for their PUBACK, oldest first, with when they went out. */
  private readonly unacked = new Map<number, number>();
  private givenUp = 0;
  private qos0 = 0;
  private waitingForDrain = false;
  /** Messages handed to the socket since the start. */
  sent = 0;

  /** `client`: the connection while it is up, else undefined; `onError`: a publish the broker refused. */
  constructor(
    private readonly log: Logger,
    private readonly client: () => MqttClient | undefined,
    private readonly onError: (message: string) => void = () => {},
  ) {}

  /**
   * Publishes now when connected and the socket takes it, after what waits; otherwise `queued`
   * messages wait (bounded, in order), and the rest wait as the newest of their topic while
   * connected (offline they are dropped: every connection publishes the unit's state afresh).
   * QoS 1 unless `qos` says 0.
   */
  publish(topic: string, payload: string | Buffer, opts: { retain: boolean; queued?: boolean; qos?: 0 | 1 }): void {
    const qos = opts.qos ?? 1;
    if (this.canSend()) {
      this.flush();
      if (this.queue.length === 0 && this.newest.size === 0 && this.canSend()) {
        this.send(topic, payload, opts.retain, qos);
        return;
      }
    }
    if (!opts.queued) {
      if (this.client()) this.newest.set(topic, { payload, retain: opts.retain, qos });
      return;
    }
    this.queue.push({ topic, payload, qos });
    if (this.queue.length > QUEUE_LIMIT) {
      const atMostOnce = this.queue.findIndex((m) => m.qos === 0);
      this.queue.splice(atMostOnce >= 0 ? atMostOnce : 0, 1);
      this.dropped++;
      const now = Date.now();
      if (now - this.droppedLoggedAt >= DROP_LOG_MS) {
        this.droppedLoggedAt = now;
        this.log.warn(
          { queueLimit: QUEUE_LIMIT, dropped: this.dropped },
          'mqtt: confirmation dropped, the queue for the broker is full',
        );
      }
    }
  }

  /** Connected, and the socket holds less than SOCKET_LIMIT (else the queue flushes on its drain). */
  private canSend(): boolean {
    const c = this.client();
    if (!c?.connected) return false;
    const out = c.stream as { writableLength?: number; once?(e: 'drain', f: () => void): void } | undefined;
    if ((out?.writableLength ?? 0) <= SOCKET_LIMIT) return true;
    if (!this.waitingForDrain && out?.once) {
      this.waitingForDrain = true;
      out.once('drain', () => {
        this.waitingForDrain = false;
        this.flush();
      });
    }
    return false;
  }

  private send(topic: string, payload: string | Buffer, retain: boolean, qos: 0 | 1): void {
    const c = this.client()!;
    this.sent++;
    if (qos === 1 && !this.roomInFlight(c)) qos = 0;
    if (qos === 0) {
      this.qos0++;
      c.publish(topic, payload, { qos: 0, retain });
      return;
    }
    let id = 0;
    c.publish(topic, payload, { qos: 1, retain }, (err) => {
      if (err && err.message !== 'Message removed') this.onError(err.message);
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

  /** What waits goes out while the socket takes it: the newest of each topic, then the queue. */
  flush(): void {
    for (const [topic, m] of this.newest) {
      if (!this.canSend()) return;
      this.newest.delete(topic);
      this.send(topic, m.payload, m.retain, m.qos);
    }
    while (this.queue.length > 0 && this.canSend()) {
      const m = this.queue.shift()!;
      this.send(m.topic, m.payload, false, m.qos);
    }
  }

  /**
   * Publishes at QoS 1 and resolves once the broker acknowledged it, or false after `timeoutMs`: a reply that must be
   * out before the unit restarts.
   */
  publishAcked(topic: string, payload: string, timeoutMs = 3000): Promise<boolean> {
    const c = this.client();
    if (!c) return Promise.resolve(false);
    this.sent++;
    return new Promise((resolve) => {
      const t = setTimeout(() => resolve(false), timeoutMs);
      c.publish(topic, payload, { qos: 1, retain: false }, (err) => {
        clearTimeout(t);
        resolve(!err);
      });
    });
  }

  /** The connection closed: MQTT.js settles or drops the old connection's publishes itself. */
  connectionClosed(): void {
    this.unacked.clear();
    // The next connection publishes the unit's state afresh.
    this.newest.clear();
    this.waitingForDrain = false;
  }

  /**
   * Before a clean end: MQTT.js's end waits for what is unacknowledged, and counts it on every
   * PUBACK: after a flood, thousands waiting made each of them cost a walk of all the rest (16 s to stop).
   */
  abandon(c: MqttClient): void {
    for (const id of this.unacked.keys()) c.removeOutgoingMessage(id);
    this.unacked.clear();
  }

  counts(): { queued: number; dropped: number; unacknowledged: number; givenUp: number; qos0: number } {
    return {
      queued: this.queue.length,
      dropped: this.dropped,
      unacknowledged: this.unacked.size,
      givenUp: this.givenUp,
      qos0: this.qos0,
    };
  }
}
