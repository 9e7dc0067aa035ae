#!/usr/bin/env node
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError } from './config/faults.js';
import { loadServiceConfig } from './runtime/load-config.js';
import { UNIT_FILE } from './config/unit-part.js';
import { packageRoot } from './util/package-root.js';
import { LogDirError } from './log/logger.js';
import { VERSION } from './version.js';

const EX_CONFIG = 78;
const USAGE = `mlds ${VERSION}: display control service

Usage:
  mlds start [--config FILE] [--port N] [--state-dir DIR] [--log-dir DIR]
  mlds test  [--config FILE] [--unit FILE] [--out DIR]
  mlds mark-good [--config FILE] [--port N] [--state-dir DIR] [--quiet-seconds N] [--deadline N]
  mlds fleet status [--json] [BROKER]
  mlds fleet apply (--group G | --unit U) FILE [BROKER]
  mlds fleet rollout --group G FILE --steps 1,10%,100% --healthy-for SECONDS [--timeout SECONDS] [BROKER]
  mlds -h | --help
  mlds -V | --version

start   runs the service (HTTP on the configuration's port, default 9199)
test    checks the configuration, prints every fault with its JSON path, and renders
        every layout of every display once to PNG files in --out (default ./mlds-test);
        warns of configured texts too wide for their area, lists the areas that scroll
        and shows each scrolling text from its beginning
mark-good  after an update's reboot (mlds-mark-good.service): waits until the local service's
        /status shows no fault for --quiet-seconds in a row (60), then marks the booted slot
        good through RAUC; exits 1 without marking when a fault lasts past --deadline (600 s)
fleet   the operator's command against the broker (docs/fleet.md, "The fleet command"):
        status   one line per unit from its retained status and report (rev, converged,
                 digest, software, clock, last seen); --json for the whole of each
        apply    publishes the desired document FILE, checked first, retained at QoS 1 on
                 mlds/group/G/desired or mlds/U/desired
        rollout  gives FILE to the group's units step by step on their own desired topics;
                 a step is done when each of its units reported the FILE's rev converged
                 and stayed healthy for --healthy-for seconds; stops at the first failed
                 part or after --timeout seconds per step (900, or twice --healthy-for
                 when longer), naming the unit
        BROKER: --config FILE (its "mqtt" section, as the unit reads it) and/or --url
        mqtt[s]://HOST:PORT, --ca, --cert, --key, --username, --prefix; the password from
        the file, the environment variable MLDS_MQTT_PASSWORD or --password-file FILE

Defaults: --config ./config.json, else /etc/mlds/config.json (fleet: none); --state-dir ./state in a
checkout, else /var/lib/mlds; logs only to stdout unless --log-dir is given.
Exit codes: 0 ok, 64 usage error, 78 configuration cannot start; mark-good: 1 not marked
(a fault lasted), 2 RAUC did not mark; fleet: 1 the rollout stopped, 65 a faulty FILE,
69 the broker cannot be reached.`;

function defaultConfig(): string {
  return existsSync('config.json') ? 'config.json' : '/etc/mlds/config.json';
}

function defaultStateDir(): string {
  return existsSync(path.join(packageRoot, '.git')) ? path.join(process.cwd(), 'state') : '/var/lib/mlds';
}

function printFaults(err: ConfigError): void {
  console.error(`mlds: ${err.total} configuration fault(s):`);
  for (const f of err.faults) console.error(`  ${f.path || '/'}: ${f.message}`);
}

