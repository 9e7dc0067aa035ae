// The last update, kept in the state folder (`update.json`) across the reboot it ends with:
//   {"v":1,"last":{"outcome","version","slot","from","at","decidedAt","markedGood","message"},
//    "bootId":"<the kernel's boot id when it was installed>"}
// The boot id tells a service restarted before the reboot (same boot: still `rebooting`) from
// one started after it (booted the old slot again: `fell-back`).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { LastUpdate } from '../capability/update-status.js';
import { writeFileAtomic } from '../util/atomic-file.js';

export interface UpdateRecord {
  last: LastUpdate;
  bootId?: string;
}

const FILE = 'update.json';
const MAX_BYTES = 64 * 1024;

export function recordFile(stateDir: string): string {
  return path.join(stateDir, FILE);
}

/** The record, or undefined when there is none or it cannot be read (a damaged one is ignored: it only informs). */
export async function readRecord(stateDir: string): Promise<UpdateRecord | undefined> {
  try {
    const text = await readFile(recordFile(stateDir), 'utf8');
    if (text.length > MAX_BYTES) return undefined;
    const o = JSON.parse(text) as { v?: number; last?: LastUpdate; bootId?: string };
    if (o.v !== 1 || typeof o.last?.outcome !== 'string' || typeof o.last.at !== 'string') return undefined;
    return { last: o.last, bootId: typeof o.bootId === 'string' ? o.bootId : undefined };
  } catch {
    return undefined;
  }
}

export async function writeRecord(stateDir: string, r: UpdateRecord): Promise<void> {
  await writeFileAtomic(recordFile(stateDir), `${JSON.stringify({ v: 1, ...r })}\n`);
}

/** The kernel's id of this boot (a new one each boot); MLDS_BOOT_ID_FILE names another file (tests). */
export async function bootId(env = process.env): Promise<string | undefined> {
  try {
    return (await readFile(env.MLDS_BOOT_ID_FILE ?? '/proc/sys/kernel/random/boot_id', 'utf8')).trim() || undefined;
  } catch {
    return undefined;
  }
}
