import { hostname } from 'node:os';
import path from 'node:path';
import { ConfigError } from '../config/faults.js';
import { loadServiceConfig } from './load-config.js';
import { MldsError } from '../errors.js';
import { checkUrl, describeUrl } from '../fetch/url-rules.js';
import { summary, type ArchiveLoadReport } from '../config/diff.js';
import type { Runtime } from './runtime.js';

export interface ArchiveDeps {
  runtime: Runtime;
  configFile: string;
  /** The unit's own part: the archive is checked with it merged over, as it will run. */
  unitFile?: string;
  /** Folders inside the service directory that are not configuration (state, logs): never swapped out. */
  keep: Array<string | undefined>;
  /** Download limits (tests shorten them). */
  fetch?: { maxBytes?: number; timeoutMs?: number };
}

/**
 * GET /load_config: a configuration archive from a URL is downloaded, checked, extracted to a
 * staging folder and validated by the same code as `mlds start`, then swapped in (crash-safe,
 * src/config/archive/swap.ts) and reloaded. Any failure before the swap changes nothing.
 * Without a URL, the running configuration goes out as a zip that loads onto another unit.
 */
export class ConfigArchives {
  private loading = false;
  private swapping = false;

  constructor(private readonly deps: ArchiveDeps) {}

  /** True while an archive is being swapped in: other requests get 503. */
  busy(): boolean {
    return this.swapping;
  }

  async load(rawUrl: string, sha256?: string): Promise<ArchiveLoadReport> {
    // The running configuration's urlPortRange applies here as to every other fetched URL.
    const portRange = this.deps.runtime.config.urlPortRange;
    checkUrl(rawUrl, portRange);
    // The zip libraries are loaded on the first use: a unit that never loads an archive pays nothing for them.
    const [{ discardStaging, stageFromUrl }, { removedFiles, swapConfiguration }] = await Promise.all([
      import('../config/archive/stage.js'),
      import('../config/archive/swap.js'),
    ]);
    if (this.loading) throw new MldsError('MLDS_UNAVAILABLE', 'another configuration is being loaded; retry shortly');
    this.loading = true;
    const { runtime } = this.deps;
    const log = runtime.context.log;
    const url = describeUrl(rawUrl);
    const serviceDir = path.dirname(path.resolve(this.deps.configFile));
    let staged = false;
    const keep = this.deps.keep.filter((k): k is string => k !== undefined).map((k) => path.resolve(k));
    try {
      log.info({ url }, 'configuration archive: downloading');
      let logged = 0;
      const { dir, entries, download } = await invalidAsAnswer(() =>
        stageFromUrl(serviceDir, rawUrl, {
          keep,
          sha256,
          fetch: {
            ...this.deps.fetch,
            portRange,
            onProgress: (p) => {
              if (p.done || p.received - logged < 1024 * 1024) return;
              logged = p.received;
              log.info({ url, received: p.received, total: p.total }, 'configuration archive: downloading');
            },
          },
        }),
      );
      staged = true;
      log.info(
        { url, bytes: download.bytes, entries: entries.length },
        'configuration archive: checked and extracted; validating',
      );
      await invalidAsAnswer(async () => loadServiceConfig(path.join(dir, 'config.json'), this.deps.unitFile));
      this.swapping = true;
      try {
        const swap = await swapConfiguration(serviceDir, dir, { keep });
        staged = false;
        const removed = await removedFiles(serviceDir, swap);
        const report = await runtime.reload();
        this.record(url, 'ok', `loaded: ${summary(report)}`);
        log.info({ url, removedFiles: removed.files.length + removed.more }, 'configuration archive: loaded');
        return {
          ...report,
          backup: path.relative(serviceDir, swap.backup),
          removedFiles: removed.files,
          removedFilesNotListed: removed.more,
        };
      } finally {
        this.swapping = false;
      }
    } catch (err) {
      this.record(url, 'error', (err as Error).message);
      log.warn({ url, err: (err as Error).message }, 'configuration archive: refused; the running configuration stays');
      throw err;
    } finally {
      if (staged) await discardStaging(serviceDir).catch(() => undefined);
      this.loading = false;
    }
  }

  /** The running configuration as a zip, named after the unit and the day. */
  async download(): Promise<{ zip: Buffer; filename: string }> {
    const { packConfiguration } = await import('../config/archive/pack.js');
    const { zip } = await packConfiguration(this.deps.configFile);
    const main = this.deps.runtime.config.displays[0]?.id ?? 'display';
    const day = new Date(this.deps.runtime.context.clock.now()).toISOString().slice(0, 10);
    const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60);
    return { zip, filename: `mlds-${safe(hostname())}-${safe(main)}-${day}.zip` };
  }

  private record(url: string, result: 'ok' | 'error', message: string): void {
    this.deps.runtime.configStatus.lastArchive = {
      url,
      at: new Date(this.deps.runtime.context.clock.now()).toISOString(),
      result,
      message,
    };
  }
}

/** A configuration fault of the archive (at inspection or at load) as the answer to /load_config. */
async function invalidAsAnswer<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    throw new MldsError(
      'MLDS_CONFIG_INVALID',
      `the archive's configuration has ${err.total} fault(s); the running configuration stays`,
      'url',
      { faults: err.faults },
    );
  }
}
