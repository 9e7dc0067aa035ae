// Where a JSON text goes wrong, as line and column, for a person editing config.json in a text
// editor: V8's JSON.parse names a character offset only for some mistakes and none for others.
// Runs only after JSON.parse has failed; it walks the text with an explicit stack, so a file
// nested 100,000 levels deep is no risk to it.

/** The first syntax error in `text`: 1-based line and column, what is wrong, and whether the text simply stops. */
export interface JsonSyntaxError {
  line: number;
  column: number;
  endsEarly: boolean;
  reason: string;
}

/** What a mistake inside "security" says: its text may be a key, so none of it is quoted. */
const SECRET_REASON = 'a syntax error inside "security" (none of its text is quoted here)';

type Expect = 'value' | 'valueOrClose' | 'key' | 'keyOrClose' | 'colon' | 'commaOrClose' | 'end';

const LITERALS = ['true', 'false', 'null'];

export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const stack: Array<'{' | '['> = [];
  // The property each open object is at: a mistake inside "security" may be in a key's text.
  const keys: Array<string | undefined> = [];
  let expect = 'value' as Expect;
  let i = 0;
  const at = (pos: number, reason: string, endsEarly = false): JsonSyntaxError => ({
    ...lineColumn(text, pos),
    endsEarly,
    reason: keys.includes('security') ? SECRET_REASON : reason,
  });
  const early = (what: string) => at(text.length, what, true);
  const afterValue = () => {
    expect = stack.length === 0 ? 'end' : 'commaOrClose';
  };

  for (;;) {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
    if (i >= text.length) {
      if (expect === 'end') return undefined;
      if (stack.length === 0) return early('there is no JSON value in it');
      return early(`${stack.length} object${stack.length === 1 ? ' or array is' : 's or arrays are'} not closed`);
    }
    const c = text[i];
    if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) return at(i, 'JSON does not allow comments');
    switch (expect) {
      case 'end':
        return at(i, `unexpected ${shown(c)} after the end of the JSON value`);
      case 'colon':
        if (c !== ':') return at(i, `expected ':' after the property name, found ${shown(c)}`);
        i++;
        expect = 'value';
        continue;
      case 'commaOrClose': {
        const top = stack[stack.length - 1],
          close = top === '{' ? '}' : ']';
        if (c === ',') {
          i++;
          expect = top === '{' ? 'key' : 'value';
          continue;
        }
        if (c === close) {
          i++;
          stack.pop();
          keys.pop();
          afterValue();
          continue;
        }
        const after = top === '{' ? 'a property value' : 'an array element';
        return at(i, `expected ',' or '${close}' after ${after}, found ${shown(c)}`);
      }
      case 'keyOrClose':
      case 'key':
        if (c === '}' && expect === 'keyOrClose') {
          i++;
          stack.pop();
          keys.pop();
          afterValue();
          continue;
        }
        if (c === '}') return at(i, "a comma before '}' is not allowed in JSON");
        if (c !== '"') return at(i, `expected a property name in double quotes, found ${shown(c)}`);
        {
          const r = scanString(text, i);
          if (typeof r !== 'number') return r.endsEarly ? early(r.reason) : at(r.pos, r.reason);
          keys[keys.length - 1] = text.slice(i + 1, r - 1);
          i = r;
          expect = 'colon';
        }
        continue;
      case 'valueOrClose':
      case 'value': {
        if (c === ']' && expect === 'valueOrClose') {
          i++;
          stack.pop();
          keys.pop();
          afterValue();
          continue;
        }
        if (c === ']' && stack[stack.length - 1] === '[') return at(i, "a comma before ']' is not allowed in JSON");
        if (c === '{' || c === '[') {
          stack.push(c);
          keys.push(undefined);
          i++;
          expect = c === '{' ? 'keyOrClose' : 'valueOrClose';
          continue;
        }
        const r =
          c === '"'
            ? scanString(text, i)
            : c === '-' || (c >= '0' && c <= '9')
              ? scanNumber(text, i)
              : scanLiteral(text, i);
        if (typeof r !== 'number') return r.endsEarly ? early(r.reason) : at(r.pos, r.reason);
        i = r;
        afterValue();
        continue;
      }
    }
  }
}

