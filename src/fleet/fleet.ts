// The fleet component: commands from the broker through the one control path (source `mqtt`),
// confirmations on `<prefix>/<unit>/confirm`, the /status document retained on `status`,
// admin commands on the unit's own `admin` topic only. Topic names: topics.ts.
import type { IPublishPacket } from 'mqtt';
import type { MqttSettings } from '../config/types.js';
import { onStateChange } from '../control/changes.js';
import { maskText } from '../control/credentials.js';
import { MldsError } from '../errors.js';
import { RateLimiter } from '../util/rate-limiter.js';
import { refusalLog } from '../log/refusal-log.js';
import { countCommand } from '../control/counters.js';
import type { ServiceProblem } from '../capability/status-types.js';
import type { TextFit } from '../render/content/content.js';
import type { Component, RuntimeContext } from '../capability/component-contract.js';
import type { ReloadReport } from '../config/diff.js';
import { answerAdmin } from './admin.js';
import { AdminIntake, adminIds } from './admin-intake.js';
import { HA_STATUS, HomeAssistant } from './home-assistant.js';
import { Intake } from './intake.js';
import { BrokerLink } from './broker-link.js';
import { MAX_AGE_MS, parsePayload, type Parsed } from './payload.js';
import { digestOf, RecentCommands, type Confirmation } from './recent.js';
import { commandTopics, topicsOf, type Topics } from './topics.js';
import { linkProblems } from './link-problems.js';
import { StatusPublisher, type StatusTarget } from './fleet-status.js';
import { announcementConfirmation, readoutConfirmation } from './announce.js';
import { Converger } from './converge.js';
import { RetainedLedger, retainedTopics } from './retained-topics.js';
import { staleMessage } from './stale.js';

interface Counters {
  retained: number;
  stale: number;
  duplicates: number;
  notMine: number;
  faulty: number;
  applied: number;
  shed: number;
  adminRefused: number;
}

/**
 * A command waiting for the control path, and what settles its confirmation. `result`: its
 * confirmation as remembered for redeliveries; `took`: the control path took it (applied or refused).
 */
interface Queued {
  query: string;
  id?: string;
  inumber?: string;
  settle(c: Confirmation): void;
  result?: Promise<Confirmation>;
  took?: boolean;
}

export class Fleet implements Component {
  readonly name = 'fleet';
  private ctx: RuntimeContext | undefined;
  private settings: MqttSettings | undefined;
  private topics: Topics | undefined;
  private link: BrokerLink | undefined;
  private readonly recent = new RecentCommands();
  /** The MQTT command the control path is applying now (one at a time). */
  private applying: Queued | undefined;
  /**
   * Each display's last command as the state changes told it: a new one is a command, the same one a ttl or a level's
   * end.
   */
  private readonly lastCommands = new Map<string, object>();
  private counters: Counters = {
    retained: 0,
    stale: 0,
    duplicates: 0,
    notMine: 0,
    faulty: 0,
    applied: 0,
    shed: 0,
    adminRefused: 0,
  };
  private readonly intake = new Intake<Queued>((q) => this.run(q));
  /** Admin commands: a lane and a rate of their own, so a flood of them neither delays commands nor fills memory. */
  private readonly adminIn = new AdminIntake(
    (topic, p) => this.admin(topic, p),
    (topic, p, reason, message) => this.adminShed(topic, p, reason, message),
  );
  /** HTTP's windows, per command topic: `rateLimit` commands a second on each. */
  private readonly limiter = new RateLimiter(() => this.ctx?.config().rateLimit ?? Infinity);
  private shedLog: ((topic: string, reason: string) => void) | undefined;
  private adminRefusedLog: ((topic: string, kind?: string, example?: string) => void) | undefined;
  private unsubscribe: (() => void) | undefined;
  private ha: HomeAssistant | undefined;
  private readonly statusOut = new StatusPublisher(() => this.statusTarget());
  /**
   * Counts of the links reloads replaced: /status and /metrics count since the start, across reloads that connect
   * again.
   */
  private carried = { messagesIn: 0, messagesOut: 0, reconnects: 0, reconnectAttempts: 0, dropped: 0 };
  /** The desired state: documents kept across reloads, its report published on the link of the moment. */
  private readonly desired: Converger;
  /** Connected only once the saved requests are replayed: the replay must not replace a command the broker queued. */
  private ready = false;

