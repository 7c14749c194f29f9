// How much of one line of the agent's text the client shows. An agent may send megabytes where
// a line is expected (a title, an option, a reply without a line break): shown whole, it would
// flood the terminal and take minutes to wrap. What is cut says how long the whole was.

/** A single-line field (title, option, task, mode, question): 20 rows of 100 columns. */
export const FIELD_MAX = 2_000;
/** A line of multi-line text (a reply, a tool's text, a diff): longer than any paragraph. */
export const LINE_MAX = 10_000;

/** Groups of three digits, as "10,485,760" (the same on every locale). */
const grouped = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** What stands after a cut: the whole's length, "… (10,485,760 characters)". */
export function cutNote(length: number): string {
  return `… (${grouped(length)} characters)`;
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/** Code points in `text`, counted without building an array of them. */
export function codePoints(text: string): number {
  let count = text.length;
  for (let i = 1; i < text.length; i++) {
    if (isLowSurrogate(text.charCodeAt(i)) && isHighSurrogate(text.charCodeAt(i - 1))) count--;
  }
  return count;
}

/** The UTF-16 index after the first `max` code points of `text` (its length if it has fewer). */
function indexAfter(text: string, max: number): number {
  let index = 0;
  for (let n = 0; n < max && index < text.length; n++) {
    index +=
      isHighSurrogate(text.charCodeAt(index)) && isLowSurrogate(text.charCodeAt(index + 1)) ? 2 : 1;
  }
  return index;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
/** How far back a cut looks for the start of the character it falls in. */
const GRAPHEME_REACH = 32;

/**
 * `index` moved back to the start of the grapheme it falls in (an emoji with its modifiers, a
 * letter with its accents), so a cut keeps characters whole. Only the text around `index` is
 * looked at.
 */
function graphemeStart(text: string, index: number): number {
  const from = Math.max(0, index - GRAPHEME_REACH);
  let start = from;
  for (const segment of graphemes.segment(text.slice(from, index + GRAPHEME_REACH))) {
    if (from + segment.index > index) break;
    start = from + segment.index;
  }
  // A grapheme longer than the reach: cut between its code points rather than before it all.
  return start === from && from > 0 ? index : start;
}

/** `text` cut to its first `max` code points (whole graphemes), the cut noted; else `text`. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = indexAfter(text, max);
  if (end >= text.length) return text;
  return `${text.slice(0, graphemeStart(text, end))}${cutNote(codePoints(text))}`;
}

/** A single-line field as shown: at most FIELD_MAX code points, and its length if more. */
export function cutField(text: string): string {
  return cut(text, FIELD_MAX);
}

/** Multi-line text with each line cut to LINE_MAX code points. */
export function cutLines(text: string): string {
  if (text.length <= LINE_MAX) return text;
  return text
    .split("\n")
    .map((line) => cut(line, LINE_MAX))
    .join("\n");
}

/**
 * The lines of text that arrives in pieces (a streamed reply), each cut to LINE_MAX code
 * points; a cut line's note comes when the line ends.
 */
export class StreamedLines {
  /** Code points of the open line shown, and in all. */
  private shown = 0;
  private length = 0;

  /** What to show of the next piece. */
  push(piece: string): string {
    let out = "";
    let from = 0;
    for (;;) {
      const newline = piece.indexOf("\n", from);
      out += this.take(piece.slice(from, newline < 0 ? piece.length : newline));
      if (newline < 0) return out;
      out += `${this.end()}\n`;
      from = newline + 1;
    }
  }

  /** The open line ends (a line break, or the end of the text): its note if it was cut. */
  end(): string {
    const note = this.length > this.shown ? cutNote(this.length) : "";
    this.shown = 0;
    this.length = 0;
    return note;
  }

  private take(part: string): string {
    const count = codePoints(part);
    this.length += count;
    const room = LINE_MAX - this.shown;
    if (count <= room) {
      this.shown += count;
      return part;
    }
    this.shown = LINE_MAX;
    return room > 0 ? part.slice(0, graphemeStart(part, indexAfter(part, room))) : "";
  }
}

/** An error's message, as one field (an agent's error may be megabytes long). */
export function errorText(error: unknown): string {
  if (error instanceof Error) return cutField(error.message);
  if (typeof error === "object" && error !== null && "message" in error) {
    return cutField(String(error.message));
  }
  return cutField(String(error));
}