interface Bad {
  pos: number;
  reason: string;
  endsEarly?: boolean;
}

function scanString(text: string, start: number): number | Bad {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c < 0x20)
      return {
        pos: i,
        reason: c === 0x0a ? 'a line break inside a string (write \\n)' : 'a control character inside a string',
      };
    if (c !== 0x5c) continue;
    const e = text[++i];
    if (e === undefined) break;
    if (e === 'u') {
      if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) {
        return text.length < i + 5
          ? { pos: text.length, reason: 'a string is not closed', endsEarly: true }
          : { pos: i - 1, reason: '\\u must be followed by four hexadecimal digits' };
      }
      i += 4;
    } else if (!'"\\/bfnrt'.includes(e)) {
      return { pos: i - 1, reason: `"\\${e}" is not a JSON escape (write "\\\\" for a backslash)` };
    }
  }
  return { pos: text.length, reason: 'a string is not closed', endsEarly: true };
}

function scanNumber(text: string, start: number): number | Bad {
  const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(start, start + 400));
  const end = start + (m ? m[0].length : 0);
  if (!m)
    return end + 1 >= text.length
      ? { pos: end, reason: 'a number is cut off', endsEarly: true }
      : { pos: start, reason: 'a number must have a digit after "-"' };
  const next = text[end];
  if (next === undefined) return end;
  if (/[0-9.eE+-]/.test(next)) {
    return {
      pos: end,
      reason:
        m[1] === '0' && /\d/.test(next)
          ? 'numbers must not start with 0 (write "007" in quotes if it is a name)'
          : `the number ends badly at ${shown(next)}`,
    };
  }
  return end;
}

function scanLiteral(text: string, start: number): number | Bad {
  const word = /^[A-Za-z_$][\w$]*/.exec(text.slice(start, start + 100))?.[0];
  if (!word)
    return {
      pos: start,
      reason:
        `unexpected ${shown(text[start])} where a value should ` +
        `start${text[start] === "'" ? ' (strings need double quotes)' : ''}`,
    };
  if (LITERALS.includes(word)) return start + word.length;
  if (start + word.length >= text.length && LITERALS.some((l) => l.startsWith(word)))
    return { pos: text.length, reason: `"${word}" is cut off`, endsEarly: true };
  // A few characters only: the word may be a key written without its quotes.
  return {
    pos: start,
    reason:
      `unexpected word "${word.length > 3 ? word.slice(0, 3) + '…' : word}" (strings need double quotes; ` +
      `the only bare words are true, false and null)`,
  };
}

function shown(c: string): string {
  const code = c.codePointAt(0)!;
  if (code === 0xfeff) return 'U+FEFF (a byte order mark)';
  if (code < 0x20 || code === 0x7f) return `control character U+${code.toString(16).padStart(4, '0').toUpperCase()}`;
  return `'${c}'`;
}

function lineColumn(text: string, pos: number): { line: number; column: number } {
  let line = 1,
    lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < pos; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: pos - lineStart + 1 };
}

/** One sentence for a fault: `<name> line 3, column 12: ...` or `<name> ends early (line 9, column 1): ...`. */
export function describeJsonSyntax(name: string, text: string): string {
  const e = findJsonSyntaxError(text);
  // V8's own message quotes the text around the mistake, which may hold a key.
  if (!e) return `${name} is not valid JSON`;
  const where = `line ${e.line}, column ${e.column}`;
  return e.endsEarly
    ? `${name}: the file ends early (${where}): ${e.reason}`
    : `${name} is not valid JSON at ${where}: ${e.reason}`;
}
