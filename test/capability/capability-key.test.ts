// Capabilities find each other by typed keys: the compiler refuses a string, a key of another
// type and a component without its key's type (the @ts-expect-error lines below fail
// `make typecheck` the day one of them compiles), and the runtime finds a component by the key
// it was registered under, never by a name that happens to match.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BOOT, type BootFacts, type BootScreensControl } from '../../src/capability/boot.js';
import { BRIGHTNESS } from '../../src/capability/brightness.js';
import { capabilityKey, type CapabilityKey } from '../../src/capability/capability-key.js';
import { ComponentEntry, type Component, type RuntimeContext } from '../../src/capability/component-contract.js';
import { SPEECH, type Speaker } from '../../src/capability/speaker.js';
import { StateStore } from '../../src/control/store.js';
import { createLogger } from '../../src/log/logger.js';
import { loadServiceConfig } from '../../src/runtime/load-config.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { systemClock } from '../../src/util/clock.js';
import { baseConfig, serviceDir } from '../helpers/service.js';

const plain = (name: string): Component => ({
  name,
  start: async () => {},
  reload: async () => {},
  stop: async () => {},
});

class FakeBoot implements Component, BootScreensControl {
  readonly name = BOOT.name;
  async start(): Promise<void> {}
  async reload(): Promise<void> {}
  async stop(): Promise<void> {}
  identify(): [] {
    return [];
  }
  status(): BootFacts {
    return { units: [], completeUrls: [] };
  }
}

// Compiled, never run: what the compiler must refuse.
export function refused(ctx: RuntimeContext): void {
  // @ts-expect-error a capability is found by its key, not by a string
  ctx.component('brightness');
  // @ts-expect-error a misspelt key does not exist
  ctx.component(BRIGHTNES);
  const boot: BootScreensControl | undefined = ctx.component(BOOT);
  // @ts-expect-error a lookup gets the key's type, not another
  const speaker: Speaker | undefined = ctx.component(BOOT);
  // @ts-expect-error a key of one type is no key of another
  const asSpeech: CapabilityKey<Speaker> = BOOT;
  // @ts-expect-error nor of a wider one
  const wider: CapabilityKey<object> = SPEECH;
  const loadPlain = async () => plain('boot');
  // @ts-expect-error the registry refuses a component without its key's type
  ComponentEntry.of(BOOT, () => true, loadPlain);
  // @ts-expect-error an entry is made by ComponentEntry.of, where the type is checked, not written by hand
  const forged: ComponentEntry = { key: BOOT, name: 'boot', wanted: () => true, load: async () => plain('boot') };
  void [boot, speaker, asSpeech, wider, forged];
}

test(
  'the runtime finds a component by the key it was registered under, as ' + 'that type, and never by a name alone',
  async (t) => {
    const sd = serviceDir(baseConfig());
    t.after(() => sd.cleanup());
    const { log } = createLogger({ retentionDays: 1, stdout: false });
    const store = new StateStore(sd.stateDir, { log });
    await store.load();
    const boot = new FakeBoot();
    // Named like the brightness capability, but not registered under its key.
    const impostor = plain(BRIGHTNESS.name);
    const runtime = new Runtime(loadServiceConfig(sd.configFile), {
      configFile: sd.configFile,
      clock: systemClock,
      log,
      store,
      confirm: () => {},
      components: [
        ComponentEntry.of(
          BOOT,
          () => true,
          async () => boot,
        ),
        ComponentEntry.named(
          BRIGHTNESS.name,
          () => true,
          async () => impostor,
        ),
      ],
    });
    await runtime.start();
    t.after(() => runtime.stop());
    assert.equal(runtime.component(BOOT), boot);
    assert.equal(runtime.context.component(BOOT), boot, "the same through the components' context");
    assert.deepEqual(Object.keys(runtime.componentStatus()).sort(), ['boot', 'brightness'], 'both run');
    assert.equal(
      runtime.component(BRIGHTNESS),
      undefined,
      'a component registered by name only is not the brightness capability',
    );
    assert.equal(
      runtime.component(capabilityKey<BootScreensControl>(BOOT.name)),
      undefined,
      'a second key of the same name finds nothing',
    );
    assert.equal(runtime.component(SPEECH), undefined, 'a capability the configuration does not run');
  },
);
