// A one-glyph 8x16 BDF font written by the tests that need a pixel font of their own: an "I"
// as GNU Unifont draws it (16 rows: ascent 14, descent 2).

/** The font's text, with `change` applied to its lines. */
export function pixelFont(change: (lines: string[]) => string[] = (l) => l): string {
  return (
    change([
      'STARTFONT 2.1',
      'FONT -test-fixed-medium-r-normal--16-160-75-75-c-80-iso10646-1',
      'SIZE 16 75 75',
      'FONTBOUNDINGBOX 8 16 0 -2',
      'STARTPROPERTIES 3',
      'PIXEL_SIZE 16',
      'FONT_ASCENT 14',
      'FONT_DESCENT 2',
      'ENDPROPERTIES',
      'CHARS 1',
      'STARTCHAR I',
      'ENCODING 73',
      'SWIDTH 500 0',
      'DWIDTH 8 0',
      'BBX 8 16 0 -2',
      'BITMAP',
      '00',
      '00',
      '00',
      '00',
      '7C',
      '10',
      '10',
      '10',
      '10',
      '10',
      '10',
      '10',
      '7C',
      '00',
      '00',
      '00',
      'ENDCHAR',
      'ENDFONT',
    ]).join('\n') + '\n'
  );
}

/** Replaces the value of the line whose keyword is `key`. */
export const setLine =
  (key: string, value: string) =>
  (lines: string[]): string[] =>
    lines.map((l) => (l.split(' ')[0] === key ? `${key} ${value}` : l));
