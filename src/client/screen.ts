// The one writer to the terminal: whole lines, streamed text, a spinner line, and modal
// requests that hold back other output while the user answers.
import { truncate, truncateWords, visibleLength } from "./style.js";
import { Scrollback } from "./scrollback.js";
import { columns } from "./text-width.js";
import { rowsAt, wrapLines } from "./wrap.js";

export interface Output {
  write(text: string): void;
  /** Columns of the terminal (a default for pipes). */
  columns(): number;
  /** Rows of the terminal (a default for pipes). */
  rows?(): number;
}

/** Output for the terminal: whole lines (wrapped when written) or text as it streams. */
type Chunk = { lines: readonly string[]; fresh: boolean } | { text: string };

/** A request box's hold on the terminal. */
export interface Hold {
  /** Straight to the terminal: not kept (cursor moves, a region redrawn in place). */
  write(text: string): void;
  /** Lines the box printed for good: kept, so a redraw shows them again. */
  keep(lines: readonly string[]): void;
  /** Clears the screen and its scrollback and prints again all that was kept. */
  redraw(): void;
  release(): void;
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const FRAME_MS = 80;

export class Screen {
  private atLineStart = true;
  /** The last line written was empty (or nothing was written yet). */
  private blankLast = true;
  /** Visible lengths of the status rows on screen (spinner, then the draft). */
  private statusShown: number[] = [];
  private activity: string | undefined;
  /** When the turn started: the status shows the elapsed time and how to interrupt. */
  private since: number | undefined;
  private draft: string[] = [];
  /** The agent's unfinished text, shown above the status line until its block is printed. */
  private preview: string[] = [];
  private frame = 0;
  private timer: NodeJS.Timeout | undefined;
  private held = false;
  private readonly queue: Chunk[] = [];
  private readonly scrollback = new Scrollback();
  /**
   * The last lines written, if nothing came after them: their tag, and their logical and
   * wrapped counts, so that `replace` can redraw them in place.
   */
  private last: { tag: string; lines: number; rows: number } | undefined;

  constructor(
    private readonly out: Output,
    /** Draw a spinner (TTY only: it rewrites its line). */
    private readonly spinner: boolean,
  ) {}

  get width(): number {
    return this.out.columns();
  }

  /** A terminal, where lines can be redrawn in place (not a pipe). */
  get live(): boolean {
    return this.spinner;
  }

  get height(): number {
    return this.out.rows?.() ?? 40;
  }

  /** Whole lines, on a fresh line, word-wrapped to the width (nothing is cut). */
  lines(lines: readonly string[]): void {
    if (lines.length === 0) return;
    this.emit({ lines, fresh: !this.atLineStart });
    this.blankLast = lines.at(-1) === "";
  }

  /**
   * Lines that a later `replace` with the same tag may redraw in place (a tool call's status
   * line, updated as the call ends). In place only on a terminal; in a pipe it stays.
   */
  tagged(tag: string, lines: readonly string[]): void {
    this.lines(lines);
    if (!this.spinner || this.held || lines.length === 0) return;
    this.last = { tag, lines: lines.length, rows: wrapLines(lines, this.width).length };
  }

  /**
   * The lines tagged `tag` are redrawn as `lines` when they are the last thing on screen (and
   * the width did not change since); otherwise `lines` are printed below, as `lines` does.
   */
  replace(tag: string, lines: readonly string[]): void {
    const last = this.last;
    if (last?.tag === tag && !this.held && this.atLineStart) {
      this.eraseSpinner();
      this.out.write(`\r\x1b[${last.rows}A\x1b[J`);
      this.scrollback.dropLast(last.lines);
    }
    this.last = undefined;
    this.lines(lines);
  }

  /** A new block: lines after one blank line. */
  block(lines: readonly string[]): void {
    if (lines.length === 0) return;
    this.lines(this.blankLast && this.atLineStart ? lines : ["", ...lines]);
  }

  /** Text as it streams in: may end mid-line. */
  stream(text: string): void {
    if (text === "") return;
    this.emit({ text });
    this.blankLast = text.endsWith("\n\n");
  }

  /** Starts a block (streamed or a request box) after one blank line. */
  gap(): void {
    if (!this.blankLast) this.lines([""]);
  }

  /** Ends a streamed line, if one is open. */
  endLine(): void {
    if (!this.atLineStart) this.emit({ text: "\n" });
  }

  /**
   * What the spinner says is going on; undefined stops it. With `since`, the status line
   * shows the time since then and that Esc interrupts.
   */
  setActivity(label: string | undefined, since?: number): void {
    this.activity = label;
    this.since = since;
    if (!this.spinner) return;
    if (label === undefined) {
      this.stopTimer();
      this.eraseSpinner();
      return;
    }
    this.timer ??= setInterval(() => {
      this.frame = (this.frame + 1) % FRAMES.length;
      this.drawSpinner();
    }, FRAME_MS);
    this.timer.unref();
    this.drawSpinner();
  }

