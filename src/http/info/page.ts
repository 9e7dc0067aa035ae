// The technician's page: the same facts as /status, readable on a phone, with a live picture
// of every display. Server-rendered so it works with no build step and no external assets.
// It never holds a credential: its live pictures authenticate with a cookie (view-tokens.ts).
import { SCRIPT, STYLE } from './assets.js';
import { displayCard } from './card.js';
import { componentCards } from './components.js';
import type { Status } from '../../capability/status-types.js';
import { duration, esc, readableQuery, row, text, when, type Obj } from './format.js';

export interface InfoPageOptions {
  /** How often the page refreshes its facts (default 5 s). */
  refreshMs?: number;
}

interface Address {
  interface: string;
  address: string;
  mac?: string;
}

/** One address at the top of the page, with its interface and MAC. */
function address(a: Address): string {
  const mac = a.mac ? ` <span class="note">MAC ${esc(a.mac)}</span>` : '';
  return `<span><b>${esc(a.address)}</b> ${esc(a.interface)}${mac}</span>`;
}

/** Faults in the configuration file, each with its JSON path. */
function configFaults(faults: Array<{ path: string; message: string }>): string {
  if (!faults.length) return '';
  const item = (f: { path: string; message: string }) =>
    `<li><code class="path">${text(f.path || '/')}</code>: ${text(f.message)}</li>`;
  return `<ul class="faults bad">${faults.map(item).join('')}</ul>`;
}

/** Hostname and addresses: two controllers' pages side by side must be told apart at a glance. */
function identity(status: Obj): { host: string; addresses: Address[] } {
  const id = (status.identity ?? {}) as Obj;
  return { host: String(id.hostname ?? 'unknown host'), addresses: (id.addresses as Address[] | undefined) ?? [] };
}

function problems(status: Obj, zone: string): string {
  const list = (status.problems as Obj[] | undefined) ?? [];
  if (!list.length) return '';
  const item = (p: Obj) =>
    `<li><b>${esc(p.source)}</b>: ` +
    `${text(p.message)}${p.since ? `<div class="note">since ${when(p.since, zone)}</div>` : ''}</li>`;
  return `<ul class="problems bad">${list.map(item).join('')}</ul>`;
}

/** The last /load_config?url=: a technician who sent one sees whether it took. */
function archive(a: Obj | undefined, zone: string): string {
  if (!a) return '';
  return row(
    'Last archive',
    `${when(a.at, zone)} ${text(a.url)}<div>${text(a.message)}</div>`,
    a.result === 'ok' ? 'ok' : 'bad',
  );
}

function facts(status: Obj, zone: string): string {
  const cfg = (status.config ?? {}) as Obj;
  const { host, addresses } = identity(status);
  const faults = (cfg.faults as Array<{ path: string; message: string }> | undefined) ?? [];
  const recent = ((status.recentFaults as Obj[] | undefined) ?? [])
    .map(
      (f) =>
        `<li>${when(f.at, zone)} <code>${esc(f.code)}</code>: ${text(f.message)}<div ` +
        `class="note">${readableQuery(f.query)}</div></li>`,
    )
    .join('');
  const uptime = Number(status.uptimeSeconds);
  const started =
    typeof status.time === 'string' ? new Date(Date.parse(status.time) - uptime * 1000).toISOString() : undefined;
  const configuration =
    cfg.status === 'ok'
      ? `ok, loaded ${when(cfg.loadedAt, zone)}`
      : `${faults.length} ${faults.length === 1 ? 'fault' : 'faults'} in the file ` +
        `(below)${cfg.lastAttemptAt ? `, found ${when(cfg.lastAttemptAt, zone)}` : ''}; still running the ` +
        `configuration loaded ${when(cfg.loadedAt, zone)}`;
  const ident = addresses.length ? addresses.map(address).join(' ') : '<span class="dim">no IPv4 address</span>';
  return `<section class="card" id="facts">
<h1>${esc(host)} <small>mlds ${esc(status.version)}</small></h1>
<div class="ident">${ident}</div>
${problems(status, zone)}
<table class="kv"><tbody>
${row('System time', when(status.time, zone))}
${row('Time zone', esc(zone))}
${row('Uptime', `${esc(duration(uptime))}${started ? ` <span class="note">since ${when(started, zone)}</span>` : ''}`)}
${row('Configuration', configuration, cfg.status === 'ok' ? 'ok' : 'bad')}
${row('Config file', cfg.file ? `${text(cfg.file)}` : undefined)}
${archive(cfg.lastArchive as Obj | undefined, zone)}
</tbody></table>
${configFaults(faults)}
${recent ? `<h2>Faulty commands for unknown displays</h2><ul class="faults bad">${recent}</ul>` : ''}
</section>`;
}

export function renderInfoPage(typed: Status | Obj, opts: InfoPageOptions = {}): string {
  // The page reads the status defensively, field by field (a `sendInfo` POST of an older
  // unit's status renders too), so it walks it as plain JSON.
  const status = typed as unknown as Obj;
  const zone = String(status.timezone ?? 'UTC');
  const { host, addresses } = identity(status);
  const displays = (status.displays as Obj[] | undefined) ?? [];
  const sharing = (d: Obj) =>
    displays.filter((o) => o !== d && o.unit !== undefined && o.unit === d.unit).map((o) => String(o.id));
  const title = [host, ...addresses.map((a) => a.address)].join(' ');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="icon" href="data:,">
<title>${esc(title)} · mlds status</title>
<style>${STYLE}</style></head><body data-refresh-ms="${Math.round(opts.refreshMs ?? 5000)}">
<p id="stale" hidden></p>
${facts(status, zone)}
<div id="components">${componentCards(status, zone)}</div>
<main id="displays">
${displays.map((d) => displayCard(d, zone, sharing(d))).join('\n')}
</main>
<script>${SCRIPT}</script>
</body></html>`;
}
