// The brightness component outside a running service: a real configuration (loaded from a
// throw-away service directory), units with real output runners, an injected clock and a
// serial binding of the test's choosing (MockBinding). For what the service cannot be given
// from outside: a mock serial device, a framebuffer on a plain file with a fake backlight.
import { pino } from 'pino';
import { BrightnessComponent, type BrightnessOptions } from '../../src/brightness/brightness-component.js';
import { loadConfig } from '../../src/config/load.js';
import type { ServiceConfig, UnitConfig } from '../../src/config/types.js';
import type { Frame } from '../../src/frame.js';
import { OutputRunner } from '../../src/output/runner.js';
import type { Output } from '../../src/output/types.js';
import { VirtualOutput } from '../../src/output/virtual.js';
import type { RuntimeContext } from '../../src/capability/component-contract.js';
import type { Unit } from '../../src/render/unit.js';
import type { Clock } from '../../src/util/clock.js';
import type { ServiceDir } from './service.js';

export interface FakeUnit {
  config: UnitConfig;
  runner: OutputRunner;
  output: Output;
  compositor: { nextChange(now: number): number };
  latest(): Frame;
}

export interface FakeRuntime {
  ctx: RuntimeContext;
  component: BrightnessComponent;
  units: Map<string, FakeUnit>;
  /** The brightness each unit's output holds now, by MAIN id. */
  brightness(): Record<string, number>;
  reload(): Promise<void>;
  stop(): Promise<void>;
}

export const silentLog = pino({ level: 'silent' });

/** `outputFor` picks each unit's output (virtual unless the test says otherwise). */
export async function fakeRuntime(
  sd: ServiceDir,
  clock: Clock,
  opts: BrightnessOptions = {},
  outputFor: (u: UnitConfig) => Output = () => new VirtualOutput(),
): Promise<FakeRuntime> {
  let config: ServiceConfig = loadConfig(sd.configFile);
  const units = new Map<string, FakeUnit>();
  const build = () => {
    for (const u of config.units) {
      if (units.has(u.key)) continue;
      const output = outputFor(u);
      const frame: Frame = {
        width: u.width,
        height: u.height,
        data: new Uint8Array(u.width * u.height * 4).fill(200),
        seq: 1,
      };
      const unit: FakeUnit = {
        config: u,
        output,
        runner: new OutputRunner(output, silentLog, () => clock.now()),
        compositor: { nextChange: () => Infinity },
        latest: () => frame,
      };
      units.set(u.key, unit);
    }
  };
  build();
  for (const u of units.values()) await u.runner.start(u.config.width, u.config.height);
  const ctx = {
    log: silentLog,
    clock,
    config: () => config,
    units: () => units as unknown as ReadonlyMap<string, Unit>,
    unitFor: () => undefined,
    component: () => undefined,
    apply: async () => {
      throw new Error('not in this test');
    },
    reload: async () => {
      throw new Error('not in this test');
    },
    status: () => {
      throw new Error('not in this test');
    },
    infoPage: async () => {
      throw new Error('not in this test');
    },
    ports: () => ({ http: 0 }),
  } as unknown as RuntimeContext;
  const component = new BrightnessComponent(opts);
  await component.start(ctx);
  return {
    ctx,
    component,
    units,
    brightness: () =>
      Object.fromEntries(
        [...units.values()].map((u) => [
          u.config.displayIds[0],
          (u.output.describe() as { brightness: number }).brightness,
        ]),
      ),
    reload: async () => {
      config = loadConfig(sd.configFile);
      build();
      await component.reload(ctx);
    },
    stop: async () => {
      await component.stop();
      for (const u of units.values()) await u.runner.stop();
    },
  };
}
