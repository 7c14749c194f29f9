// A line diff of a tool call's `diff` content (oldText -> newText), grouped into hunks.
import { lineDiff, splitLines, type LineOp } from "../util/line-diff.js";

export interface DiffLine extends LineOp {
  /** Its line in the new file (context and added lines), once `numberLines` knows where. */
  number?: number;
}

/** Above this many cell comparisons the middle is shown as all removed then all added. */
const MAX_CELLS = 250_000;

/** Longest-common-subsequence diff of the lines that differ (common ends trimmed first). */
export function diffLines(oldText: string | null | undefined, newText: string): DiffLine[] {
  return lineDiff(splitLines(oldText ?? ""), splitLines(newText), MAX_CELLS);
}

/**
 * Numbers the context and added lines by their place in the new file, the new text starting
 * at line `start`. Removed lines get none: the old file's numbering is not known.
 */
export function numberLines(lines: readonly DiffLine[], start: number): DiffLine[] {
  let next = start;
  return lines.map((line) => (line.op === "-" ? line : { ...line, number: next++ }));
}

/**
 * The changed lines with `context` unchanged lines around each change; `null` marks
 * unchanged lines left out between hunks.
 */
export function hunks(lines: readonly DiffLine[], context = 3): Array<DiffLine | null> {
  const keep = lines.map(() => false);
  lines.forEach((line, index) => {
    if (line.op === " ") return;
    for (
      let k = Math.max(0, index - context);
      k <= Math.min(lines.length - 1, index + context);
      k++
    )
      keep[k] = true;
  });
  const out: Array<DiffLine | null> = [];
  let skipped = false;
  lines.forEach((line, index) => {
    if (keep[index]) {
      if (skipped) out.push(null);
      skipped = false;
      out.push(line);
    } else {
      skipped = true;
    }
  });
  if (skipped && out.length > 0) out.push(null);
  return out;
}
