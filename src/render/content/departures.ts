// A departures area's picture: the next departures at its stops, from the unit's BoardSource,
// laid out as a table in the area's columns (src/text/columns.ts). The board is asked again when
// a row would read differently (departure-rows.ts), at each minute, and when the source says a
// feed brought news or went stale; only cells whose text changed are laid out again (the cell
// cache), and the picture changes only when some text did.
import type { CanvasRenderingContext2D } from 'canvas';
import type { AreaOf, DeparturesConfig } from '../../config/types.js';
import { DEFAULTS } from '../../config/defaults.js';
import type { Column, LaidCell } from '../../text/columns.js';
import type { Doc } from '../../text/doc.js';
import { faceFor } from '../../text/faces.js';
import { layoutBlock } from '../../text/layout.js';
import { systemZone } from '../../time/system-zone.js';
import { BlockContent } from './block.js';
import type { BoardData, BoardQuery, BoardSource } from '../../config/board-source.js';
import { nextContentId, type Content, type ContentReport, type TextFit } from './content.js';
import { boardRows } from './departure-rows.js';
import { scrollPxPerSecond } from './scroll.js';

/** The unit's board source as a drawer sees it: `version` counts the source's news. */
export interface Boards {
  source: BoardSource | undefined;
  version: number;
}

const MINUTE = 60_000;
/** Pages a board with overflow "pages" shows at most. */
export const MAX_PAGES = 4;
const NO_DATA: BoardData = { state: 'no-data', departures: [] };

/** Rows of the area's font that its height holds, and a row's height in px. */
export function rowsThatFit(area: AreaOf<'departures'>): { fit: number; rowPx: number } {
  const line = faceFor(area.font, area.fontSize, area.antialias === 'none');
  const gap = area.lineSpacing ?? 0;
  const rowPx = line.ascent + line.descent;
  return { fit: Math.max(1, Math.floor((area.height + gap) / (rowPx + gap))), rowPx };
}

const timed = (f: string | undefined) => f === 'time' || f === 'countdown';

export interface DeparturesEnv {
  boards?: () => Boards;
  timezone?: string;
  start: number;
}

export class DeparturesContent implements Content {
  readonly id = nextContentId();
  private readonly board: DeparturesConfig;
  private readonly zone: string;
  private readonly perPage: number;
  private readonly limit: number;
  private readonly columns: Column[] | undefined;
  /** The board asked at `from` reads the same until `until`, unless the source's version changes. */
  private from = Infinity;
  private until = -Infinity;
  private version = -1;
  private source: BoardSource | undefined;
  private text: string | undefined;
  private block: BlockContent | undefined;
  private serial = 0;
  private keyText = '';
  private keySerial = -1;
  private keyBlock = '';
  private readonly cellCache = new Map<string, LaidCell>();
  private boardFault: string | undefined;
  /** What the board last showed, for /status: rows a line, cells tab-separated, and the feed's state. */
  private shown: ContentReport | undefined;

  constructor(
    private readonly area: AreaOf<'departures'>,
    private readonly env: DeparturesEnv,
  ) {
    this.board = area.departures;
    this.zone = env.timezone ?? systemZone();
    this.perPage = this.board.rows ?? rowsThatFit(area).fit;
    // Time cells set their digits tabular and hang the scheduled mark outside them (columns.ts), so rows line up.
    const mark = this.board.scheduledMark;
    this.columns = area.columns?.map((c, i) =>
      timed(this.board.fields[i]) ? { ...c, tabular: true, ...(mark ? { mark } : {}) } : c,
    );
    this.limit = this.perPage * (area.overflow === 'pages' ? MAX_PAGES : 1);
  }

