// ANSI styling that can be switched off (pipes, NO_COLOR) and text made safe for a terminal.
import { columns, graphemes } from "./text-width.js";

export interface Style {
  readonly enabled: boolean;
  bold: (text: string) => string;
  dim: (text: string) => string;
  italic: (text: string) => string;
  red: (text: string) => string;
  green: (text: string) => string;
  yellow: (text: string) => string;
  blue: (text: string) => string;
  magenta: (text: string) => string;
  cyan: (text: string) => string;
  inverse: (text: string) => string;
}

const sgr =
  (enabled: boolean, open: number, close: number) =>
  (text: string): string =>
    enabled && text !== "" ? `\x1b[${open}m${text}\x1b[${close}m` : text;

export function createStyle(enabled: boolean): Style {
  return {
    enabled,
    bold: sgr(enabled, 1, 22),
    dim: sgr(enabled, 2, 22),
    italic: sgr(enabled, 3, 23),
    red: sgr(enabled, 31, 39),
    green: sgr(enabled, 32, 39),
    yellow: sgr(enabled, 33, 39),
    blue: sgr(enabled, 34, 39),
    magenta: sgr(enabled, 35, 39),
    cyan: sgr(enabled, 36, 39),
    inverse: sgr(enabled, 7, 27),
  };
}

/** Colours on a TTY unless NO_COLOR is set; FORCE_COLOR forces them (e.g. under a pager). */
export function colorWanted(isTTY: boolean, env: NodeJS.ProcessEnv): boolean {
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0") return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  return isTTY && env.TERM !== "dumb";
}

// C0 controls but tab and newline, DEL, and C1 controls: an agent's text must never move our
// cursor, change colours or set a window title. Bidi overrides and isolates: nor may it
// show its characters in an order other than the one they have (Trojan Source).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/** Agent-provided text made inert: control and bidi characters dropped, tabs as two spaces. */
export function sanitize(text: string): string {
  return text.replace(/\r\n?/g, "\n").replace(CONTROL, "").replace(/\t/g, "  ");
}

/** One line: sanitized, newlines as spaces, runs of whitespace collapsed. */
export function oneLine(text: string): string {
  return sanitize(text).replace(/\s+/g, " ").trim();
}

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;

/** Columns a line we styled ourselves takes (escapes not counted, wide characters two). */
export function visibleLength(text: string): number {
  return columns(text.replace(ANSI, ""));
}

/** The first characters of `text` that fit in `width` columns. */
function fitting(text: string, width: number): string {
  let used = 0;
  let head = "";
  for (const cell of graphemes(text)) {
    used += columns(cell);
    if (used > width) break;
    head += cell;
  }
  return head;
}

/** `text` cut to `width` columns after its last whole word that fits, with "…". */
export function truncateWords(text: string, width: number): string {
  if (columns(text) <= width) return text;
  const head = fitting(text, Math.max(0, width - 1));
  const space = head.lastIndexOf(" ");
  // A single word longer than the room is cut where it must be.
  return `${(space > 0 ? head.slice(0, space) : head).trimEnd()}…`;
}

/** Cuts a plain (unstyled) string to `width` columns, marking the cut with "…". */
export function truncate(text: string, width: number): string {
  if (columns(text) <= width) return text;
  return width <= 1 ? "…".slice(0, width) : `${fitting(text, width - 1)}…`;
}
