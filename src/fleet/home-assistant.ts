// Home Assistant MQTT discovery (`homeAssistant: true`): each physical unit's MAIN brightness as
// a light entity (JSON schema, brightness only, 1..100). Discovery is retained and sent again
// when Home Assistant announces itself (`homeassistant/status` = `online`).
//   config   homeassistant/light/<unit>/config            (the service's first physical unit)
//            homeassistant/light/<unit>/<MAIN id>/config  (every further physical unit)
//   command  <prefix>/<unit>/light/<MAIN id>/set    {"state":"ON","brightness":55}
//   state    <prefix>/<unit>/light/<MAIN id>/state  {"state":"ON","brightness":55} (retained)
import type { BrightnessComponent } from '../brightness/component.js';
import type { MqttSettings } from '../config/types.js';
import type { RuntimeContext } from '../runtime/component.js';
import { VERSION } from '../version.js';
import type { BrokerLink } from './link.js';
import type { Topics } from './topics.js';

export const HA_STATUS = 'homeassistant/status';

export class HomeAssistant {
  constructor(private readonly ctx: RuntimeContext, private readonly s: MqttSettings, private readonly topics: Topics) {}

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

  announce(link: BrokerLink): void {
    this.mains().forEach((id, i) => {
      const d = this.ctx.config().displayById.get(id);
      const topic = i === 0 ? `homeassistant/light/${this.s.unit}/config` : `homeassistant/light/${this.s.unit}/${id}/config`;
      link.publish(topic, JSON.stringify({
        name: `${d?.displayName ?? id} brightness`,
        unique_id: `mlds_${this.s.unit}_${id}`,
        object_id: `mlds_${this.s.unit}_${id}`,
        schema: 'json',
        command_topic: `${this.base(id)}/set`,
        state_topic: `${this.base(id)}/state`,
        availability_topic: this.topics.availability,
        supported_color_modes: ['brightness'],
        brightness: true,
        brightness_scale: 100,
        device: { identifiers: [`mlds_${this.s.unit}`], name: this.s.unit, manufacturer: 'mlds', model: 'display controller', sw_version: VERSION },
      }), { retain: true });
    });
    this.publishStates(link);
  }

  publishStates(link: BrokerLink): void {
    const units = (this.brightness()?.status().units ?? []) as Array<{ id: string; brightness?: number }>;
    for (const u of units) {
      if (u.brightness === undefined) continue;
      link.publish(`${this.base(u.id)}/state`, JSON.stringify({ state: 'ON', brightness: u.brightness, color_mode: 'brightness' }), { retain: true });
    }
  }

  async message(topic: string, payload: Buffer, link: BrokerLink): Promise<void> {
    if (topic === HA_STATUS) {
      if (payload.toString().trim() === 'online') this.announce(link);
      return;
    }
    const id = this.mains().find((m) => topic === `${this.base(m)}/set`)!;
    let value: unknown;
    try { value = (JSON.parse(payload.toString()) as { brightness?: unknown }).brightness; } catch { value = undefined; }
    const d = this.ctx.config().displayById.get(id);
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 100 || !d?.sensorBrightness) {
      // OFF and out-of-range values are not brightness levels; a unit without sensorBrightness follows its schedule.
      this.ctx.log.warn({ id, payload: payload.toString().slice(0, 200) }, 'mqtt: Home Assistant brightness not taken (an integer 1..100, on a MAIN display with sensorBrightness)');
      this.publishStates(link);
      return;
    }
    await this.brightness()?.setManual([id], value);
    this.publishStates(link);
  }

  private brightness(): BrightnessComponent | undefined {
    return this.ctx.component<BrightnessComponent>('brightness');
  }
}