  private ledger: RetainedLedger | undefined;

  constructor(private readonly stateDir?: string) {
    this.desired = new Converger(
      {
        ctx: () => this.ctx,
        publish: (doc) => {
          if (this.link && this.topics) this.link.publish(this.topics.reported, doc, { retain: true });
        },
        changed: () => this.statusSoon(),
      },
      stateDir,
    );
  }

  async start(ctx: RuntimeContext): Promise<void> {
    this.ctx = ctx;
    this.ledger = new RetainedLedger(this.stateDir, ctx.log);
    // One warning per topic per second at most, with the count: a flood must not fill the log.
    this.shedLog = refusalLog(ctx.log, (topic, n, { kinds }) => [
      { topic, shed: n, reasons: kinds },
      `mqtt: ${n} commands shed on ${topic} (MLDS_BUSY)`,
    ]);
    // Wrong keys too: 60,000 of them, a line each, pushed shown.log's history out of logMaxMB.
    this.adminRefusedLog = refusalLog(ctx.log, (topic, n, { example }) => [
      { topic, refused: n, ...(example ? { example } : {}) },
      `mqtt: ${n} admin commands refused on ${topic}: adminKey missing or wrong`,
    ]);
    this.unsubscribe = onStateChange((c) => {
      if (c.config !== this.ctx?.config()) return;
      this.statusSoon();
      const last = c.state?.lastCommand;
      if (!last || this.lastCommands.get(c.displayId) === last) return;
      this.lastCommands.set(c.displayId, last);
      // Taken when committed: a command from another source after it makes a payload seen before a new command.
      if (last.source !== 'mqtt') this.recent.applied(c.displayId);
      else if (this.applying?.id === c.displayId) this.took(this.applying, true);
    });
    this.settings = ctx.config().mqtt!;
    if (this.ready) await this.connect(this.settings);
  }

  /** The service started (the saved requests replayed): the broker's queued commands and desired content come after. */
  async started(): Promise<void> {
    if (this.ready) return;
    this.ready = true;
    if (this.ctx && !this.link) await this.connect(this.settings ?? this.ctx.config().mqtt!);
  }

  async reload(ctx: RuntimeContext, _report: ReloadReport): Promise<void> {
    this.ctx = ctx;
    const next = ctx.config().mqtt!;
    if (JSON.stringify(next) === JSON.stringify(this.settings)) {
      // The physical units may have changed: Home Assistant hears of the MAIN displays now configured.
      if (this.ha && this.link?.connectedNow()) {
        this.link.subscribe(this.ha.subscriptions());
        this.ha.announce(this.link);
      }
      if (this.link?.connectedNow()) this.sweep(this.link);
      this.statusSoon();
      // Displays may have come or gone: their desired content is a part now, or no longer.
      this.desired.converge();
      return;
    }
    this.carry();
    await this.link?.stop();
    this.link = undefined;
    if (this.ready) await this.connect(next);
    else this.settings = next;
  }

  private carry(): void {
    const s = this.link?.status();
    if (!s) return;
    const c = this.carried;
    this.carried = {
      messagesIn: c.messagesIn + s.messagesIn,
      messagesOut: c.messagesOut + s.messagesOut,
      reconnects: c.reconnects + s.reconnects,
      reconnectAttempts: c.reconnectAttempts + s.reconnectAttempts,
      dropped: c.dropped + s.confirmations.dropped,
    };
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.desired.stop();
    this.statusOut.stop();
    await this.link?.stop();
    this.link = undefined;
    this.ctx = undefined;
  }

  status(): object {
    const s = this.settings;
    const l = this.link?.status();
    const c = this.carried;
    return {
      ...l,
      ...(l
        ? {
            reconnects: c.reconnects + l.reconnects,
            reconnectAttempts: c.reconnectAttempts + l.reconnectAttempts,
            messagesIn: c.messagesIn + l.messagesIn,
            messagesOut: c.messagesOut + l.messagesOut,
            confirmations: { ...l.confirmations, dropped: c.dropped + l.confirmations.dropped },
          }
        : {}),
      unit: s?.unit,
      prefix: s?.prefix,
      groups: s?.groups,
      homeAssistant: s?.homeAssistant,
      ignored: {
        retained: this.counters.retained,
        stale: this.counters.stale,
        duplicates: this.counters.duplicates,
        notThisUnit: this.counters.notMine,
      },
      commands: {
        applied: this.counters.applied,
        faulty: this.counters.faulty,
        shed: this.counters.shed,
        waiting: this.intake.length,
      },
      admin: {
        run: this.adminIn.run,
        shed: this.adminIn.shed,
        waiting: this.adminIn.waiting,
        refused: this.counters.adminRefused,
      },
      sessionExpiry: s?.sessionExpiry,
      desired: this.desired.status(),
    };
  }