  private refresh(now: number): BlockContent {
    const b = this.env.boards?.();
    if (this.block && b?.version === this.version && b?.source === this.source && now >= this.from && now < this.until)
      return this.block;
    this.version = b?.version ?? -1;
    this.source = b?.source;
    let data = NO_DATA;
    this.boardFault = undefined;
    try {
      if (b?.source) data = b.source.board(this.query(now));
    } catch (err) {
      this.boardFault = `board: ${err instanceof Error ? err.message : String(err)}`;
    }
    const { rows, until } =
      data.state === 'no-data'
        ? { rows: [], until: Infinity }
        : boardRows(this.board, data, now, this.zone, this.limit);
    this.from = now;
    this.until = Math.min(until, (Math.floor(now / MINUTE) + 1) * MINUTE);
    // A board with nothing to show says why: no data from the feed, or no departure in it.
    const empty =
      data.state === 'no-data' ? this.board.noDataText : rows.length ? undefined : this.board.noDeparturesText;
    const lines = empty !== undefined ? [empty] : rows.map((r) => r.join('\t'));
    const text = `${empty !== undefined ? 'n' : 't'}${lines.join('\n')}`;
    if (text !== this.text || !this.block) {
      this.text = text;
      this.block = this.layout(lines, empty === undefined);
      this.serial++;
    }
    this.shown = { text: lines.join('\n'), board: data.state };
    return this.block;
  }

  private query(now: number): BoardQuery {
    const { feed, stops, routes, staleAfter, filters, walkMinutes } = this.board;
    return {
      feed,
      stops,
      routes,
      staleAfter,
      now,
      limit: this.limit,
      ...(filters?.directions?.length ? { directions: filters.directions } : {}),
      ...(filters?.headsigns?.length ? { headsigns: filters.headsigns } : {}),
      ...(walkMinutes ? { notBefore: now + walkMinutes * MINUTE } : {}),
    };
  }

  private layout(lines: string[], table: boolean): BlockContent {
    const a = this.area;
    const pages: Doc['pages'] = [];
    for (let i = 0; i < Math.max(1, lines.length); i += this.perPage) {
      pages.push({ lines: lines.slice(i, i + this.perPage).map((t) => ({ spans: t ? [{ text: t, font: 0 }] : [] })) });
    }
    // Cells of earlier boards go now and then: the cache holds about what a few boards show.
    if (this.cellCache.size > 4 * this.limit * (a.columns?.length ?? 1)) this.cellCache.clear();
    const layout = layoutBlock(
      { pages, multi: false },
      {
        width: a.width,
        height: a.height,
        font: a.font,
        fonts: a.fonts ?? [],
        fontSize: a.fontSize,
        minFontSize: a.fit === 'shrink' ? (a.minFontSize ?? Math.max(1, Math.floor(a.fontSize / 2))) : undefined,
        wrap: false,
        lineSpacing: a.lineSpacing,
        valign: a.valign ?? 'top',
        align: a.align,
        overflow: a.overflow ?? 'pages',
        pageMs: (a.pageSeconds ?? 3) * 1000,
        crisp: a.antialias === 'none',
        color: a.fontColor,
        rtl: false,
        graphicSize: () => undefined,
        columns: table ? this.columns : undefined,
        cellCache: table ? this.cellCache : undefined,
      },
    );
    return new BlockContent({
      layout,
      width: a.width,
      height: a.height,
      align: a.align,
      pxPerSecond: scrollPxPerSecond(DEFAULTS.scrollSpeed),
      gapPx: 0,
      origin: this.env.start,
      step: 1,
      direction: 'left',
      graphicFile: () => undefined,
    });
  }

  key(now: number): string {
    const inner = this.refresh(now).key(now);
    if (inner !== this.keyBlock || this.serial !== this.keySerial) {
      this.keyBlock = inner;
      this.keySerial = this.serial;
      this.keyText = `dep${this.id}:${this.serial}:${inner}`;
    }
    return this.keyText;
  }

  nextChange(now: number): number {
    const block = this.refresh(now);
    return Math.min(this.until, block.nextChange(now));
  }

  draw(ctx: CanvasRenderingContext2D, ox: number, oy: number, now: number): void {
    this.refresh(now).draw(ctx, ox, oy, now);
  }

  get textFit(): TextFit | undefined {
    return this.block?.textFit;
  }

  get fault(): string | undefined {
    return this.boardFault;
  }

  report(): ContentReport | undefined {
    return this.shown;
  }
}
