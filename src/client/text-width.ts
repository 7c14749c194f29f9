// Text as a terminal shows it: grapheme clusters (what the user sees as one character, moved
// over and deleted as one: 👨‍👩‍👧, 🇯🇵, e + a combining accent) and their width in columns
// (East Asian wide characters and emoji take two, joiners and combining marks none), as the
// string-width library measures them.
import stringWidth from "string-width";

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
/** Printable ASCII: one character a code unit, one column each (most text; the fast way). */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/**
 * Node's segmenter takes time quadratic in the length of what it segments: text is segmented
 * a window at a time, keeping the clusters that start in the window's first half (a cluster
 * is far shorter than the other half, so each is whole).
 */
const WINDOW = 256;
/** Widths of the clusters met so far: string-width is asked once per cluster. */
const widths = new Map<string, number>();
const MAX_REMEMBERED = 4096;

/** The grapheme clusters of `text`, in order. */
export function graphemes(text: string): string[] {
  if (PRINTABLE_ASCII.test(text)) return text.split("");
  const clusters: string[] = [];
  for (let from = 0; from < text.length;) {
    const last = from + 2 * WINDOW >= text.length;
    const piece = text.slice(from, from + 2 * WINDOW);
    let taken = 0;
    for (const { segment, index } of segmenter.segment(piece)) {
      if (!last && index >= WINDOW) break;
      clusters.push(segment);
      taken = index + segment.length;
    }
    from += taken;
  }
  return clusters;
}

/** Columns plain `text` (no escape sequences) takes on a terminal. */
export function columns(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let total = 0;
  for (const cluster of graphemes(text)) {
    let width = widths.get(cluster);
    if (width === undefined) {
      // One cluster at a time: string-width also slows down on long strings.
      width = stringWidth(cluster);
      if (widths.size < MAX_REMEMBERED) widths.set(cluster, width);
    }
    total += width;
  }
  return total;
}