  /** A broker away for a while, or a client id another unit uses. */
  problems(): ServiceProblem[] {
    return this.link ? linkProblems(this.link.status(), this.link.tlsFailureSince(), this.settings) : [];
  }

  private async connect(settings: MqttSettings): Promise<void> {
    const ctx = this.ctx!;
    this.settings = settings;
    const topics = (this.topics = topicsOf(settings));
    this.desired.topics(topics.desired);
    this.statusOut.every(settings.statusIntervalSeconds * 1000);
    const ha = (this.ha = settings.homeAssistant ? new HomeAssistant(ctx, settings, topics) : undefined);
    const link: BrokerLink = new BrokerLink(
      settings,
      topics,
      ctx.log,
      {
        connected: () => {
          link.subscribe([...commandTopics(topics), ...topics.desired, ...(ha?.subscriptions() ?? [])]);
          this.sweep(link);
          // Fresh after every reconnect: the broker may have lost the retained copy. Discovery first:
          // it publishes the light's state afresh, which the status then finds unchanged.
          ha?.announce(link);
          this.publishStatus(true);
          this.desired.connected();
        },
        message: (topic, payload, packet) => void this.message(topic, payload, packet),
        stateChanged: () => this.statusSoon(),
      },
      this.stateDir,
    );
    this.link = link;
    await link.start();
  }

  private async message(topic: string, payload: Buffer, packet: IPublishPacket): Promise<void> {
    const t = this.topics;
    if (!t || !this.ctx) return;
    // Desired state is retained by design: each document is the whole wish of its topic.
    if (this.desired.handles(topic)) {
      this.desired.document(topic, payload);
      return;
    }
    // Home Assistant's birth message may be retained; answering it again only re-sends discovery.
    if (packet.retain && topic !== HA_STATUS) {
      // A retained command would act again at every reconnect (ghost switching).
      this.counters.retained++;
      this.ctx.log.warn({ topic, bytes: payload.length }, 'mqtt: retained message ignored; clear it on the broker');
      return;
    }
    try {
      if (topic === t.admin || t.groupAdmins.includes(topic)) {
        this.adminIn.offer(topic, payload);
      } else if (topic === t.cmd || topic === t.allCmd || t.groupCmds.includes(topic)) {
        this.command(topic, payload, topic === t.cmd);
      } else if (this.ha?.handles(topic) && this.link) {
        await this.ha.message(topic, payload, this.link);
      }
    } catch (err) {
      // Never thrown out of a message handler: the connection must outlive any payload.
      this.ctx?.log.warn({ topic, err: (err as Error).message }, 'mqtt: message failed');
    }
  }

  private async admin(topic: string, payload: Buffer): Promise<void> {
    // Stopped meanwhile: nothing runs for a service that is going.
    if (!this.ctx) return;
    try {
      await answerAdmin(payload, this.ctx, {
        link: () => this.link,
        topics: () => this.topics!,
        changed: () => this.statusSoon(),
        keyRefused: (cmd, req) => {
          this.counters.adminRefused++;
          this.adminRefusedLog?.(topic, undefined, `cmd ${cmd ?? 'none'}, req ${req ?? 'none'}`);
        },
      });
    } catch (err) {
      this.ctx?.log.warn({ err: (err as Error).message }, 'mqtt: admin command failed');
    }
  }

  /** Not run: over ADMIN_PER_SECOND or beyond the admin lane. Answered MLDS_BUSY, counted, logged as counts. */
  private adminShed(topic: string, payload: Buffer, reason: 'rate' | 'queue', message: string): void {
    this.shedLog?.(topic, reason);
    const { req, cmd } = adminIds(payload);
    // QoS 0, as a shed command's MLDS_BUSY: best effort under a flood.
    if (this.link && this.topics)
      this.link.publish(this.topics.adminResult, JSON.stringify({ req, cmd, ok: false, code: 'MLDS_BUSY', message }), {
        retain: false,
        queued: true,
        qos: 0,
      });
  }

