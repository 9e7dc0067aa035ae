import { existsSync } from 'node:fs';
import type { ComponentEntry } from '../capability/component-contract.js';
import { RECHECK_SECONDS, recheckComponent } from './recheck.js';
import type { HttpsDeps } from '../http/https.js';
import { mediaEntry } from '../playback/entry.js';

/**
 * Every capability that runs with the service, in start order. A capability registers here
 * (one entry; main.ts does not change) and is imported only when `wanted` says the
 * configuration uses it, so an unconfigured one costs nothing.
 */
export function components(opts: { recheckSeconds?: number; https?: HttpsDeps; stateDir?: string } = {}): ComponentEntry[] {
  const recheck = opts.recheckSeconds ?? RECHECK_SECONDS;
  return [
    // Always: the boot screens and /identify (it draws nothing unless a unit asks for a screen).
    { name: 'boot', wanted: () => true, load: async () => new (await import('../boot/boot-screens.js')).BootScreens() },
    // 0 turns the re-check off (tests that count the clock's timers).
    { name: 'recheck', wanted: () => recheck > 0, load: async () => recheckComponent(recheck) },
    // Always: daylight is the default brightness (the lowest of the brightness precedence).
    { name: 'brightness', wanted: () => true, load: async () => (await import('../brightness/brightness-component.js')).brightnessComponent() },
    { name: 'crons', wanted: (c) => c.crons.length > 0, load: async () => (await import('../schedule/crons.js')).cronsComponent() },
    { name: 'pollers', wanted: (c) => c.pollers.length > 0, load: async () => (await import('../schedule/pollers.js')).pollersComponent() },
    // /getethernetconfig, /setethernetconfig and a rollback watch left by a restart (Linux: ip, systemd-networkd).
    { name: 'network', wanted: () => process.platform === 'linux', load: async () => (await import('../net/network.js')).networkComponent() },
    { name: 'https', wanted: (c) => !!c.https && !!opts.https, load: async () => (await import('../http/https.js')).httpsComponent(opts.https!) },
    // After https: the announcement carries its port.
    { name: 'mdns', wanted: (c) => !!c.mdns, load: async () => (await import('../net/mdns.js')).mdnsComponent() },
    // Audio areas follow the displays' state; video and web areas report what they run (src/media).
    mediaEntry,
    // Departure boards' transit feeds (src/feeds): only when `feeds` is configured.
    { name: 'feeds', wanted: (c) => c.feeds.length > 0, load: async () => (await import('../feeds/feeds-component.js')).feedsComponent() },
    // Announcements read aloud by espeak-ng (src/speech): only when `speech` is configured. Before
    // the fleet, which hands it MQTT announcements.
    { name: 'speech', wanted: (c) => !!c.speech, load: async () => (await import('../speech/speech-component.js')).speechComponent() },
    // A/B software updates through RAUC (src/update): only where RAUC is configured (MLDS_RAUC_CONF names another system.conf).
    // Before the fleet: its first retained status carries the slot and the last update.
    {
      name: 'update',
      wanted: () => !!opts.stateDir && existsSync(process.env.MLDS_RAUC_CONF ?? '/etc/rauc/system.conf'),
      load: async () => {
        const [{ updateComponent }, { busctlRauc }, { rebootController }] = await Promise.all([import('../update/update-component.js'), import('../update/rauc-busctl.js'), import('../device/power.js')]);
        return updateComponent(opts.stateDir!, busctlRauc(), () => rebootController());
      },
    },
    // Fleet control through an MQTT broker (src/fleet): only when `mqtt` is configured.
    { name: 'fleet', wanted: (c) => !!c.mqtt, load: async () => (await import('../fleet/fleet.js')).fleetComponent() },
    // CAP emergency alerts (src/alerts): only when `alerts` lists a feed; its alerts in force are kept in the state folder.
    { name: 'alerts', wanted: (c) => c.alerts.length > 0, load: async () => (await import('../alerts/alerts-component.js')).alertsComponent(opts.stateDir) },
    // Under systemd only (Type=notify, WatchdogSec=): last, so READY=1 follows every other start.
    { name: 'systemd', wanted: () => !!(process.env.NOTIFY_SOCKET || process.env.WATCHDOG_USEC), load: async () => new (await import('../device/systemd.js')).SystemdNotify() },
  ];
}
