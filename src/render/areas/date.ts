import type { CanvasRenderingContext2D } from 'canvas';
import { DateTimeFormatter, Instant, ZonedDateTime, ZoneId, ZoneOffset } from '@js-joda/core';
import { Locale } from '@js-joda/locale_en';
import '@js-joda/timezone';
import type { AreaConfig } from '../../config/types.js';
import { nextContentId, type Content } from './content.js';
import { TextStrip, type TextStyle } from './strip.js';

const DEFAULT_PATTERN = 'HH:mm:ss';
const formatters = new Map<string, DateTimeFormatter>();
const zones = new Map<string, ZoneId>();

function formatter(pattern: string): DateTimeFormatter {
  let f = formatters.get(pattern);
  if (!f) {
    f = DateTimeFormatter.ofPattern(pattern).withLocale(Locale.ENGLISH);
    formatters.set(pattern, f);
  }
  return f;
}

/** dateOffset (hours, fractional allowed) wins; else the configured IANA zone; else the system's. */
function zoneOf(area: AreaConfig, zone: string | undefined): ZoneId {
  if (area.dateOffset !== undefined) return ZoneOffset.ofTotalSeconds(Math.round(area.dateOffset * 3600));
  const name = zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';
  let z = zones.get(name);
  if (!z) {
    z = ZoneId.of(name);
    zones.set(name, z);
  }
  return z;
}

/** The text a date area shows at `now` (ms epoch): its java.time pattern in English. */
export function dateText(area: AreaConfig, now: number, zone?: string): string {
  const t = ZonedDateTime.ofInstant(Instant.ofEpochMilli(Math.floor(now)), zoneOf(area, zone));
  return t.format(formatter(area.dateFormat ?? DEFAULT_PATTERN));
}

/** A live clock: static aligned text that is re-rasterised only when the formatted text changes. */
export class DateContent implements Content {
  private readonly id = nextContentId();
  private strip: TextStrip | undefined;

  constructor(
    private readonly area: AreaConfig,
    private readonly style: TextStyle,
    private readonly zone: string | undefined,
  ) {}

  key(now: number): string {
    return `d${this.id}:${dateText(this.area, now, this.zone)}`;
  }

  /** Patterns have no unit finer than a second and zone offsets are whole seconds. */
  nextChange(now: number): number {
    return (Math.floor(now / 1000) + 1) * 1000;
  }

  draw(ctx: CanvasRenderingContext2D, ox: number, oy: number, now: number): void {
    const text = dateText(this.area, now, this.zone);
    if (this.strip?.text !== text) this.strip = new TextStrip(text, this.style, this.area.height);
    const free = this.area.width - this.strip.width;
    const a = this.area.align;
    const x = a === 'center' ? Math.round(free / 2) : a === 'right' ? Math.round(free) : 0;
    this.strip.draw(ctx, ox + x, oy);
  }
}