  /**
   * Decided at once, so a flood costs no memory: a command over the rate or beyond the intake
   * is shed (confirm 0, MLDS_BUSY); the rest wait their turn for the control path.
   */
  private command(topic: string, payload: Buffer, own: boolean): void {
    const ctx = this.ctx!;
    const p = parsePayload(payload);
    if (!own && p.id !== undefined && !ctx.config().displayById.has(p.id)) {
      this.counters.notMine++;
      return;
    }
    // Every command addressed to the unit counts, as every HTTP request does.
    if (!this.limiter.take(topic)) {
      this.shed(topic, p, 'rate', `more than ${ctx.config().rateLimit} commands per second on ${topic} (rateLimit)`);
      return;
    }
    if (!p.ok) {
      this.counters.faulty++;
      ctx.log.warn({ code: p.code, message: p.message, bytes: payload.length }, 'mqtt: faulty command');
      this.feedback(p.id, 2, p.inumber);
      this.reply({ inumber: p.inumber ?? null, confirm: 2, id: p.id ?? null, code: p.code, message: p.message });
      return;
    }
    const now = ctx.clock.now();
    if (p.ts !== undefined && now - p.ts > MAX_AGE_MS) {
      this.counters.stale++;
      const message = staleMessage(now - p.ts);
      ctx.log.warn({ id: p.id, inumber: p.inumber, ageMs: now - p.ts }, 'mqtt: stale command ignored');
      this.feedback(p.id, 0, p.inumber);
      if (p.inumber !== undefined)
        this.reply({ inumber: p.inumber, confirm: 0, id: p.id ?? null, code: 'MLDS_MQTT_STALE', message });
      return;
    }
    const digest = p.id !== undefined && p.inumber !== undefined ? digestOf(payload) : undefined;
    const earlier = digest ? this.recent.redelivery(p.id!, p.inumber!, digest, now) : undefined;
    if (earlier) {
      // A QoS 1 redelivery: acted on once, confirmed the same way again.
      this.counters.duplicates++;
      void earlier.then((c) => this.reply(c));
      return;
    }
    if (p.announce || p.readout) {
      // Words for the speech component: queued or refused at once, confirmed as a command is.
      const c = p.announce
        ? announcementConfirmation(ctx, p.id!, p.inumber, p.announce)
        : readoutConfirmation(ctx, p.id!, p.inumber);
      if (c.confirm === 2) this.counters.faulty++;
      if (digest) this.recent.remember(p.id!, p.inumber!, digest, now, Promise.resolve(c), true);
      const display = ctx.config().displayById.get(p.id!);
      if (display && p.inumber !== undefined) ctx.confirm(display, c.confirm, p.inumber);
      if (p.inumber !== undefined) this.reply(c);
      return;
    }
    let settle!: (c: Confirmation) => void;
    const result = new Promise<Confirmation>((resolve) => {
      settle = resolve;
    });
    if (
      !this.intake.offer(
        { query: p.query, id: p.id, inumber: p.inumber, settle, result: digest ? result : undefined },
        payload.length,
      )
    ) {
      this.shed(
        topic,
        p,
        'queue',
        `${this.intake.length} commands are waiting for the control path; send it again shortly`,
      );
      return;
    }
    // A shed command is not remembered: sent again, it is tried again.
    if (digest) this.recent.remember(p.id!, p.inumber!, digest, now, result);
    void result.then((c) => {
      if (digest && c.code === 'MLDS_STATE_UNWRITABLE') this.recent.forget(p.id!, p.inumber!, result);
      if (c.inumber !== null) this.reply(c);
    });
  }

