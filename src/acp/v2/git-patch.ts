/**
 * A v1 diff (a path, its old text or none, its new text) as the git patch ACP v2's diff
 * content carries. Lines are compared exactly; hunks keep three lines of context. The texts
 * a tool call shows are often fragments of the file (an Edit's old and new strings), so
 * line numbers count from the fragment's first line, as the v1 diff shows it.
 */
import { lineDiff, splitLines, type LineOp } from "../../util/line-diff.js";

/** Lines around a change that a hunk shows. */
const CONTEXT = 3;
/** Above this many line pairs the diff replaces the whole text (no quadratic table). */
const MAX_CELLS = 4_000_000;

export function gitPatch(path: string, oldText: string | null, newText: string): string {
  const rel = path.replace(/^\/+/, "");
  const oldLines = oldText === null ? [] : splitLines(oldText);
  const newLines = splitLines(newText);
  const header =
    oldText === null
      ? [`diff --git a/${rel} b/${rel}`, "new file mode 100644", "--- /dev/null", `+++ b/${rel}`]
      : [`diff --git a/${rel} b/${rel}`, `--- a/${rel}`, `+++ b/${rel}`];
  const ops = lineDiff(oldLines, newLines, MAX_CELLS);
  const body = hunks(ops, oldText === null);
  return `${[...header, ...body].join("\n")}\n`;
}

/** The changed runs with their context, as `@@ -a,n +b,m @@` hunks. */
function hunks(ops: LineOp[], newFile: boolean): string[] {
  const changed = ops.flatMap((op, index) => (op.op === " " ? [] : [index]));
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
    const oldStart = before.filter((op) => op.op !== "+").length;
    const newStart = before.filter((op) => op.op !== "-").length;
    const slice = ops.slice(from, to);
    const oldCount = slice.filter((op) => op.op !== "+").length;
    const newCount = slice.filter((op) => op.op !== "-").length;
    const range = (start: number, count: number) =>
      `${count === 0 ? start : start + 1}${count === 1 ? "" : `,${count}`}`;
    out.push(
      `@@ -${newFile ? "0,0" : range(oldStart, oldCount)} +${range(newStart, newCount)} @@`,
      ...slice.map((op) => `${op.op}${op.text}`),
    );
    first = last + 1;
  }
  return out;
}
