/**
 * A v1 diff (a path, its old text or none, its new text) as the git patch ACP v2's diff
 * content carries. Lines are compared exactly; hunks keep three lines of context. The texts
 * a tool call shows are often fragments of the file (an Edit's old and new strings), so
 * line numbers count from the fragment's first line, as the v1 diff shows it.
 */

/** Lines around a change that a hunk shows. */
const CONTEXT = 3;
/** Above this many line pairs the diff replaces the whole text (no quadratic table). */
const MAX_CELLS = 4_000_000;

type Op = { kind: " " | "-" | "+"; line: string };

export function gitPatch(path: string, oldText: string | null, newText: string): string {
  const rel = path.replace(/^\/+/, "");
  const oldLines = oldText === null ? [] : lines(oldText);
  const newLines = lines(newText);
  const header =
    oldText === null
      ? [`diff --git a/${rel} b/${rel}`, "new file mode 100644", "--- /dev/null", `+++ b/${rel}`]
      : [`diff --git a/${rel} b/${rel}`, `--- a/${rel}`, `+++ b/${rel}`];
  const ops = diffLines(oldLines, newLines);
  const body = hunks(ops, oldText === null);
  return `${[...header, ...body].join("\n")}\n`;
}

function lines(text: string): string[] {
  if (text === "") return [];
  const parts = text.split("\n");
  if (parts.at(-1) === "") parts.pop();
  return parts;
}

/** The edit script from `a` to `b`: longest common subsequence, by table. */
function diffLines(a: string[], b: string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const head: Op[] = a.slice(0, start).map((line) => ({ kind: " ", line }));
  const tail: Op[] = a.slice(endA).map((line) => ({ kind: " ", line }));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  return [...head, ...middle(midA, midB), ...tail];
}

function middle(a: string[], b: string[]): Op[] {
  const removed: Op[] = a.map((line) => ({ kind: "-", line }));
  const added: Op[] = b.map((line) => ({ kind: "+", line }));
  if (a.length === 0 || b.length === 0 || a.length * b.length > MAX_CELLS) {
    return [...removed, ...added];
  }
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
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
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      ops.push({ kind: " ", line: a[i]! });
      i++;
      j++;
    } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) {
      ops.push({ kind: "-", line: a[i++]! });
    } else {
      ops.push({ kind: "+", line: b[j++]! });
    }
  }
  while (i < a.length) ops.push({ kind: "-", line: a[i++]! });
  while (j < b.length) ops.push({ kind: "+", line: b[j++]! });
  return ops;
}

/** The changed runs with their context, as `@@ -a,n +b,m @@` hunks. */
function hunks(ops: Op[], newFile: boolean): string[] {
  const changed = ops.flatMap((op, index) => (op.kind === " " ? [] : [index]));
  if (changed.length === 0) return [];
  const out: string[] = [];
  let first = 0;
  while (first < changed.length) {
    let last = first;
    while (last + 1 < changed.length && changed[last + 1]! - changed[last]! <= 2 * CONTEXT + 1) {
      last++;
    }
    const from = Math.max(0, changed[first]! - CONTEXT);
    const to = Math.min(ops.length, changed[last]! + CONTEXT + 1);
    const before = ops.slice(0, from);
    const oldStart = before.filter((op) => op.kind !== "+").length;
    const newStart = before.filter((op) => op.kind !== "-").length;
    const slice = ops.slice(from, to);
    const oldCount = slice.filter((op) => op.kind !== "+").length;
    const newCount = slice.filter((op) => op.kind !== "-").length;
    const range = (start: number, count: number) =>
      `${count === 0 ? start : start + 1}${count === 1 ? "" : `,${count}`}`;
    out.push(
      `@@ -${newFile ? "0,0" : range(oldStart, oldCount)} +${range(newStart, newCount)} @@`,
      ...slice.map((op) => `${op.kind}${op.line}`),
    );
    first = last + 1;
  }
  return out;
}
