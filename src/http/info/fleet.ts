// The broker connection (components.fleet) and the unit's health (components.health) on /info:
// what a technician checks first when a unit does not answer over MQTT or runs hot.
import { esc, kvCard, row, text, when, type Obj } from './format.js';

const MB = 1024 * 1024;

export function fleetCard(f: Obj, zone: string): string {
  const ok = f.state === 'connected';
  const inUse = f.clientIdInUse as Obj | null | undefined;
  const conf = (f.confirmations ?? {}) as Obj;
  const ign = (f.ignored ?? {}) as Obj;
  const since = f.since ? ` <span class="note">since ${when(f.since, zone)}</span>` : '';
  const retry =
    f.retryInMs !== undefined
      ? ` <span class="note">next attempt in ${esc(Math.ceil(Number(f.retryInMs) / 1000))} s</span>`
      : '';
  const groups = (f.groups as string[] | undefined) ?? [];
  const rows = [
    row('Broker', `${text(f.broker)} <span class="note">as ${esc(f.clientId)}</span>`),
    row('State', `${esc(f.state)}${since}${retry}`, ok ? '' : 'bad'),
    f.lastError ? row('Last error', text(f.lastError), ok ? '' : 'bad') : '',
    inUse
      ? row(
          'Client id in use',
          `${esc(inUse.times)} time(s), last ${when(inUse.last, zone)}: ` +
            `another unit has the unit name "${esc(f.unit)}"?`,
          'bad',
        )
      : '',
    row('Topics', `${esc(f.prefix)}/${esc(f.unit)}/…${groups.length ? `, groups ${esc(groups.join(', '))}` : ''}`),
    row(
      'Messages',
      `${esc(f.messagesIn)} in, ${esc(f.messagesOut)} out, ${esc(f.reconnects)} reconnects` +
        ` <span class="note">(${esc(f.reconnectAttempts)} attempts)</span>`,
    ),
    row(
      'Confirmations waiting',
      `${esc(conf.queued ?? 0)}${Number(conf.dropped) ? `, ${esc(conf.dropped)} dropped` : ''}`,
      Number(conf.dropped) ? 'bad' : '',
    ),
    desiredRow(f.desired as Obj | undefined),
    row(
      'Ignored',
      `${esc(ign.retained ?? 0)} retained, ${esc(ign.stale ?? 0)} stale, ` +
        `${esc(ign.duplicates ?? 0)} repeated, ${esc(ign.notThisUnit ?? 0)} for other units`,
    ),
  ].join('');
  return kvCard('fleet', 'Fleet (MQTT)', rows);
}

/** The desired state: converged or not, and each part that is not ok with its message. */
function desiredRow(d: Obj | undefined): string {
  if (!d || d.converged === null || d.converged === undefined) return '';
  const parts = Object.entries((d.parts ?? {}) as Record<string, Obj>).filter(([, p]) => p.state !== 'ok');
  const rev = d.rev === null || d.rev === undefined ? '' : ` <span class="note">rev ${esc(d.rev)}</span>`;
  const open = parts.map(([name, p]) => `<br>${esc(name)}: ${esc(p.state)}, ${text(p.message)}`).join('');
  return row('Desired state', `${d.converged ? 'converged' : 'not converged'}${rev}${open}`, d.converged ? '' : 'bad');
}

export function healthCard(h: Obj): string {
  const clock = (h.clock ?? {}) as Obj;
  const mem = (h.memory ?? {}) as Obj;
  const load = (h.load as number[] | undefined) ?? [];
  const disks = (h.disks as Obj[] | undefined) ?? [];
  const mb = (bytes: unknown) => esc((Number(bytes) / MB).toFixed(0));
  const temperature =
    h.temperatureC === null || h.temperatureC === undefined
      ? ''
      : `${esc(h.temperatureC)} °C <span class="note">${esc(h.temperatureZone)}</span>`;
  const synced =
    clock.synchronized === true ? 'synchronized' : clock.synchronized === false ? 'not synchronized' : 'unknown';
  const free = (d: Obj) =>
    `${mb(d.freeBytes)} MB of ${mb(d.totalBytes)} MB (${esc(d.freePercent)} %) <span ` +
    `class="note">${text(d.path)}</span>`;
  const rows = [
    row('Temperature', temperature),
    row('Clock', `${synced} <span class="note">${esc(clock.source)}</span>`, clock.held ? 'bad' : ''),
    clock.held ? row('Clock guard', text(clock.held), 'bad') : '',
    ...disks.map((d) => row(`Free in ${String(d.folder)}`, free(d), Number(d.freePercent) < 5 ? 'bad' : '')),
    row('Load', load.map((l) => esc(l)).join(' / ')),
    row(
      'Memory',
      `${mb(mem.availableBytes)} MB available of ${mb(mem.totalBytes)} MB; ` +
        `the service ${mb(mem.serviceRssBytes)} MB`,
    ),
  ].join('');
  return kvCard('health', 'Health', rows);
}
