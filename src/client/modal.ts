// A request box at the terminal: lines printed for good above a region redrawn in place, and
// what is read into the region from the keys: a menu or a line of text.
import type { KeySource } from "./input.js";
import {
  EMPTY_LINE,
  lineKey,
  lineWith,
  menuKey,
  RESIZE,
  type LineAction,
  type MenuAction,
  type MenuState,
} from "./keys.js";
import type { SuggestionSource } from "./prompt-suggestion.js";
import { layoutInput } from "./prompt-view.js";
import { BAR, optionLines } from "./request-box.js";
import type { Hold } from "./screen.js";
import { truncate, visibleLength } from "./style.js";
import type { SessionView } from "./view/session-view.js";
import { columns } from "./text-width.js";
import { wrapLines, wrapText } from "./wrap.js";

const MENU_HINT = "↑/↓ or 1-9 to choose · Enter to confirm · Esc to cancel";
const MULTI_HINT = "↑/↓ to move · Space to tick · Enter to confirm · Esc to cancel";
const PROMPT_HINT =
  "  Enter to send · \\ then Enter for a new line · ↑ history · Ctrl-C clears · Ctrl-D quits";

export interface LineOptions {
  /** Above the input, wrapped (e.g. what the text is for). */
  label?: string;
  /** Before the text, on its first row. */
  prompt: string;
  /** Before every row (the box's bar). */
  gutter?: string;
  /** Print what was submitted (default true). */
  echo?: boolean;
  initial?: string;
  /** Recalled with ↑/↓, oldest first. */
  history?: readonly string[];
  /** The main prompt: a hint row; Ctrl-C clears, and on an empty line twice quits. */
  prompting?: boolean;
  /** A Ctrl-C came just before (it interrupted a turn): the next one on it quits. */
  armed?: boolean;
  /** At the prompt, Esc answers `cancel`: something waits that Esc drops (held prompts). */
  escapeCancels?: boolean;
  /** The agent's guess at the prompt: shown dim under an empty input, Tab takes it. */
  suggestion?: SuggestionSource | undefined;
}

export type MenuOutcome = { action: MenuAction | "aborted"; state: MenuState };
/** `recalled`: the history entry ↑ brought back, which the text was edited from. */
export type LineOutcome = { action: LineAction | "aborted"; text: string; recalled?: number };

/**
 * A request box being answered: lines printed for good, and a redrawn region below them.
 * Everything is wrapped to the width, so the rows drawn are known; on a resize all that was
 * printed, this box's lines included, is drawn again at the new width.
 */
export class Modal {
  /** Visible lengths of the region's rows. */
  private regionRows: number[] = [];
  /** Rows between the end of the region and the cursor (a text input holds the cursor). */
  private cursorUp = 0;

  constructor(
    private readonly out: Hold,
    private readonly releaseKeys: () => void,
    /** The view the box stands in: its width, style and render context. */
    private readonly view: SessionView,
    private readonly keys: KeySource,
  ) {
    out.write("\x1b[?25l"); // no cursor while choosing
  }

  /** Lines that stay. */
  print(lines: readonly string[]): void {
    this.clearRegion();
    this.out.keep(lines);
    this.write(lines);
  }

  /** The redrawn part; with `cursor`, the cursor is shown there (row within `lines`). */
  region(lines: readonly string[], cursor?: { row: number; column: number }): void {
    this.clearRegion();
    this.regionRows = this.write(lines);
    if (cursor === undefined) {
      this.out.write("\x1b[?25l");
      return;
    }
    const up = this.regionRows.length - cursor.row;
    this.out.write(`\x1b[${up}A\x1b[${cursor.column + 1}G\x1b[?25h`);
    this.cursorUp = up;
  }

  clearRegion(): void {
    this.erase(this.regionRows.map(() => 1));
    this.regionRows = [];
  }

  /**
   * The terminal changed size. Terminals rewrap (or cut) what was drawn, each its own way, so
   * the rows to erase cannot be known: the screen and its scrollback are cleared and all that
   * was printed, then the box, is drawn again at the new width (one box, never a stale copy).
   * The caller draws the region again.
   */
  resized(): void {
    this.out.redraw();
    this.cursorUp = 0;
    this.regionRows = [];
  }

  close(): void {
    this.clearRegion();
    this.out.write("\x1b[?25h");
    this.out.release();
    this.releaseKeys();
  }