async function main(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        config: { type: 'string', short: 'c' },
        port: { type: 'string', short: 'p' },
        'state-dir': { type: 'string' },
        'log-dir': { type: 'string' },
        out: { type: 'string' },
        unit: { type: 'string' },
        'quiet-seconds': { type: 'string' },
        deadline: { type: 'string' },
        json: { type: 'boolean' },
        group: { type: 'string' },
        steps: { type: 'string' },
        'healthy-for': { type: 'string' },
        timeout: { type: 'string' },
        url: { type: 'string' },
        ca: { type: 'string' },
        cert: { type: 'string' },
        key: { type: 'string' },
        username: { type: 'string' },
        'password-file': { type: 'string' },
        prefix: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'V' },
      },
    });
  } catch (err) {
    console.error(`mlds: ${(err as Error).message}\n\n${USAGE}`);
    return 64;
  }
  const { values, positionals } = args;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.version) {
    console.log(VERSION);
    return 0;
  }
  const command = positionals[0];
  const configFile = values.config ?? defaultConfig();

  if (command === 'test') {
    let config;
    try {
      if (values.unit !== undefined && !existsSync(values.unit)) {
        console.error(`mlds: --unit ${values.unit} was not found`);
        return 64;
      }
      config = loadServiceConfig(configFile, values.unit);
    } catch (err) {
      if (err instanceof ConfigError) {
        printFaults(err);
        return EX_CONFIG;
      }
      throw err;
    }
    // Each command imports only what it runs: the service's start does not load the preview renderer.
    const [{ checkFramebuffers }, { fitWarnings }, { boardFitWarnings }, render] = await Promise.all([
      import('./preview/framebuffers.js'),
      import('./preview/fit.js'),
      import('./preview/board-fit.js'),
      import('./preview/render.js'),
    ]);
    const { describeFit, describeScroll, renderLayoutsToPng } = render;
    const { legibilityWarnings } = await import('./preview/legibility.js');
    const hardware = checkFramebuffers(config);
    const layoutWarnings = config.warnings.map((w) => `${w.path || '/'}: ${w.message}`);
    const warnings = [
      ...hardware.warnings,
      ...layoutWarnings,
      ...fitWarnings(config),
      ...boardFitWarnings(config),
      ...legibilityWarnings(config),
    ];
    for (const w of warnings) console.error(`mlds: warning: ${w}`);
    if (hardware.faults.length) {
      printFaults(new ConfigError(hardware.faults));
      return EX_CONFIG;
    }
    let boards;
    if (config.feeds.length) {
      const feeds = await (await import('./preview/feeds-check.js')).checkSchedules(config);
      boards = feeds.boards;
      for (const w of feeds.warnings) console.error(`mlds: warning: ${w}`);
      for (const n of feeds.notes) console.log(n);
      if (feeds.faults.length) {
        printFaults(new ConfigError(feeds.faults));
        return EX_CONFIG;
      }
    }
    const out = path.resolve(values.out ?? 'mlds-test');
    mkdirSync(out, { recursive: true });
    const files = await renderLayoutsToPng(config, boards);
    for (const f of files) {
      writeFileSync(path.join(out, f.name), f.png);
      console.log(`rendered ${path.join(out, f.name)}`);
      for (const n of f.scrolls) console.log(`  ${describeScroll(n)}`);
      for (const n of f.fits) console.log(`  ${describeFit(n)}`);
    }
    const unit = values.unit === undefined ? '' : ` with ${path.resolve(values.unit)}`;
    console.log(
      `configuration ${path.resolve(configFile)}${unit} is valid: ${config.displays.length} display(s), ` +
        `${files.length} layout(s) rendered`,
    );
    if (config.digests) console.log(`digest ${config.digests.digest}`);
    return 0;
  }

  if (command === 'fleet') {
    // --config here names the file whose `mqtt` section says how to reach the broker: no default.
    const { fleetCommand } = await import('./fleet/operator.js');
    return fleetCommand(positionals[1], positionals[2], {
      config: values.config,
      url: values.url,
      ca: values.ca,
      cert: values.cert,
      key: values.key,
      username: values.username,
      passwordFile: values['password-file'],
      prefix: values.prefix,
      json: values.json,
      group: values.group,
      unit: values.unit,
      steps: values.steps,
      healthyFor: values['healthy-for'],
      timeout: values.timeout,
    });
  }

  if (command === 'mark-good') {
    const seconds = (name: 'quiet-seconds' | 'deadline', dflt: number) => {
      const v = values[name] === undefined ? dflt : Number(values[name]);
      return Number.isInteger(v) && v >= 0 && v <= 86400 ? v : undefined;
    };
    const quietSeconds = seconds('quiet-seconds', 60),
      deadlineSeconds = seconds('deadline', 600);
    if (quietSeconds === undefined || deadlineSeconds === undefined) {
      console.error('mlds: --quiet-seconds and --deadline are whole seconds from 0 to 86400');
      return 64;
    }
    // The port and key the service answers with: --port, else the configuration's (as `start`).
    let port = values.port === undefined ? undefined : Number(values.port);
    let apiKey: string | undefined;
    const stateDir = values['state-dir'] ?? defaultStateDir();
    try {
      // The unit's own part may hold the port and the keys (docs/configuration.md).
      const config = loadServiceConfig(configFile, path.join(stateDir, UNIT_FILE));
      port ??= config.port;
      apiKey = config.security?.adminKey ?? config.security?.apiKey;
    } catch (err) {
      if (!(err instanceof ConfigError) || port === undefined) {
        console.error(`mlds: mark-good: the configuration gives no port: ${(err as Error).message}`);
        return EX_CONFIG;
      }
    }
    if (!Number.isInteger(port) || port! < 1 || port! > 65535) {
      console.error(`mlds: --port ${values.port} is not a port number`);
      return 64;
    }
    const [{ markGood }, { busctlRauc }] = await Promise.all([
      import('./update/mark-good.js'),
      import('./update/rauc-busctl.js'),
    ]);
    return markGood({
      base: `http://127.0.0.1:${port}`,
      apiKey,
      quietSeconds,
      deadlineSeconds,
      stateDir,
      rauc: busctlRauc(),
      say: (line) => console.error(`mlds mark-good: ${line}`),
    });
  }

  if (command === 'start') {
    let port: number | undefined;
    if (values.port !== undefined) {
      port = Number(values.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        console.error(`mlds: --port ${values.port} is not a port number`);
        return 64;
      }
    }
    try {
      const { startService } = await import('./main.js');
      const svc = await startService({
        configFile,
        port,
        stateDir: values['state-dir'] ?? defaultStateDir(),
        logDir: values['log-dir'],
      });
      const stop = async (signal: string) => {
        svc.log.info({ signal }, 'stopping');
        await svc.close();
        // A restart asked for by an operator ends with the code that systemd starts again.
        process.exit((await import('./device/power.js')).exitCodeAfterStop());
      };
      process.once('SIGTERM', () => void stop('SIGTERM'));
      process.once('SIGINT', () => void stop('SIGINT'));
      // systemd's ExecReload: the same as GET /reload_config (faults are logged and on /status).
      process.on('SIGHUP', () => {
        svc.api.reload().then(
          (r) => svc.log.info({ signal: 'SIGHUP', changed: r.changed }, 'reload by signal'),
          (err: Error) => svc.log.warn({ signal: 'SIGHUP', err: err.message }, 'reload by signal refused'),
        );
      });
      console.error(`mlds ${VERSION} listening on port ${svc.port}: status page http://localhost:${svc.port}/info`);
      return -1;
    } catch (err) {
      if (err instanceof ConfigError) {
        printFaults(err);
        return EX_CONFIG;
      }
      if (err instanceof LogDirError) {
        console.error(`mlds: ${err.message}`);
        return EX_CONFIG;
      }
      const e = err as NodeJS.ErrnoException;
      if (e.code === 'EADDRINUSE' || e.code === 'EACCES') {
        console.error(`mlds: cannot listen: ${e.message}`);
        return EX_CONFIG;
      }
      throw err;
    }
  }

  console.error(command ? `mlds: unknown command "${command}"\n\n${USAGE}` : USAGE);
  return 64;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err: unknown) => {
    console.error('mlds: fatal:', err);
    process.exit(1);
  },
);
