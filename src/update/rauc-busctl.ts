// RaucClient over RAUC's D-Bus service through systemd's busctl, so the service needs no D-Bus
// library. RAUC (1.8) on the system bus (DBUS_SYSTEM_BUS_ADDRESS when set, which busctl honours):
//   service de.pengutronix.rauc, object /, interface de.pengutronix.rauc.Installer
//   InstallBundle(s source, a{sv} args)     starts an installation and returns at once
//   Mark(s state, s slot) -> (s slot, s message)      state good|bad|active, slot booted|other|<name>
//   GetSlotStatus() -> a(sa{sv})            per slot: bootname, state, boot-status, bundle.version, installed.timestamp
//   properties Operation (s: idle|installing), LastError (s), Progress ((isi): percent, message, depth), BootSlot (s)
//   signal Completed(i)                     not used: Operation back at idle says the same
// `busctl --json=short` prints one JSON value per line: {"type":"s","data":"idle"}; a method's
// reply is {"type":"<signature>","data":[...the out arguments]}.
// InstallBundle sets Operation to `installing` and clears LastError before it replies, so once
// Operation reads `idle` again the installation has ended and LastError tells how.
import { execFile } from 'node:child_process';
import { MldsError } from '../errors.js';
import { childEnv } from '../util/child-env.js';
import type { RaucClient, RaucInstallResult, RaucProgress, RaucSlot } from './rauc.js';

const DEST = ['de.pengutronix.rauc', '/', 'de.pengutronix.rauc.Installer'];
const CALL_TIMEOUT_S = 20;
const POLL_MS = 250;
/** An installation that has not ended after this long is reported failed (RAUC hangs). */
const INSTALL_LIMIT_MS = 60 * 60_000;

interface Variant {
  type: string;
  data: unknown;
}

function busctl(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'busctl',
      ['--system', '--json=short', `--timeout=${CALL_TIMEOUT_S}`, ...args],
      { env: childEnv(), timeout: (CALL_TIMEOUT_S + 5) * 1000, maxBuffer: 1024 * 1024 },
      (err, stdout, stderr) => {
        if (!err) return resolve(stdout);
        const why = (stderr.trim().split('\n')[0] || err.message).slice(0, 300);
        const e = err as NodeJS.ErrnoException;
        if (e.code === 'ENOENT')
          return reject(
            new MldsError(
              'MLDS_UNAVAILABLE',
              'software updates need busctl (systemd) to reach RAUC, and it is not installed',
            ),
          );
        reject(new RaucCallError(why));
      },
    );
  });
}

/** RAUC answered a call with an error, or could not be reached. */
class RaucCallError extends Error {}

/** What busctl says when no bus or no RAUC service answers, as opposed to RAUC refusing the call. */
const NO_SERVICE = new RegExp(
  [
    'connect to bus',
    'not activatable',
    'not provided by any',
    'ServiceUnknown',
    'unit .* not found',
    'No such file',
    'Connection refused',
    'Transport endpoint',
    'timed out',
  ].join('|'),
  'i',
);

/** RAUC cannot be reached (no bus, no service): MLDS_UNAVAILABLE; else RAUC refused the call: MLDS_UPDATE_FAILED. */
function unreachable(err: unknown): Error {
  if (!(err instanceof RaucCallError)) return err as Error;
  if (NO_SERVICE.test(err.message)) {
    return new MldsError(
      'MLDS_UNAVAILABLE',
      `RAUC's D-Bus service (de.pengutronix.rauc) does not answer: ${err.message}`,
    );
  }
  return new MldsError('MLDS_UPDATE_FAILED', `RAUC refused: ${err.message}`);
}

async function properties(...names: string[]): Promise<unknown[]> {
  const out = await busctl(['get-property', ...DEST, ...names]).catch((err: unknown) => {
    throw unreachable(err);
  });
  return out
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as Variant).data);
}

async function call(method: string, signature: string, ...args: string[]): Promise<unknown[]> {
  const out = await busctl(['call', ...DEST, method, ...(signature ? [signature, ...args] : [])]).catch(
    (err: unknown) => {
      throw unreachable(err);
    },
  );
  const text = out.trim();
  return text ? ((JSON.parse(text) as Variant).data as unknown[]) : [];
}

const str = (v: Variant | undefined) => (v && typeof v.data === 'string' ? v.data : undefined);

function slotOf(name: string, dict: Record<string, Variant>): RaucSlot {
  return {
    name,
    bootname: str(dict.bootname) ?? name,
    state: str(dict.state) ?? 'unknown',
    bootStatus: str(dict['boot-status']),
    version: str(dict['bundle.version']),
    installedAt: str(dict['installed.timestamp']),
  };
}

export function busctlRauc(): RaucClient {
  return {
    async bootSlot() {
      const [slot] = await properties('BootSlot');
      return String(slot);
    },
    async slots() {
      const [list] = await call('GetSlotStatus', '');
      return (list as Array<[string, Record<string, Variant>]>)
        .map(([name, dict]) => slotOf(name, dict))
        .sort((a, b) => a.name.localeCompare(b.name));
    },
    async install(bundlePath, onProgress) {
      const [operation] = await properties('Operation');
      if (operation !== 'idle')
        throw new MldsError('MLDS_UPDATE_BUSY', `RAUC is busy (${String(operation)}); nothing was started`);
      await call('InstallBundle', 'sa{sv}', bundlePath, '0');
      const until = Date.now() + INSTALL_LIMIT_MS;
      let last = '';
      while (Date.now() < until) {
        const [op, error, progress] = await properties('Operation', 'LastError', 'Progress');
        const [percent, message, depth] = progress as [number, string, number];
        const seen = `${percent} ${message}`;
        if (seen !== last) {
          last = seen;
          onProgress({ percent, message, depth } satisfies RaucProgress);
        }
        if (op === 'idle')
          return (error ? { ok: false, error: String(error) } : { ok: true }) satisfies RaucInstallResult;
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
      return { ok: false, error: `RAUC has not finished after ${INSTALL_LIMIT_MS / 60_000} minutes` };
    },
    async mark(state, slot) {
      const [name, message] = await call('Mark', 'ss', state, slot);
      return { slot: String(name), message: String(message) };
    },
  };
}
