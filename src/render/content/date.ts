import type { CanvasRenderingContext2D } from 'canvas';
import type { AreaOf } from '../../config/types.js';
import { formatEnglish, zonedAt } from '../../time/date-format.js';
import { systemZone } from '../../time/system-zone.js';
import { clockHeld } from '../../time/clock-guard.js';
import { nextContentId, type Content } from './content.js';
import { isBitmapFontFile } from '../../text/bdf.js';
import { layLine } from '../../text/lines.js';
import { LineRaster } from './line-raster.js';
import { TextStrip, type TextStyle } from './strip.js';

/**
 * The text a date area shows at `now` (ms epoch): its java.time pattern in English.
 * dateOffset (hours, fractional allowed) wins; else the configured IANA zone; else the system's.
 */
export function dateText(area: AreaOf<'date'>, now: number, zone?: string): string {
  return formatEnglish(zonedAt(now, area.dateOffset, zone ?? systemZone()), area.dateFormat);
}

/**
 * What a date area shows: nothing while the clock is not set (1970 after a boot without a battery), never a wrong date.
 */
export function shownDate(area: AreaOf<'date'>, now: number, zone?: string): string {
  return clockHeld(now) ? '' : dateText(area, now, zone);
}

/** A live clock: static aligned text that is re-rasterised only when the formatted text changes. */
export class DateContent implements Content {
  private readonly id = nextContentId();
  private strip: TextStrip | LineRaster | undefined;
  private stripText = '';
  /** A BDF font or antialias "none": drawn as pixels by the sign-text layout. */
  private readonly pixels: boolean;
  /** The text shown and the second it is for: a frame of the second's other 49 asks again for nothing. */
  private textSecond = NaN;
  private textHeld = false;
  private text = '';
  private keyText = '';

  constructor(
    private readonly area: AreaOf<'date'>,
    private readonly style: TextStyle,
    private readonly zone: string | undefined,
  ) {
    this.pixels = (!!area.font && isBitmapFontFile(area.font)) || area.antialias === 'none';
  }

  key(now: number): string {
    this.textAt(now);
    return this.keyText;
  }

  /**
   * shownDate() for `now`, formatted once a second: patterns have no unit finer than a
   * second, zone offsets change on whole seconds, and the clock guard's answer is asked each time.
   */
  private textAt(now: number): string {
    const second = Math.floor(now / 1000);
    const held = !!clockHeld(now);
    if (second !== this.textSecond || held !== this.textHeld) {
      this.textSecond = second;
      this.textHeld = held;
      const text = shownDate(this.area, now, this.zone);
      if (text !== this.text || !this.keyText) {
        this.text = text;
        this.keyText = `d${this.id}:${text}`;
      }
    }
    return this.text;
  }

  /** Patterns have no unit finer than a second and zone offsets are whole seconds. */
  nextChange(now: number): number {
    return (Math.floor(now / 1000) + 1) * 1000;
  }

  draw(ctx: CanvasRenderingContext2D, ox: number, oy: number, now: number): void {
    const text = this.textAt(now);
    if (!this.strip || this.stripText !== text) {
      this.stripText = text;
      this.strip = this.pixels ? this.raster(text) : new TextStrip(text, this.style, this.area.height);
    }
    const free = this.area.width - this.strip.width;
    const a = this.area.align;
    const x = a === 'center' ? Math.round(free / 2) : a === 'right' ? Math.round(free) : 0;
    const y = this.strip instanceof LineRaster ? Math.round((this.area.height - this.strip.height) / 2) : 0;
    this.strip.draw(ctx, ox + x, oy + y);
  }

  private raster(text: string): LineRaster {
    const env = {
      font: this.style.font,
      fonts: [],
      size: this.style.size,
      crisp: true,
      color: this.style.color,
      graphicSize: () => undefined,
      rtl: false,
    };
    return new LineRaster(layLine({ spans: [{ text, font: 0 }] }, env)[0], () => undefined);
  }
}