  /**
   * Rows of streamed text not printed for good yet (the unfinished block of a reply),
   * redrawn in place above the status line; on a terminal only.
   */
  setPreview(rows: readonly string[]): void {
    if (!this.spinner || (rows.length === 0 && this.preview.length === 0)) return;
    this.preview = [...rows];
    if (this.held) return;
    this.eraseSpinner();
    this.drawSpinner();
  }

  /** Rows under the status line (the prompt typed ahead while a turn runs). */
  setDraft(rows: readonly string[]): void {
    this.draft = [...rows];
    if (!this.spinner || this.held) return;
    this.eraseSpinner();
    this.drawSpinner();
  }

  /**
   * The terminal was resized. Terminals rewrap (or cut) what was drawn, each its own way, so
   * the status rows cannot be found again: everything is printed again at the new width.
   */
  resized(): void {
    this.last = undefined; // rewrapped: its rows are no longer known
    if (this.held) return;
    this.statusShown = [];
    this.redraw();
    this.drawSpinner();
  }

  /**
   * Exclusive use of the terminal for a request: other output waits in a queue until
   * `release()`. `write` goes straight to the terminal.
   */
  hold(): Hold {
    this.eraseSpinner();
    this.endLineNow();
    this.held = true;
    this.last = undefined;
    return {
      write: (text) => this.out.write(text),
      keep: (lines) => this.scrollback.append(lines.map((line) => `${line}\n`).join("")),
      redraw: () => this.redraw(),
      release: () => {
        this.held = false;
        this.blankLast = false;
        for (const chunk of this.queue.splice(0)) this.write(chunk);
        this.drawSpinner();
      },
    };
  }

  close(): void {
    this.stopTimer();
    this.eraseSpinner();
  }

  private emit(chunk: Chunk): void {
    if (this.held) {
      this.queue.push(chunk);
      return;
    }
    this.write(chunk);
    this.drawSpinner();
  }

  /** Writes a chunk (lines wrapped at the width of now) and keeps it for redraws. */
  private write(chunk: Chunk): void {
    this.last = undefined; // something came after the tagged lines (re-set by `tagged`)
    this.eraseSpinner();
    const fresh = "lines" in chunk && chunk.fresh && !this.atLineStart ? "\n" : "";
    const [shown, kept] =
      "lines" in chunk
        ? [
            `${fresh}${wrapLines(chunk.lines, this.width).join("\n")}\n`,
            `${fresh}${chunk.lines.join("\n")}\n`,
          ]
        : [chunk.text, chunk.text];
    this.out.write(shown);
    this.scrollback.append(kept);
    this.atLineStart = shown.endsWith("\n");
  }

  /** Clears the screen and its scrollback, then prints again all that was kept. */
  private redraw(): void {
    this.out.write(`\x1b[H\x1b[2J\x1b[3J${this.scrollback.text(this.width)}`);
  }

  private endLineNow(): void {
    if (!this.atLineStart) this.write({ text: "\n" });
  }

  private drawSpinner(): void {
    if (!this.spinner || this.held || !this.atLineStart) return;
    if (this.activity === undefined && this.preview.length === 0) return;
    const room = Math.max(10, this.width - 1);
    const status =
      this.activity === undefined
        ? []
        : [`\x1b[2m${statusText(FRAMES[this.frame]!, this.activity, this.since, room)}\x1b[22m`];
    // Statuses, not labels: each cut to one row so they can be redrawn in place.
    const rows = [
      ...this.preview.map((row) => truncate(row, room)),
      ...status,
      ...(status.length ? this.draft.map((row) => truncate(row, room)) : []),
    ];
    // Over the status rows already shown (the cursor is on the last of them), not below.
    this.eraseSpinner();
    this.out.write(`\r\x1b[2K${rows.join("\n")}`);
    this.statusShown = rows.map(visibleLength);
  }

  private eraseSpinner(): void {
    if (this.statusShown.length === 0) return;
    const rows = this.statusShown.reduce((sum, length) => sum + rowsAt(length, this.width), 0);
    this.out.write(`\r${rows > 1 ? `\x1b[${rows - 1}A` : ""}\x1b[J`);
    this.statusShown = [];
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}

/**
 * The status line: what goes on, cut after a whole word where the row is short, then the
 * time since `since` and that Esc interrupts, kept whole (only "esc to interrupt" goes when
 * even the time alone barely fits).
 */
export function statusText(
  frame: string,
  activity: string,
  since: number | undefined,
  room: number,
): string {
  if (since === undefined) return truncateWords(`${frame} ${activity}`, room);
  const seconds = `${Math.floor((Date.now() - since) / 1000)}s`;
  for (const elapsed of [` (${seconds} · esc to interrupt)`, ` (${seconds})`]) {
    const left = room - columns(elapsed);
    if (left >= columns(frame) + 6)
      return `${truncateWords(`${frame} ${activity}`, left)}${elapsed}`;
  }
  return truncateWords(`${frame} ${activity}`, room);
}