  /** One command through the control path; its confirmation follows once a frame carried it out, or did not. */
  private async run(q: Queued): Promise<void> {
    this.applying = q;
    try {
      const r = await this.ctx!.apply(q.query, 'mqtt');
      // Placed under a higher level, it was committed without a state change told.
      this.took(q, true);
      this.counters.applied++;
      // Superseded content was executed: confirmed 1, with the message telling it was never on the panel.
      void r.written.then((o) => {
        const message =
          o === 'not shown'
            ? 'not written to the display'
            : o === 'shown'
              ? shownMessage(this.ctx?.unitFor(r.displayId)?.compositor.textFits(), r.displayId)
              : o;
        q.settle({
          inumber: r.inumber ?? null,
          confirm: o === 'not shown' ? 0 : 1,
          id: r.displayId,
          code: null,
          message,
        });
      });
    } catch (err) {
      this.took(q, false);
      const e = err as MldsError;
      // Not stored, so not executed (the controller confirmed 0 to the feedback address too); not faulty.
      const unstored = e instanceof MldsError && e.code === 'MLDS_STATE_UNWRITABLE';
      if (!unstored) this.counters.faulty++;
      q.settle({
        inumber: q.inumber ?? null,
        confirm: unstored ? 0 : 2,
        id: q.id ?? null,
        code: e instanceof MldsError ? e.code : 'MLDS_INTERNAL',
        message: maskText(e.message),
      });
    } finally {
      this.applying = undefined;
    }
  }

  /** The control path took `q`, once: applied, it is its display's last command; refused, the last is what it was. */
  private took(q: Queued, applied: boolean): void {
    if (q.took) return;
    q.took = true;
    if (q.result && q.id !== undefined && q.inumber !== undefined)
      this.recent.taken(q.id, q.inumber, q.result, applied);
    else if (applied && q.id !== undefined) this.recent.applied(q.id);
  }

  /**
   * Not applied: over the rate (`reason` rate) or beyond the intake (queue). Confirmed 0, counted, logged as counts.
   */
  private shed(topic: string, p: Parsed, reason: 'rate' | 'queue', message: string): void {
    this.counters.shed++;
    countCommand('mqtt', 'busy');
    this.shedLog?.(topic, reason);
    this.feedback(p.id, 0, p.inumber);
    // QoS 0, as the unit's own reading under a flood is best effort: a PUBACK for each of 100,000
    // sheds came back in bursts of thousands, and MQTT.js takes the packets of a socket read one
    // array shift at a time (1.7 s for one read).
    if (p.inumber !== undefined)
      this.reply({ inumber: p.inumber, confirm: 0, id: p.id ?? null, code: 'MLDS_BUSY', message }, 0);
  }

  /** The HTTP feedback address hears of what never reached the control path too. */
  private feedback(id: string | undefined, confirm: 0 | 2, inumber: string | undefined): void {
    const display = id === undefined ? undefined : this.ctx?.config().displayById.get(id);
    if (display && inumber !== undefined) this.ctx?.confirm(display, confirm, inumber);
  }

  private reply(c: Confirmation & { cmd?: string | null }, qos: 0 | 1 = 1): void {
    if (this.link && this.topics)
      this.link.publish(this.topics.confirm, JSON.stringify(c), { retain: false, queued: true, qos });
  }

  /** Clears what was retained under names the unit no longer has (a rename, a display removed). */
  private sweep(link: BrokerLink): void {
    if (this.settings && this.ctx)
      this.ledger?.sweep(
        link,
        retainedTopics(
          this.settings,
          this.ctx.config().units.map((u) => u.displayIds[0]!),
        ),
      );
  }

  private statusSoon(): void {
    if (this.link?.connectedNow()) this.statusOut.soon();
  }

  private publishStatus(always = false): void {
    this.statusOut.now(always);
  }

  /**
   * Where the summary goes now, and the status it is made from (Home Assistant's states go with each look); undefined
   * while offline.
   */
  private statusTarget(): StatusTarget | undefined {
    const link = this.link,
      topics = this.topics,
      ctx = this.ctx;
    if (!ctx || !link?.connectedNow() || !topics) return undefined;
    this.ha?.publishStates(link);
    return { status: () => ctx.status(), send: (doc) => link.publish(topics.status, doc, { retain: true }) };
  }
}

export function fleetComponent(stateDir?: string): Component {
  return new Fleet(stateDir);
}

// Words for a confirmation about texts cut at their area's edge (fit "clipped": a line wider
// than its area under overflow "pages" without wrap): the sender learns what the panel cut.
type DisplayFit = { display: string; area: string } & TextFit;

/** The message of a confirm=1: "shown", naming each area of `display` whose text is clipped and by how many pixels. */
export function shownMessage(fits: readonly DisplayFit[] | undefined, display: string): string {
  const cut = (fits ?? []).filter((f) => f.display === display && f.clippedPx);
  return cut.length ? `shown; ${cut.map((f) => `area "${f.area}" clipped by ${f.clippedPx} px`).join(', ')}` : 'shown';
}
