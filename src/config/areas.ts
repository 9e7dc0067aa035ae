import type { AreaType } from './types.js';

const TEXTUAL: AreaType[] = ['static', 'text', 'dynamic'];
const SCROLLING: AreaType[] = ['text', 'dynamic'];
const ALL: AreaType[] = ['static', 'text', 'dynamic', 'image', 'video', 'date', 'audio', 'web'];

/** Which area properties each type accepts (the specification's "Applies to" column). */
export const APPLIES_TO: Record<string, AreaType[]> = {
  coordinates: ALL,
  type: ALL,
  ttl: ALL,
  defaultValue: ALL.filter((t) => t !== 'date'),
  params: ['static', 'image', 'video', 'audio', 'web'],
  // A clock is often centred; the spec names text and static only, but the date text is laid out the same way.
  align: [...TEXTUAL, 'date'],
  font: [...TEXTUAL, 'date'],
  fontSize: [...TEXTUAL, 'date'],
  fontColor: [...TEXTUAL, 'date'],
  // The spec names text and static; every area fills its background (DECISIONS), so all accept it.
  backgroundColor: ALL,
  textFromStart: SCROLLING,
  textLiveUpdate: SCROLLING,
  headToTail: SCROLLING,
  scrollSpeed: SCROLLING,
  // Effects apply to every area type (rendering issue), not only text.
  dispEffect: ALL,
  clearEffect: ALL,
  dateOffset: ['date'],
  dateFormat: ['date'],
  xy: ['web'],
};

/** Types whose request value is a key into params. */
export const KEYED: AreaType[] = ['static', 'image', 'video', 'audio', 'web'];

/** File extensions each file-backed type accepts. */
export const FILE_TYPES: Partial<Record<AreaType, string[]>> = {
  image: ['.png', '.jpg', '.jpeg', '.gif'],
  video: ['.mp4'],
  audio: ['.mp3', '.wav'],
};

export const DEFAULTS = {
  port: 9199,
  align: 'left',
  fontColor: { r: 255, g: 255, b: 255 },
  textFromStart: true,
  textLiveUpdate: false,
  headToTail: 5,
  scrollSpeed: 4,
  effect: 1,
  dateFormat: 'HH:mm:ss',
  infoScreenTtl: 0,
  logRetentionDays: 31,
  rateLimit: 50,
  effectDurationMs: 500,
  fps: 50,
  ddpPort: 4048,
  defaultFont: 'DejaVuSans.ttf',
} as const;

/** The default font size when the file gives none: as large as fits comfortably. */
export function defaultFontSize(areaHeight: number): number {
  return Math.max(1, Math.floor(areaHeight * 0.7));
}