  /** A menu in the region; `checked`: its options are ticked, not picked. */
  async menu(
    labels: ReadonlyArray<{ label: string; detail?: string }>,
    cursor: number,
    signal: AbortSignal,
    checked?: boolean[],
  ): Promise<MenuOutcome> {
    const { view } = this;
    let state: MenuState = { cursor, count: labels.length, ...(checked ? { checked } : {}) };
    for (;;) {
      const hint = wrapText(checked ? MULTI_HINT : MENU_HINT, view.screen.width, "╰─ ", "   ").map(
        (row, i) =>
          i === 0
            ? `${view.style.yellow("╰─")}${view.style.dim(row.slice(2))}`
            : view.style.dim(row),
      );
      this.region([...optionLines(labels, state.cursor, view.ctx, state.checked), ...hint]);
      const key = await this.keys.next(signal);
      if (!key) return { action: "aborted", state };
      if (key === RESIZE) {
        this.resized();
        continue;
      }
      const step = menuKey(state, key);
      state = step.state;
      if (step.action) return { action: step.action, state };
    }
  }

  /** A line of text in the region, the cursor in it. */
  async line(signal: AbortSignal, options: LineOptions): Promise<LineOutcome> {
    const { view } = this;
    const { style } = view;
    const gutter = options.gutter ?? BAR;
    const history = options.history ?? [];
    let state = lineWith(options.initial ?? "");
    let recalled = history.length; // history.length: the text being written, not a recalled one
    let draft = state.text;
    let armed = options.armed ?? false; // Ctrl-C on an empty prompt: the next one quits
    for (;;) {
      const width = view.screen.width;
      const label = options.label
        ? wrapText(options.label, width, gutter).map((row) => style.cyan(row))
        : [];
      const input = layoutInput(options.prompt, state, Math.max(8, width - gutter.length));
      const rows = input.rows.map((row, i) =>
        i === 0
          ? `${gutter}${style.cyan(options.prompt)}${row.slice(options.prompt.length)}`
          : `${gutter}${row}`,
      );
      const offered = state.text === "" ? options.suggestion?.current : undefined;
      const hint = options.prompting
        ? [
            ...(offered ? [style.dim(truncate(`  Tab: ${offered}`, width - 1))] : []),
            style.dim(armed ? "  Press Ctrl-C again to exit" : PROMPT_HINT),
          ]
        : [];
      this.region([...label, ...rows, ...hint], {
        row: label.length + input.cursorRow,
        column: gutter.length + input.cursorColumn,
      });
      // A prediction that arrives while the prompt is open is drawn at once.
      const changed = new AbortController();
      const unwatch = options.suggestion?.watch(() => changed.abort());
      const key = await this.keys.next(AbortSignal.any([signal, changed.signal]));
      unwatch?.();
      if (!key && !signal.aborted) continue;
      if (!key) return { action: "aborted", text: state.text };
      if (key === RESIZE) {
        this.resized();
        continue;
      }
      if (offered && key.name === "tab" && !key.paste) {
        state = lineWith(offered);
        continue;
      }
      const step = lineKey(state, key);
      const wasArmed = armed;
      armed = false;
      state = step.state;
      switch (step.action) {
        case undefined:
          continue;
        case "previous":
        case "next": {
          const to = step.action === "previous" ? recalled - 1 : recalled + 1;
          if (to < 0 || to > history.length) continue;
          if (recalled === history.length) draft = state.text;
          recalled = to;
          state = lineWith(to === history.length ? draft : history[to]!);
          continue;
        }
        case "rerun":
          // Only a prompt recalled at the prompt can be run again in its place.
          if (!options.prompting || recalled === history.length) continue;
          break;
        case "cancel":
          // Esc at the prompt: nothing to cancel, unless something waits on it.
          if (options.prompting && !options.escapeCancels) continue;
          break;
        case "interrupt":
          if (options.prompting && state.text !== "") {
            state = EMPTY_LINE; // cleared; a second Ctrl-C now quits
            armed = true;
            continue;
          }
          if (options.prompting && !wasArmed) {
            armed = true;
            continue;
          }
          break;
        default:
          break;
      }
      this.clearRegion();
      if (step.action === "submit" && options.echo !== false) {
        const [first = "", ...more] = state.text.split("\n");
        this.print([
          ...label,
          `${gutter}${style.cyan(options.prompt)}${first}`,
          ...more.map((l) => `${gutter}${" ".repeat(columns(options.prompt))}${l}`),
        ]);
      }
      const from = recalled < history.length ? { recalled } : {};
      return { action: step.action, text: state.text, ...from };
    }
  }

  /** Writes whole lines, wrapped; returns the visible length of each row. */
  private write(lines: readonly string[]): number[] {
    const rows = wrapLines(lines, this.view.screen.width);
    if (rows.length) this.out.write(`${rows.join("\n")}\n`);
    return rows.map(visibleLength);
  }

  /** Erases `rows` rows above the line the region ends on (each entry: rows of a line). */
  private erase(rows: readonly number[]): void {
    const count = rows.reduce((a, b) => a + b, 0);
    if (count === 0) return;
    const down = this.cursorUp > 0 ? `\x1b[${this.cursorUp}B` : "";
    this.out.write(`${down}\r\x1b[${count}A\x1b[J`);
    this.cursorUp = 0;
  }
}
