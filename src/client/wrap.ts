// Word wrapping of lines we styled ourselves: nothing is cut, so a long label stays readable,
// and no line is wider than the terminal, so the rows a block takes are known (redrawing).
// Widths are the terminal's columns: a CJK character or an emoji takes two.
import { columns, graphemes } from "./text-width.js";

// eslint-disable-next-line no-control-regex
const ESCAPE = /(\x1b\[[0-9;]*[A-Za-z])/;
const RESET = "\x1b[0m";

/** The line's escapes and characters (grapheme clusters), in order. */
function tokensOf(line: string): string[] {
  return line.split(ESCAPE).flatMap((part, i) => (i % 2 === 1 ? [part] : graphemes(part)));
}

/** The gutter a continuation keeps: the line's leading box bars and spaces. */
function gutterOf(line: string): string {
  // eslint-disable-next-line no-control-regex
  const plain = line.replace(/\x1b\[[0-9;]*[A-Za-z]/g, "");
  return /^[│ ]*/u.exec(plain)?.[0] ?? "";
}

/**
 * Wraps one line (it may hold SGR escapes) to `width` columns, breaking after spaces (a word
 * longer than a line is broken anywhere). Continuation lines start with `indent` (default: the
 * line's leading gutter) and the styles open at the break.
 */
export function wrapLine(line: string, width: number, indent?: string): string[] {
  const tokens = tokensOf(line);
  const isEscape = (t: string): boolean => t.length > 1 && t.startsWith("\x1b");
  let prefix = indent ?? gutterOf(line);
  if (columns(prefix) > width / 2) prefix = "";
  const prefixWidth = columns(prefix);
  const lines: string[] = [];
  let current: string[] = [];
  let column = 0;
  /** Escapes seen so far on the whole line: replayed at each continuation. */
  const styles: string[] = [];
  let lastSpace = -1;
  let start = 0; // tokens of `current` before this index are the continuation's prefix
  for (const token of tokens) {
    if (isEscape(token)) {
      current.push(token);
      continue;
    }
    const wide = columns(token);
    if (column + wide > width && column > prefixWidth) {
      // Overflowing on a space: break there. Else after the last space, or right here.
      const cut = token === " " ? current.length : lastSpace >= start ? lastSpace : current.length;
      const head = current.slice(0, cut);
      const carry = current.slice(token !== " " && lastSpace >= start ? cut + 1 : cut);
      while (head.length > start && head.at(-1) === " ") head.pop();
      for (const t of head.slice(start)) if (isEscape(t)) styles.push(t);
      lines.push(head.join("") + (styles.length ? RESET : ""));
      current = [...graphemes(prefix), ...styles];
      start = current.length;
      column = prefixWidth;
      for (const t of carry) {
        current.push(t);
        if (!isEscape(t)) column += columns(t);
      }
      lastSpace = -1;
      if (token === " ") continue;
    }
    if (token === " " && column > prefixWidth) lastSpace = current.length;
    current.push(token);
    column += wide;
  }
  lines.push(current.join(""));
  return lines;
}

/** Every line wrapped to `width`. */
export function wrapLines(lines: readonly string[], width: number): string[] {
  return lines.flatMap((line) => line.split("\n").flatMap((l) => wrapLine(l, width)));
}

/** Plain text word-wrapped to `width`: the first line after `first`, the rest after `rest`. */
export function wrapText(text: string, width: number, first = "", rest = first): string[] {
  const [head, ...tail] = wrapLine(first + text, width, rest);
  return [head ?? first, ...tail];
}

/**
 * Rows a line drawn at some width takes once the terminal is `width` wide: terminals that
 * reflow (tmux, most emulators) rewrap it.
 */
export function rowsAt(visibleLength: number, width: number): number {
  return Math.max(1, Math.ceil(visibleLength / Math.max(1, width)));
}
