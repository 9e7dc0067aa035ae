// A software update's cost on the running service: a 200 MB RAUC bundle served on loopback,
// downloaded, checked (SHA-256) and installed by a real rauc service (test/helpers/rauc.ts:
// private D-Bus, file slots) through GET /update; the service's RSS before, its peak during
// (VmRSS sampled every 100 ms) and after, and the time of each
// step seen on /status. Needs root and the packages of test/update. Run alone with
// `node --expose-gc --import tsx bench/update.ts` (MLDS_BENCH_UPDATE_MB changes the size).
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { freePort } from '../test/helpers/ports.js';
import { RaucRig, raucMissing } from '../test/helpers/rauc.js';
import { baseConfig, get, serviceDir, start, until } from '../test/helpers/service.js';

const MB = Number(process.env.MLDS_BENCH_UPDATE_MB ?? 200);

const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;

export async function benchUpdate(): Promise<string> {
  const missing = raucMissing();
  if (missing) return `update: skipped (${missing})`;
  const rig = new RaucRig();
  await rig.start('A');
  // Only the file stays: the bundle is served by another process, so this one's RSS is the service's.
  const { file, sha256 } = rig.bundle('9.9.9', MB * 1024 * 1024);
  const port = await freePort();
  const server = spawn(
    'python3',
    ['-m', 'http.server', '--bind', '127.0.0.1', '--directory', path.dirname(file), String(port)],
    { stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}/${path.basename(file)}`;
  await until(
    async () => (await fetch(url, { method: 'HEAD' }).catch(() => undefined))?.ok === true,
    10_000,
    'the bundle server',
  );
  const cfg = baseConfig();
  cfg.updateMaxMB = MB + 16;
  const sd = serviceDir(cfg);
  Object.assign(process.env, {
    DBUS_SYSTEM_BUS_ADDRESS: rig.bus,
    MLDS_RAUC_CONF: rig.conf,
    MLDS_REBOOT_COMMAND: 'true',
    MLDS_BOOT_ID_FILE: rig.bootIdFile,
  });
  const svc = await start(sd);
  const load0 = loadavg()[0];
  const bundleBytes = statSync(file).size;
  global.gc?.();
  const before = rss();
  let peak = before;
  const steps = new Map<string, number>();
  const t0 = performance.now();
  const sampler = setInterval(() => {
    peak = Math.max(peak, rss());
    void get(svc, '/status').then(
      (r) => {
        const s = (r.json as { components: { update: { state: string } } }).components.update.state;
        if (!steps.has(s)) steps.set(s, performance.now() - t0);
      },
      () => undefined,
    );
  }, 100);
  const r = await get(svc, `/update?url=${encodeURIComponent(url)}&sha256=${sha256}`);
  const total = performance.now() - t0;
  clearInterval(sampler);
  const after = rss();
  await svc.close();
  server.kill();
  await rig.cleanup();
  sd.cleanup();
  const at = (s: string) => (steps.has(s) ? `${(steps.get(s)! / 1000).toFixed(1)} s` : 'not seen');
  return [
    `update: a ${(bundleBytes / 1048576).toFixed(0)} MB bundle through GET /update (HTTP ${r.status}), load ` +
      `average ${load0.toFixed(2)} at the start`,
    `  whole update ${(total / 1000).toFixed(1)} s; /status first showed installing at ${at('installing')}, ` +
      `rebooting at ${at('rebooting')}`,
    `  RSS of the service's process: ${before.toFixed(0)} MB before, ${peak.toFixed(0)} MB at most during, ` +
      `${after.toFixed(0)} MB after`,
  ].join('\n');
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) console.log(await benchUpdate());
