// The systemd-networkd file /setethernetconfig writes, and what it keeps to undo it.
//
//   <networkdDir>/10-mlds-<interface>.network            the configuration (networkd reads *.network,
//                                                       the first match in name order wins, so "10-"
//                                                       goes before a distribution's own file)
//   <networkdDir>/10-mlds-<interface>.network.rollback  JSON {previous: text | null, request, writtenAt}
//                                                       while a change is unconfirmed; networkd ignores it
//
// Rolling back writes `previous` back (or deletes the file when there was none, so the
// distribution's own file applies again) and applies the folder again.
import { constants } from 'node:fs';
import { access, readdir, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { MldsError } from '../errors.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import type { NetworkRequest } from '../capability/network.js';

export interface Pending {
  file: string;
  interface: string;
  previous: string | null;
  request: NetworkRequest;
  writtenAt: string;
}

export function networkFile(dir: string, iface: string): string {
  return path.join(dir, `10-mlds-${iface}.network`);
}

const markerOf = (file: string) => `${file}.rollback`;

export function renderNetworkFile(iface: string, req: NetworkRequest, at: string): string {
  const head =
    `# Written by mlds /setethernetconfig at ${at}.\n# Restored to the previous file when the gateway ` +
    `does not answer in time.\n[Match]\nName=${iface}\n\n[Network]\n`;
  if (req.dhcp) return `${head}DHCP=ipv4\n`;
  const dns = req.dns.map((d) => `DNS=${d}\n`).join('');
  return `${head}DHCP=no\nAddress=${req.ip}/${req.prefix}\nGateway=${req.gateway}\n${dns}`;
}

async function readOrNull(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Writes the new file after recording the one it replaces; nothing is written when the folder cannot be. */
export async function writeNetworkFile(dir: string, iface: string, req: NetworkRequest, at: string): Promise<Pending> {
  try {
    await access(dir, constants.W_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new MldsError(
      'MLDS_NETWORK_UNAVAILABLE',
      `the systemd-networkd folder ${dir} ${code === 'ENOENT' ? 'does not exist' : 'cannot be written'} ` +
        `(network.networkdDir in config.json); nothing was changed`,
    );
  }
  const file = networkFile(dir, iface);
  const pending: Pending = { file, interface: iface, previous: await readOrNull(file), request: req, writtenAt: at };
  try {
    // The way back is on disk before the change is, so a restart in between can still undo it.
    await writeFileAtomic(markerOf(file), JSON.stringify(pending));
    await writeFileAtomic(file, renderNetworkFile(iface, req, at));
  } catch (err) {
    await unlink(markerOf(file)).catch(() => undefined);
    throw new MldsError(
      'MLDS_NETWORK_UNAVAILABLE',
      `writing ${file} failed (${(err as Error).message}); nothing was changed`,
    );
  }
  return pending;
}

/** Puts the previous file back (or removes ours when there was none). */
export async function restoreNetworkFile(p: Pending): Promise<void> {
  if (p.previous === null)
    await unlink(p.file).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
  else await writeFileAtomic(p.file, p.previous);
}

/** The change is confirmed (or undone): nothing left to roll back. */
export async function forgetPending(p: Pending): Promise<void> {
  await unlink(markerOf(p.file)).catch(() => undefined);
}

/** Changes a stopped service left unconfirmed (it stopped or crashed while watching). */
export async function unconfirmed(dir: string): Promise<Pending[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const out: Pending[] = [];
  for (const n of names.filter((x) => /^10-mlds-.+\.network\.rollback$/.test(x))) {
    try {
      const p = JSON.parse(await readFile(path.join(dir, n), 'utf8')) as Pending;
      // The file is where the marker is, whatever the marker says.
      if (typeof p.interface === 'string' && p.request)
        out.push({ ...p, file: path.join(dir, n.slice(0, -'.rollback'.length)) });
    } catch {
      /* a marker cut by a power loss says nothing usable */
    }
  }
  return out;
}
