import { existsSync } from 'node:fs';
import { ComponentEntry } from '../capability/component-contract.js';
import { BOOT } from '../capability/boot.js';
import { BRIGHTNESS } from '../capability/brightness.js';
import { FEEDS } from '../capability/feeds.js';
import { HTTPS } from '../capability/https.js';
import { MDNS, NETWORK } from '../capability/network.js';
import { SPEECH } from '../capability/speaker.js';
import { UPDATE } from '../capability/update-status.js';
import { RECHECK_SECONDS, recheckComponent } from './recheck.js';
import type { HttpsDeps } from '../http/https.js';
import { mediaEntry } from '../playback/entry.js';

/**
 * Every capability that runs with the service, in start order. A capability registers here
 * (one entry; main.ts does not change) and is imported only when `wanted` says the
 * configuration uses it, so an unconfigured one costs nothing. One that others find registers
 * under its key (src/capability/), and must have the key's type to compile.
 */
export function components(
  opts: { recheckSeconds?: number; https?: HttpsDeps; stateDir?: string } = {},
): ComponentEntry[] {
  const recheck = opts.recheckSeconds ?? RECHECK_SECONDS;
  return [
    // Always: the boot screens and /identify (it draws nothing unless a unit asks for a screen).
    ComponentEntry.of(
      BOOT,
      () => true,
      async () => new (await import('../boot/boot-screens.js')).BootScreens(),
    ),
    // 0 turns the re-check off (tests that count the clock's timers).
    ComponentEntry.named(
      'recheck',
      () => recheck > 0,
      async () => recheckComponent(recheck),
    ),
    // Always: daylight is the default brightness (the lowest of the brightness precedence).
    ComponentEntry.of(
      BRIGHTNESS,
      () => true,
      async () => (await import('../brightness/brightness-component.js')).brightnessComponent(),
    ),
    ComponentEntry.named(
      'crons',
      (c) => c.crons.length > 0,
      async () => (await import('../schedule/crons.js')).cronsComponent(),
    ),
    ComponentEntry.named(
      'pollers',
      (c) => c.pollers.length > 0,
      async () => (await import('../schedule/pollers.js')).pollersComponent(),
    ),
    // /getethernetconfig, /setethernetconfig and a rollback watch left by a restart (Linux: ip, systemd-networkd).
    ComponentEntry.of(
      NETWORK,
      () => process.platform === 'linux',
      async () => (await import('../net/network.js')).networkComponent(),
    ),
    ComponentEntry.of(
      HTTPS,
      (c) => !!c.https && !!opts.https,
      async () => (await import('../http/https.js')).httpsComponent(opts.https!),
    ),
    // After https: the announcement carries its port.
    ComponentEntry.of(
      MDNS,
      (c) => !!c.mdns,
      async () => (await import('../net/mdns.js')).mdnsComponent(),
    ),
    // Audio areas follow the displays' state; video and web areas report what they run (src/media).
    mediaEntry,
    // Departure boards' transit feeds (src/feeds): only when `feeds` is configured.
    ComponentEntry.of(
      FEEDS,
      (c) => c.feeds.length > 0,
      async () => (await import('../feeds/feeds-component.js')).feedsComponent(),
    ),
    // Announcements read aloud by espeak-ng (src/speech): only when `speech` is configured. Before
    // the fleet, which hands it MQTT announcements.
    ComponentEntry.of(
      SPEECH,
      (c) => !!c.speech,
      async () => (await import('../speech/speech-component.js')).speechComponent(),
    ),
    // A/B software updates through RAUC (src/update): only where RAUC is configured (MLDS_RAUC_CONF names another
    // system.conf).
    // Before the fleet: its first retained status carries the slot and the last update.
    ComponentEntry.of(
      UPDATE,
      () => !!opts.stateDir && existsSync(process.env.MLDS_RAUC_CONF ?? '/etc/rauc/system.conf'),
      async () => {
        const [{ updateComponent }, { busctlRauc }, { rebootController }] = await Promise.all([
          import('../update/update-component.js'),
          import('../update/rauc-busctl.js'),
          import('../device/power.js'),
        ]);
        return updateComponent(opts.stateDir!, busctlRauc(), () => rebootController());
      },
    ),
    // Fleet control through an MQTT broker (src/fleet): only when `mqtt` is configured.
    // The state folder keeps the name of its last MQTT session and what desired state applied.
    ComponentEntry.named(
      'fleet',
      (c) => !!c.mqtt,
      async () => {
        return (await import('../fleet/fleet.js')).fleetComponent(opts.stateDir);
      },
    ),
    // CAP emergency alerts (src/alerts): only when `alerts` lists a feed; its alerts in force are kept in the state
    // folder.
    ComponentEntry.named(
      'alerts',
      (c) => c.alerts.length > 0,
      async () => (await import('../alerts/alerts-component.js')).alertsComponent(opts.stateDir),
    ),
    // Under systemd only (Type=notify, WatchdogSec=): last, so READY=1 follows every other start.
    ComponentEntry.named(
      'systemd',
      () => !!(process.env.NOTIFY_SOCKET || process.env.WATCHDOG_USEC),
      async () => new (await import('../device/systemd.js')).SystemdNotify(),
    ),
  ];
}
