// A line diff of a tool call's `diff` content (oldText -> newText), grouped into hunks.

export type DiffOp = " " | "-" | "+";

export interface DiffLine {
  op: DiffOp;
  text: string;
  /** Its line in the new file (context and added lines), once `numberLines` knows where. */
  number?: number;
}

/** Above this many cell comparisons the middle is shown as all removed then all added. */
const MAX_CELLS = 250_000;

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** Longest-common-subsequence diff of the lines that differ (common ends trimmed first). */
export function diffLines(oldText: string | null | undefined, newText: string): DiffLine[] {
  const a = splitLines(oldText ?? "");
  const b = splitLines(newText);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const head = a.slice(0, start).map((text): DiffLine => ({ op: " ", text }));
  const tail = a.slice(endA).map((text): DiffLine => ({ op: " ", text }));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  return [...head, ...diffMiddle(midA, midB), ...tail];
}

function diffMiddle(a: string[], b: string[]): DiffLine[] {
  const removed = a.map((text): DiffLine => ({ op: "-", text }));
  const added = b.map((text): DiffLine => ({ op: "+", text }));
  if (a.length === 0 || b.length === 0 || a.length * b.length > MAX_CELLS) {
    return [...removed, ...added];
  }
  // lcs[i][j]: length of the LCS of a[i..] and b[j..]
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] =
        a[i] === b[j]
          ? lcs[(i + 1) * width + j + 1]! + 1
          : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ op: " ", text: a[i]! });
      i++;
      j++;
    } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) {
      out.push({ op: "-", text: a[i++]! });
    } else {
      out.push({ op: "+", text: b[j++]! });
    }
  }
  while (i < a.length) out.push({ op: "-", text: a[i++]! });
  while (j < b.length) out.push({ op: "+", text: b[j++]! });
  return out;
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
