// What the client has printed, kept as logical (unwrapped) lines so that after a resize it can
// be printed again at the new width, as Claude Code's own terminal UI does.
import { wrapLines } from "./wrap.js";

/** Enough to scroll back through a long session; older lines are dropped. */
const KEEP_LINES = 5_000;

export class Scrollback {
  /** Finished lines, then the open one (text printed after the last newline). */
  private readonly logical: string[] = [""];

  /** Text as written: may start or end mid-line. */
  append(text: string): void {
    const [first = "", ...rest] = text.split("\n");
    this.logical[this.logical.length - 1] += first;
    this.logical.push(...rest);
    if (this.logical.length > KEEP_LINES) this.logical.splice(0, this.logical.length - KEEP_LINES);
  }

  /** Forgets the last `count` finished lines (they were replaced on screen). */
  dropLast(count: number): void {
    if (count <= 0 || this.logical.at(-1) !== "") return;
    this.logical.splice(Math.max(0, this.logical.length - 1 - count), count);
  }

  /** Everything kept, wrapped at `width`, ending where the cursor was (mid-line or not). */
  text(width: number): string {
    const finished = this.logical.slice(0, -1);
    const open = this.logical.at(-1) ?? "";
    const rows = wrapLines(finished, width);
    const head = rows.length ? `${rows.join("\n")}\n` : "";
    return open === "" ? head : `${head}${wrapLines([open], width).join("\n")}`;
  }
}
