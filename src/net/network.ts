// The network capability: reads the interface for /getethernetconfig and carries out
// /setethernetconfig: write the networkd file, answer, apply, then watch the new gateway and
// put the previous file back when it does not answer within network.rollbackSeconds, so a
// technician's typo cannot take a unit in the field off the network for good.
import { MldsError } from '../errors.js';
import type { Component, RuntimeContext } from '../capability/component-contract.js';
import { applyCommand, run } from './commands.js';
import { MDNS, NETWORK, type EthernetConfig, type NetworkControl, type NetworkRequest } from '../capability/network.js';
import { gatewayOf, readEthernet, resolveInterface } from './ethernet-read.js';
import { forgetNeighbour, gatewayAnswers } from './gateway.js';
import { forgetPending, restoreNetworkFile, unconfirmed, writeNetworkFile, type Pending } from './networkd.js';

/** A reading of the interface serves every request within this long (each reading runs `ip` three times). */
const READ_FRESH_MS = 1000;
/** Between two looks at the gateway (each look itself waits a second for ARP). */
const PROBE_INTERVAL_MS = 1000;
const HISTORY = 5;

export type ChangeState = 'written' | 'applying' | 'watching' | 'confirmed' | 'rolled back' | 'failed';

export interface ChangeEvent {
  at: string;
  interface: string;
  request: string;
  state: ChangeState;
  /** When the previous configuration comes back unless the gateway answers. */
  rollbackAt?: string;
  doneAt?: string;
  message?: string;
  /** After a restart in the middle of a watch. */
  resumed?: boolean;
}

type NetworkComponent = Component & NetworkControl;

export function describeRequest(req: NetworkRequest): string {
  return req.dhcp
    ? 'dhcp=true'
    : `dhcp=false ip=${req.ip}/${req.prefix} gateway=${req.gateway} dns=${req.dns.join(',')}`;
}

