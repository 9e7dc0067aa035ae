// The info screen: what a technician standing in front of a panel needs to reach its
// controller. The layout is chosen by the unit's size: a 64x32 LED module gets the address
// alone (scrolling when it does not fit), a small panel the addresses and the hostname, a
// large one every fact with labels.
import path from 'node:path';
import type { CanvasRenderingContext2D } from 'canvas';
import type { Overlay } from '../render/compositor.js';
import { cssFont, PACKAGE_FONT_DIR } from '../text/fonts.js';

export interface InfoFacts {
  hostname: string;
  /** Every non-loopback IPv4 address with its interface. */
  addresses: Array<{ interface: string; address: string }>;
  port: number;
  httpsPort?: number;
  version: string;
  /** The unit's displays, MAIN first. */
  displays: Array<{ id: string; width: number; height: number }>;
}

export type InfoLayout = 'tiny' | 'small' | 'large';

const BOLD = path.join(PACKAGE_FONT_DIR, 'DejaVuSans-Bold.ttf');
const AMBER = '#ffb000';
const WHITE = '#ffffff';
const GREY = '#b8b8b8';
/** Below this a line is not legible from a step away; lines are dropped instead. */
const MIN_PX = 11;
/** Scroll speed of the tiny layout, in unit heights per second (a 32 px module: 48 px/s). */
const SCROLL_HEIGHTS_PER_S = 1.5;
const SCROLL_GAP = 0.6;

interface Line {
  text: string;
  color: string;
  scale: number;
}

export function layoutFor(width: number, height: number): InfoLayout {
  if (height < 40 || width < 128) return 'tiny';
  if (height < 200 || width < 360) return 'small';
  return 'large';
}

/** The address line of the tiny layout: every address with the port, as typed in a browser. */
export function addressLine(f: InfoFacts): string {
  if (f.addresses.length === 0) return `${f.hostname}:${f.port} (no IPv4 address)`;
  return f.addresses.map((a) => `${a.address}:${f.port}`).join('   ');
}

function linesFor(layout: InfoLayout, f: InfoFacts): Line[] {
  const addrs = f.addresses.length
    ? f.addresses.map((a) => ({
        text: `${a.address}:${f.port}${layout === 'large' ? `  ${a.interface}` : ''}`,
        color: WHITE,
        scale: 1,
      }))
    : [{ text: 'no IPv4 address', color: WHITE, scale: 1 }];
  if (layout === 'small') return [...addrs, { text: f.hostname, color: AMBER, scale: 0.8 }];
  const shown = f.displays.map((d) => `${d.id} ${d.width}x${d.height}`).join(', ');
  return [
    { text: f.hostname, color: AMBER, scale: 1.3 },
    ...addrs,
    ...(f.httpsPort ? [{ text: `https port ${f.httpsPort}`, color: GREY, scale: 0.8 }] : []),
    { text: `displays ${shown}`, color: GREY, scale: 0.8 },
    { text: `mlds ${f.version}`, color: GREY, scale: 0.8 },
  ];
}

/** The largest font size (px) at which every line fits `w` x `h`, or undefined below MIN_PX. */
function fitSize(ctx: CanvasRenderingContext2D, lines: Line[], w: number, h: number, cap: number): number | undefined {
  const rows = lines.reduce((s, l) => s + l.scale * 1.25, 0);
  let size = Math.min(Math.floor(h / rows), cap);
  for (; size >= MIN_PX; size = Math.min(size - 1, Math.floor(size * 0.95))) {
    if (lines.every((l) => widthOf(ctx, l.text, Math.round(size * l.scale)) <= w)) return size;
  }
  return undefined;
}

function widthOf(ctx: CanvasRenderingContext2D, text: string, px: number): number {
  ctx.font = cssFont(px, BOLD);
  return ctx.measureText(text).width;
}

/** The info screen as an overlay over a whole unit. */
export class InfoScreen implements Overlay {
  private readonly started: number;
  private scrolls = false;

  constructor(
    private readonly facts: InfoFacts,
    now: number,
    private readonly fps = 50,
  ) {
    this.started = now;
  }

  draw(ctx: CanvasRenderingContext2D, width: number, height: number, now: number): void {
    const chosen = this.choose(ctx, width, height);
    if (!chosen) {
      this.drawScrolling(ctx, width, height, now);
      return;
    }
    const { lines, size, left, margin } = chosen;
    this.scrolls = false;
    ctx.textBaseline = 'middle';
    const total = lines.reduce((s, l) => s + l.scale * size * 1.25, 0);
    let y = Math.round((height - total) / 2);
    for (const l of lines) {
      const px = Math.round(size * l.scale);
      ctx.font = cssFont(px, BOLD);
      ctx.fillStyle = l.color;
      const w = ctx.measureText(l.text).width;
      ctx.fillText(l.text, left ? margin : Math.round((width - w) / 2), y + (px * 1.25) / 2);
      y += px * 1.25;
    }
  }

  /** The richest layout the unit's size allows at a legible size, down to the addresses alone; undefined: scroll. */
  private choose(
    ctx: CanvasRenderingContext2D,
    width: number,
    height: number,
  ): { lines: Line[]; size: number; left: boolean; margin: number } | undefined {
    const layout = layoutFor(width, height);
    if (layout === 'tiny') return undefined;
    const candidates: Array<{ lines: Line[]; left: boolean; margin: number }> = [];
    if (layout === 'large')
      candidates.push({ lines: linesFor('large', this.facts), left: true, margin: Math.round(width * 0.04) });
    const small = linesFor('small', this.facts);
    candidates.push({ lines: small, left: false, margin: 2 }, { lines: small.slice(0, -1), left: false, margin: 2 });
    for (const c of candidates) {
      // A full screen of facts reads best at no more than a sixth of the height per line.
      const cap = c.left ? Math.floor(height / 6) : Infinity;
      const size = fitSize(ctx, c.lines, width - 2 * c.margin, height - 2 * c.margin, cap);
      if (size !== undefined) return { ...c, size };
    }
    return undefined;
  }

  nextChange(now: number): number {
    return this.scrolls ? now + 1000 / this.fps : Infinity;
  }

  /** One line, as high as the unit allows; it scrolls right to left when wider than the unit. */
  private drawScrolling(ctx: CanvasRenderingContext2D, width: number, height: number, now: number): void {
    const text = addressLine(this.facts);
    const px = Math.max(8, Math.floor(height * 0.72));
    ctx.font = cssFont(px, BOLD);
    ctx.fillStyle = WHITE;
    ctx.textBaseline = 'middle';
    const w = ctx.measureText(text).width;
    this.scrolls = w > width;
    if (!this.scrolls) {
      ctx.fillText(text, Math.round((width - w) / 2), height / 2);
      return;
    }
    const period = w + Math.round(width * SCROLL_GAP);
    const travelled = Math.floor(((now - this.started) / 1000) * SCROLL_HEIGHTS_PER_S * height) % period;
    // Starts with the text's beginning at the left edge: the address is readable at once.
    const x = -travelled;
    ctx.fillText(text, x, height / 2);
    if (x + period < width) ctx.fillText(text, x + period, height / 2);
  }
}
