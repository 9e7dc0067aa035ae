// The boot sequence of each physical unit: black (the
// runtime's first frame), the info screen for the MAIN display's infoScreenTtl seconds, the
// startScreen logo for imageTtl seconds, then the displays. Requests accepted meanwhile (and
// the boot replay) change the displays' state underneath the overlay, so they show the moment
// it lifts and nothing a TPCM sent is lost. /identify brings the info screen back.
import type { DisplayConfig } from '../config/types.js';
import { identity } from '../util/identity.js';
import type { Overlay } from '../render/compositor.js';
import { preloadImage } from '../render/images.js';
import type { Component, RuntimeContext } from '../capability/component-contract.js';
import {
  BOOT,
  type BootFacts,
  type BootScreensControl,
  type IdentifiedUnit,
  type UnitShowing,
} from '../capability/boot.js';
import type { Unit } from '../render/unit.js';
import { VERSION } from '../version.js';
import { CompleteUrls } from './complete-urls.js';
import { InfoScreen, type InfoFacts } from './info-screen.js';
import { LogoScreen } from './logo-screen.js';
import { isoTime } from '../util/clock.js';

/** A logo named without `imageTtl` is shown this long (the specification gives no default). */
export const DEFAULT_IMAGE_TTL_S = 5;

interface Step {
  kind: 'info' | 'logo';
  until: number;
  overlay?: Overlay;
}

interface UnitScreens {
  unit: Unit;
  steps: Step[];
  identifyUntil: number;
  showing: UnitShowing;
  /** Until its boot screens end: then its displays' completeUrls are fetched. */
  booting: boolean;
  timer?: unknown;
}

export class BootScreens implements Component, BootScreensControl {
  readonly name = BOOT.name;
  private ctx!: RuntimeContext;
  private readonly screens = new Map<string, UnitScreens>();
  private completeUrls: CompleteUrls | undefined;
  private stopped = false;

  async start(ctx: RuntimeContext): Promise<void> {
    this.ctx = ctx;
    const t0 = ctx.clock.now();
    const config = ctx.config();
    this.completeUrls = new CompleteUrls(ctx);
    const units = [...ctx.units().values()];
    const logos = await Promise.all(units.map((u) => this.logoFor(main(u, config.displayById))));
    units.forEach((unit, i) => {
      const d = main(unit, config.displayById);
      const steps: Step[] = [];
      let at = t0;
      if (d.infoScreenTtl > 0) steps.push({ kind: 'info', until: (at += d.infoScreenTtl * 1000) });
      const logo = logos[i];
      const logoS = d.startScreen.imageTtl ?? DEFAULT_IMAGE_TTL_S;
      if (logo && logoS > 0) steps.push({ kind: 'logo', until: (at += logoS * 1000), overlay: logo });
      const s: UnitScreens = { unit, steps, identifyUntil: 0, showing: 'content', booting: true };
      this.screens.set(unit.config.key, s);
      if (steps.length)
        ctx.log.info(
          {
            unit: unit.config.key,
            displays: unit.config.displayIds,
            screens: steps.map((x) => x.kind),
            seconds: (at - t0) / 1000,
          },
          'boot screens',
        );
      this.refresh(s);
    });
  }

  async reload(ctx: RuntimeContext): Promise<void> {
    this.ctx = ctx;
    // A unit replaced by the reload starts on its content: boot screens belong to the boot.
    for (const [key, s] of this.screens) {
      if (ctx.units().get(key) === s.unit) continue;
      this.clearTimer(s);
      this.screens.delete(key);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const s of this.screens.values()) this.clearTimer(s);
    this.screens.clear();
    this.completeUrls?.stop();
  }