export function networkComponent(): NetworkComponent {
  let ctx: RuntimeContext | undefined;
  let busy: { until?: number } | undefined;
  let timer: unknown;
  let stopped = false;
  const history: ChangeEvent[] = [];
  // Requests arriving together share one reading; a change forgets it.
  let reading: { at: number; value: Promise<EthernetConfig> } | undefined;
  const read = () => {
    const t = Date.now();
    if (!reading || t - reading.at > READ_FRESH_MS) {
      const value = readEthernet(c().config().network);
      reading = { at: t, value };
      value.catch(() => {
        if (reading?.value === value) reading = undefined;
      });
    }
    return reading.value;
  };

  const c = () => {
    if (!ctx) throw new MldsError('MLDS_NETWORK_UNAVAILABLE', 'the network capability is not running');
    return ctx;
  };
  const now = () => new Date(c().clock.now()).toISOString();
  const record = (ev: ChangeEvent) => {
    history.unshift(ev);
    history.splice(HISTORY);
  };

  const applyFolder = async (): Promise<string | undefined> => {
    const argv = applyCommand();
    const r = await run(argv, 60_000);
    return r.code === 0
      ? undefined
      : `${argv.join(' ')} exited with ${r.code}${r.stderr.trim() ? `: ${r.stderr.trim().slice(0, 300)}` : ''}`;
  };

  const settle = (p: Pending, ev: ChangeEvent, state: ChangeState, message: string) => {
    reading = undefined;
    ev.state = state;
    ev.message = message;
    ev.doneAt = now();
    busy = undefined;
    const level = state === 'confirmed' ? 'info' : 'warn';
    c().log[level]({ interface: p.interface, request: ev.request, state }, `network change ${state}: ${message}`);
    // Its addresses changed (or came back): the announcement must say where the unit is now.
    void c().component(MDNS)?.reannounce();
  };

  const rollback = async (p: Pending, ev: ChangeEvent, why: string) => {
    try {
      await restoreNetworkFile(p);
      const failed = await applyFolder();
      await forgetPending(p);
      settle(
        p,
        ev,
        failed ? 'failed' : 'rolled back',
        failed
          ? `${why}; the previous file is back but applying it failed: ${failed}`
          : `${why}; the previous configuration is restored`,
      );
    } catch (err) {
      settle(p, ev, 'failed', `${why}; restoring the previous file failed: ${(err as Error).message}`);
    }
  };

  const watch = async (p: Pending, ev: ChangeEvent) => {
    const seconds = c().config().network.rollbackSeconds;
    const deadline = c().clock.now() + seconds * 1000;
    ev.state = 'watching';
    ev.rollbackAt = new Date(deadline).toISOString();
    busy = { until: deadline };
    if (!p.request.dhcp) await forgetNeighbour(p.interface, p.request.gateway);
    const round = async () => {
      if (stopped) return;
      let gw: string | null = p.request.dhcp ? null : p.request.gateway;
      try {
        if (p.request.dhcp) gw = (await gatewayOf(p.interface)).gateway;
        if (gw && (await gatewayAnswers(p.interface, gw))) {
          await forgetPending(p);
          return settle(p, ev, 'confirmed', `gateway ${gw} answers`);
        }
      } catch {
        /* `ip` failing counts as no answer */
      }
      if (stopped) return;
      if (c().clock.now() >= deadline)
        return rollback(
          p,
          ev,
          gw ? `gateway ${gw} did not answer within ${seconds} s` : `no DHCP lease with a gateway within ${seconds} s`,
        );
      timer = c().clock.setTimeout(() => void round(), PROBE_INTERVAL_MS);
    };
    await round();
  };

  const applyAndWatch = async (p: Pending, ev: ChangeEvent) => {
    ev.state = 'applying';
    const failed = await applyFolder();
    reading = undefined;
    if (failed) return rollback(p, ev, `applying failed: ${failed}`);
    await watch(p, ev);
  };

  return {
    name: NETWORK.name,
    async start(context) {
      ctx = context;
      stopped = false;
      // A change the service stopped watching (restart, crash): watch it again from now.
      const left = await unconfirmed(context.config().network.networkdDir);
      if (!left.length) return;
      busy = {};
      void (async () => {
        for (const p of left) {
          const ev: ChangeEvent = {
            at: p.writtenAt,
            interface: p.interface,
            request: describeRequest(p.request),
            state: 'watching',
            resumed: true,
          };
          record(ev);
          context.log.warn(
            { interface: p.interface, request: ev.request },
            'an unconfirmed network change was found at start; watching its gateway again',
          );
          await watch(p, ev);
        }
      })();
    },
    // The interface may be another one now.
    async reload(context) {
      ctx = context;
      reading = undefined;
    },
    async stop() {
      stopped = true;
      if (ctx && timer !== undefined) ctx.clock.clearTimeout(timer);
      timer = undefined;
    },
    read,
    busySeconds: () =>
      busy ? Math.max(1, Math.ceil(((busy.until ?? c().clock.now()) - c().clock.now()) / 1000)) : undefined,
    async change(req) {
      const context = c();
      if (busy)
        throw new MldsError(
          'MLDS_NETWORK_BUSY',
          'a network change is still being applied or watched; retry once it is confirmed or rolled back',
        );
      // Taken before the first await: a second request in between must see it.
      busy = {};
      try {
        const settings = context.config().network;
        const link = await resolveInterface(settings);
        const at = now();
        const p = await writeNetworkFile(settings.networkdDir, link.ifname, req, at);
        const ev: ChangeEvent = { at, interface: link.ifname, request: describeRequest(req), state: 'written' };
        record(ev);
        context.log.info({ interface: link.ifname, request: ev.request, file: p.file }, 'network change written');
        return {
          answer: { interface: link.ifname, file: p.file, rollbackSeconds: settings.rollbackSeconds },
          apply: () => void applyAndWatch(p, ev).catch((err: Error) => settle(p, ev, 'failed', err.message)),
        };
      } catch (err) {
        busy = undefined;
        throw err;
      }
    },
    status: () => ({
      interface: ctx?.config().network.interface ?? 'automatic',
      networkdDir: ctx?.config().network.networkdDir,
      rollbackSeconds: ctx?.config().network.rollbackSeconds,
      busy: busy !== undefined,
      changes: history,
    }),
  };
}
