// Home Assistant MQTT discovery (`homeAssistant: true`): each physical unit's panel as a light
// entity (JSON schema, colour mode `brightness`, 1..100). ON and OFF unblank and blank the panel
// (brightness 0 on its output; content and commands kept), a brightness sets the manual level as
// /brightness does. Discovery is retained and sent again when Home Assistant announces itself
// (`homeassistant/status` = `online`); the state is published when it changes.
//   config   homeassistant/light/<unit>/config            (the service's first physical unit)
//            homeassistant/light/<unit>/<MAIN id>/config  (every further physical unit)
//            <unit> and <MAIN id> reduced to [a-zA-Z0-9_-] (discovery-id.ts), as Home Assistant requires
//   command  <prefix>/<unit>/light/<MAIN id>/set    {"state":"ON","brightness":55} | {"state":"OFF"}
//   state    <prefix>/<unit>/light/<MAIN id>/state  {"state":"ON","brightness":55,"color_mode":"brightness"} (retained)
import { hostname } from 'node:os';
import { BRIGHTNESS, type BrightnessControl } from '../capability/brightness.js';
import { discoveryId } from '../config/discovery-id.js';
import type { MqttSettings } from '../config/types.js';
import { identity } from '../util/identity.js';
import type { RuntimeContext } from '../capability/component-contract.js';
import { VERSION } from '../version.js';
import type { BrokerLink } from './broker-link.js';
import type { Topics } from './topics.js';

export const HA_STATUS = 'homeassistant/status';

/** An entity id's object part: Home Assistant's own slug (lower case letters, digits, `_`). */
const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '') || 'mlds';

export class HomeAssistant {
  /** The state payload last published per MAIN id: published again only when it differs. */
  private readonly published = new Map<string, string>();

  constructor(
    private readonly ctx: RuntimeContext,
    private readonly s: MqttSettings,
    private readonly topics: Topics,
  ) {}

  /** MAIN display ids of the physical units, in configuration order. */
  private mains(): string[] {
    return this.ctx.config().units.map((u) => u.displayIds[0]);
  }

  private base(id: string): string {
    return `${this.s.prefix}/${this.s.unit}/light/${id}`;
  }

  subscriptions(): string[] {
    return [HA_STATUS, ...this.mains().map((id) => `${this.base(id)}/set`)];
  }

  handles(topic: string): boolean {
    return topic === HA_STATUS || this.mains().some((id) => topic === `${this.base(id)}/set`);
  }

  /** The unit's /info page, as Home Assistant's device page links it. */
  private infoUrl(): string {
    const ports = this.ctx.ports();
    const host = identity().addresses[0]?.address ?? hostname();
    return ports.https ? `https://${host}:${ports.https}/info` : `http://${host}:${ports.http}/info`;
  }

  /** The discovery document of one unit's light: the keys of Home Assistant's MQTT light, JSON schema. */
  discovery(id: string): Record<string, unknown> {
    const d = this.ctx.config().displayById.get(id);
    return {
      name: d?.displayName ?? id,
      unique_id: `mlds_${this.s.unit}_${id}`,
      default_entity_id: `light.${slug(`mlds_${this.s.unit}_${id}`)}`,
      schema: 'json',
      command_topic: `${this.base(id)}/set`,
      state_topic: `${this.base(id)}/state`,
      availability_topic: this.topics.availability,
      payload_available: 'online',
      payload_not_available: 'offline',
      supported_color_modes: ['brightness'],
      brightness_scale: 100,
      qos: 1,
      device: {
        identifiers: [`mlds_${this.s.unit}`],
        name: this.s.unit,
        manufacturer: 'mlds',
        model: 'display controller',
        sw_version: VERSION,
        configuration_url: this.infoUrl(),
      },
      origin: { name: 'mlds', sw_version: VERSION },
    };
  }

  announce(link: BrokerLink): void {
    this.mains().forEach((id, i) => {
      const unit = discoveryId(this.s.unit);
      const topic = `homeassistant/light/${unit}/${i === 0 ? '' : `${discoveryId(id)}/`}config`;
      link.publish(topic, JSON.stringify(this.discovery(id)), { retain: true });
    });
    // Fresh after each connection: the broker may have lost the retained copy.
    this.published.clear();
    this.publishStates(link);
  }

  /** Publishes each unit's state when it differs from the one last published. */
  publishStates(link: BrokerLink): void {
    const b = this.brightness();
    for (const u of b?.status().units ?? []) {
      const state = JSON.stringify({
        state: u.blanked ? 'OFF' : 'ON',
        brightness: u.brightness,
        color_mode: 'brightness',
      });
      if (this.published.get(u.id) === state || !link.connectedNow()) continue;
      this.published.set(u.id, state);
      link.publish(`${this.base(u.id)}/state`, state, { retain: true });
    }
  }

  async message(topic: string, payload: Buffer, link: BrokerLink): Promise<void> {
    if (topic === HA_STATUS) {
      if (payload.toString().trim() === 'online') this.announce(link);
      return;
    }
    const id = this.mains().find((m) => topic === `${this.base(m)}/set`)!;
    const b = this.brightness();
    let cmd: { state?: unknown; brightness?: unknown } = {};
    try {
      cmd = JSON.parse(payload.toString()) as typeof cmd;
    } catch {
      /* refused below */
    }
    const level = cmd?.brightness;
    const state = cmd?.state;
    const refuse = (why: string) => {
      this.ctx.log.warn(
        { id, payload: payload.toString().slice(0, 200) },
        `mqtt: Home Assistant command not taken: ${why}`,
      );
      // Home Assistant shows what it asked for until it hears otherwise: the state as it is, again.
      this.published.delete(id);
      this.publishStates(link);
    };
    if (!b) return refuse('brightness control is not running');
    if (state !== 'ON' && state !== 'OFF') return refuse('"state" must be "ON" or "OFF"');
    if (state === 'OFF') {
      await b.setBlank([id], true);
      return this.publishStates(link);
    }
    if (level !== undefined) {
      if (typeof level !== 'number' || !Number.isInteger(level) || level < 1 || level > 100)
        return refuse('"brightness" must be an integer 1..100');
      // A unit without sensorBrightness follows its schedule; it is switched on, its level stays.
      if (!this.ctx.config().displayById.get(id)?.sensorBrightness) {
        await b.setBlank([id], false);
        return refuse('a brightness needs sensorBrightness on the MAIN display, as /brightness does');
      }
      await b.setManual([id], level, 'home-assistant');
    }
    await b.setBlank([id], false);
    this.publishStates(link);
  }

  private brightness(): BrightnessControl | undefined {
    return this.ctx.component(BRIGHTNESS);
  }
}