  identify(seconds: number, displayId?: string): IdentifiedUnit[] {
    const now = this.ctx.clock.now();
    const out: IdentifiedUnit[] = [];
    for (const unit of this.ctx.units().values()) {
      if (displayId !== undefined && !unit.config.displayIds.includes(displayId)) continue;
      let s = this.screens.get(unit.config.key);
      if (!s || s.unit !== unit)
        this.screens.set(
          unit.config.key,
          (s = { unit, steps: [], identifyUntil: 0, showing: 'content', booting: false }),
        );
      s.identifyUntil = seconds > 0 ? now + seconds * 1000 : 0;
      this.refresh(s);
      out.push({
        unit: unit.config.key,
        displays: unit.config.displayIds,
        until: seconds > 0 ? new Date(s.identifyUntil).toISOString() : null,
      });
    }
    this.ctx.log.info(
      { seconds, units: out.map((u) => u.unit), ...(displayId ? { id: displayId } : {}) },
      seconds > 0 ? 'identify: info screen shown' : 'identify: ended',
    );
    return out;
  }

  status(): BootFacts {
    return {
      units: [...this.screens.values()].map((s) => {
        const step = this.currentStep(s);
        const until = s.showing === 'identify' ? s.identifyUntil : step?.until;
        return {
          unit: s.unit.config.key,
          displays: s.unit.config.displayIds,
          showing: s.showing,
          ...(until ? { until: isoTime(until) } : {}),
        };
      }),
      completeUrls: this.completeUrls?.status() ?? [],
    };
  }

  /** Sets the overlay the unit should show now and arms a timer for the next change. */
  private refresh(s: UnitScreens): void {
    if (this.stopped) return;
    const now = this.ctx.clock.now();
    this.clearTimer(s);
    const step = this.currentStep(s);
    const identifying = s.identifyUntil > now;
    const showing: UnitShowing = identifying ? 'identify' : (step?.kind ?? 'content');
    if (showing !== s.showing || showing === 'identify') {
      const overlay =
        showing === 'content'
          ? undefined
          : showing === 'logo'
            ? step!.overlay
            : new InfoScreen(this.facts(s.unit), now, this.ctx.config().fps);
      void s.unit.setOverlay(overlay);
      if (showing !== s.showing) this.ctx.log.info({ unit: s.unit.config.key, showing }, 'unit screen');
      s.showing = showing;
    }
    if (!step && s.booting) {
      // Once per unit, when its boot ends (at once when it has no boot screens).
      s.booting = false;
      this.completeUrls?.begin(displaysOf(s.unit, this.ctx.config().displayById));
    }
    const next = Math.min(identifying ? s.identifyUntil : Infinity, step?.until ?? Infinity);
    if (next !== Infinity) s.timer = this.ctx.clock.setTimeout(() => this.refresh(s), Math.max(0, next - now));
  }

  private currentStep(s: UnitScreens): Step | undefined {
    const now = this.ctx.clock.now();
    return s.steps.find((x) => x.until > now);
  }

  private clearTimer(s: UnitScreens): void {
    if (s.timer !== undefined) this.ctx.clock.clearTimeout(s.timer);
    s.timer = undefined;
  }

  private facts(unit: Unit): InfoFacts {
    const { hostname, addresses } = identity();
    const ports = this.ctx.ports();
    const byId = this.ctx.config().displayById;
    return {
      hostname,
      addresses: addresses.map((a) => ({ interface: a.interface, address: a.address })),
      port: ports.http,
      httpsPort: ports.https,
      version: VERSION,
      displays: displaysOf(unit, byId).map((d) => ({ id: d.id, width: d.width, height: d.height })),
    };
  }

  private async logoFor(d: DisplayConfig): Promise<LogoScreen | undefined> {
    const file = d.startScreen.image;
    if (!file) return undefined;
    try {
      return new LogoScreen(await preloadImage(file));
    } catch (err) {
      this.ctx.log.warn(
        { display: d.id, err: (err as Error).message },
        'the startScreen logo cannot be shown; skipped',
      );
      return undefined;
    }
  }
}

function main(unit: Unit, byId: Map<string, DisplayConfig>): DisplayConfig {
  return byId.get(unit.config.displayIds[0])!;
}

function displaysOf(unit: Unit, byId: Map<string, DisplayConfig>): DisplayConfig[] {
  return unit.config.displayIds.map((id) => byId.get(id)).filter((d): d is DisplayConfig => d !== undefined);
}
