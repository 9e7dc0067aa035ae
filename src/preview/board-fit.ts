// `mlds test` on departure boards: rows that the area's height cannot hold (a board showing one
// row where three were meant), and board texts wider than their column (a "cancelled" cut to
// "cance"). Measured with the layout the board draws with, so the verdict is what the panel does.
import { pointer } from '../config/faults.js';
import type { AreaOf, DeparturesConfig, ServiceConfig } from '../config/types.js';
import { cancelledIn } from '../render/content/departure-rows.js';
import { rowsThatFit } from '../render/content/departures.js';
import type { Column } from '../text/columns.js';
import { layLine, type StyleEnv } from '../text/lines.js';
import { fontDirsOf } from './fit.js';
import { useFontDirs } from '../text/fonts.js';

type Board = AreaOf<'departures'>;

/** The widest "HH:mm": the widest digit that each place may hold. */
function widestTime(width: (s: string) => number): string {
  const widest = (max: number) =>
    [...Array(max + 1).keys()].map(String).reduce((w, d) => (width(d) > width(w) ? d : w));
  return `${widest(2)}${widest(9)}:${widest(5)}${widest(9)}`;
}

/** Texts a time column may show, each with whether `scheduledMark` may follow it. */
function timedTexts(
  b: DeparturesConfig,
  field: 'countdown' | 'time',
  width: (s: string) => number,
): Array<[string, string, boolean]> {
  const main: Array<[string, string, boolean]> = [];
  if (field === 'time') main.push([widestTime(width), 'the widest time', true]);
  else {
    main.push([b.nowText, 'nowText', true]);
    const counts = [...Array(99).keys()].map((i) => b.minutesText.replaceAll('{m}', String(i + 1)));
    main.push([
      counts.reduce((w, s) => (width(s) > width(w) ? s : w)),
      'the widest countdown (up to 99 minutes)',
      true,
    ]);
  }
  if (cancelledIn(b.fields) !== field) return main;
  if (field === 'countdown' && b.fields.includes('time')) return [...main, [b.cancelledText, 'cancelledText', false]];
  return [...main, [`${main[main.length - 1][0]} ${b.cancelledText}`, 'a cancelled row', false]];
}

const quote = (s: string) => JSON.stringify(s);

function boardWarnings(at: string, a: Board): string[] {
  const out: string[] = [];
  const b = a.departures;
  const { fit, rowPx } = rowsThatFit(a);
  if (b.rows !== undefined && b.rows > fit) {
    const gap = a.lineSpacing ?? 0;
    out.push(
      `${at}/rows: ${b.rows} rows of ${rowPx} px need ${b.rows * rowPx + (b.rows - 1) * gap} px; the area is ` +
        `${a.height} px high, so ${fit} row(s) show at a time`,
    );
  }
  const env: StyleEnv = {
    font: a.font,
    fonts: a.fonts ?? [],
    size: a.fontSize,
    crisp: a.antialias === 'none',
    color: a.fontColor,
    graphicSize: () => undefined,
    rtl: false,
  };
  const width = (s: string) => (s ? Math.ceil(layLine({ spans: [{ text: s, font: 0 }] }, env)[0].width) : 0);
  const markPx = width(b.scheduledMark);
  (a.columns ?? []).forEach((col: Column, i) => {
    const field = b.fields[i];
    if (field !== 'countdown' && field !== 'time') return;
    for (const [text, what, marked] of timedTexts(b, field, width)) {
      // Right and centred cells keep room for the mark whatever they hold, so digits stay in line.
      const need = width(text) + (marked || col.align !== 'left' ? markPx : 0);
      const shown = marked ? `${text}${b.scheduledMark}` : text;
      if (need > col.width)
        out.push(
          `${at}/columns/${i}: ${what} ${quote(shown)} needs ${need} px, the column is ${col.width} px: it is cut`,
        );
    }
  });
  return out;
}

/** Warnings for every departures area of the configuration (the font folders are put in use). */
export function boardFitWarnings(config: ServiceConfig): string[] {
  useFontDirs(fontDirsOf(config));
  const out: string[] = [];
  for (const d of config.displays) {
    for (const [name, layout] of d.layouts) {
      for (const a of layout.areas) {
        // An area holding a board (only departures areas do).
        if ('departures' in a) out.push(...boardWarnings(pointer('displays', d.id, 'layout', name, a.id), a));
      }
    }
  }
  return out;
}
