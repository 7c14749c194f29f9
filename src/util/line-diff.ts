// The line diff the terminal client shows (client/diff.ts) and the git patch ACP v2 carries
// (acp/v2/git-patch.ts) are built from: an edit script by longest common subsequence.

export type DiffOp = " " | "-" | "+";

/** One line of an edit script: kept, removed or added. */
export interface LineOp {
  op: DiffOp;
  text: string;
}

/** A text's lines; a final newline ends the last line, it does not start another. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/**
 * The edit script from `a` to `b`: common ends trimmed, then the longest common subsequence
 * of the middle by table. Above `maxCells` comparisons (the table is quadratic) the middle is
 * all removed, then all added.
 */
export function lineDiff(a: readonly string[], b: readonly string[], maxCells: number): LineOp[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const head = a.slice(0, start).map((text): LineOp => ({ op: " ", text }));
  const tail = a.slice(endA).map((text): LineOp => ({ op: " ", text }));
  return [...head, ...middle(a.slice(start, endA), b.slice(start, endB), maxCells), ...tail];
}

function middle(a: string[], b: string[], maxCells: number): LineOp[] {
  if (a.length === 0 || b.length === 0 || a.length * b.length > maxCells) {
    return [
      ...a.map((text): LineOp => ({ op: "-", text })),
      ...b.map((text): LineOp => ({ op: "+", text })),
    ];
  }
  // lcs[i][j]: the length of the longest common subsequence of a[i..] and b[j..].
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
  const out: LineOp[] = [];
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
