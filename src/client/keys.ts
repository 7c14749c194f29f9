// Key handling as pure functions: a key and a state in, the next state and an action out.
import { graphemes } from "./text-width.js";

/** A keypress as `readline.emitKeypressEvents` reports it. */
export interface Key {
  name?: string | undefined;
  sequence?: string | undefined;
  ctrl?: boolean | undefined;
  meta?: boolean | undefined;
  shift?: boolean | undefined;
  /** Part of a bracketed paste: Enter inserts a newline instead of submitting. */
  paste?: boolean | undefined;
}

/** Not a key: the terminal was resized, whoever draws redraws. */
export const RESIZE: Key = { name: "resize" };

/** Ctrl-C: stop the whole turn, wherever the user is. */
export function isInterrupt(key: Key): boolean {
  return key.ctrl === true && key.name === "c";
}

export interface MenuState {
  cursor: number;
  count: number;
  /** Multi-select: which items are ticked. */
  checked?: boolean[];
}

export type MenuAction = "confirm" | "cancel" | "interrupt";

export interface MenuStep {
  state: MenuState;
  action?: MenuAction;
}

/**
 * Up/Down (or k/j) move with wrap-around, Home/End jump, a digit chooses that item at once
 * (as in Claude Code; in a multi-select menu it only moves there),
 * Space ticks (multi-select), Enter confirms, Esc cancels, Ctrl-C interrupts.
 */
export function menuKey(state: MenuState, key: Key): MenuStep {
  if (isInterrupt(key)) return { state, action: "interrupt" };
  const at = (cursor: number): MenuStep => ({ state: { ...state, cursor } });
  const last = state.count - 1;
  switch (key.name) {
    case "up":
    case "k":
      return at(state.cursor <= 0 ? last : state.cursor - 1);
    case "down":
    case "j":
    case "tab":
      return at(state.cursor >= last ? 0 : state.cursor + 1);
    case "home":
      return at(0);
    case "end":
      return at(last);
    case "return":
    case "enter":
      return { state, action: "confirm" };
    case "escape":
      return { state, action: "cancel" };
    case "space":
      if (!state.checked) return { state };
      return {
        state: {
          ...state,
          checked: state.checked.map((c, i) => (i === state.cursor ? !c : c)),
        },
      };
    default:
      break;
  }
  const digit = key.sequence && /^[1-9]$/.test(key.sequence) ? Number(key.sequence) : undefined;
  if (digit === undefined || digit > state.count) return { state };
  return state.checked
    ? at(digit - 1)
    : { state: { ...state, cursor: digit - 1 }, action: "confirm" };
}

export interface LineState {
  /** The text; "\n" separates the lines of a multi-line input. */
  text: string;
  /** Position of the cursor in grapheme clusters (what the user sees as characters). */
  cursor: number;
}

/** `previous` / `next`: Up on the first line or Down on the last (history). */
/** `rerun`: Ctrl-R, the recalled prompt sent again, edited, in its place (session/edit_prompt). */
export type LineAction = "submit" | "cancel" | "interrupt" | "eof" | "previous" | "next" | "rerun";

export interface LineStep {
  state: LineState;
  action?: LineAction;
}

export const EMPTY_LINE: LineState = { text: "", cursor: 0 };

/** The editor's state with `text` and the cursor at its end. */
export function lineWith(text: string): LineState {
  return { text, cursor: graphemes(text).length };
}

/** Start of the line holding `cursor`, and the column of the cursor in it. */
function lineAt(chars: readonly string[], cursor: number): { start: number; column: number } {
  let start = cursor;
  while (start > 0 && chars[start - 1] !== "\n") start--;
  return { start, column: cursor - start };
}

/** Index just past the line starting at `start` (its "\n" or the end). */
function lineEnd(chars: readonly string[], start: number): number {
  let end = start;
  while (end < chars.length && chars[end] !== "\n") end++;
  return end;
}

/**
 * A multi-line editor. Printable keys and pastes insert (a pasted Enter is a newline);
 * Enter submits, but `\` then Enter, Alt-Enter or Ctrl-J insert a newline (as in Claude Code);
 * Up/Down move between lines, and past the first or last line ask for history;
 * Backspace/Delete/arrows/Home/End/Ctrl-A/E/U/K/W edit.
 */
export function lineKey(state: LineState, key: Key): LineStep {
  if (isInterrupt(key)) return { state, action: "interrupt" };
  const chars = graphemes(state.text);
  const { cursor } = state;
  // Joined, pieces may form one cluster (a combining mark typed after its letter).
  const set = (next: string[], at: number): LineStep => {
    const text = next.join("");
    return { state: { text, cursor: Math.max(0, Math.min(at, graphemes(text).length)) } };
  };
  const insert = (added: readonly string[]): LineStep => {
    const before = [...chars.slice(0, cursor), ...added];
    return set([...before, ...chars.slice(cursor)], graphemes(before.join("")).length);
  };
  const here = lineAt(chars, cursor);
  const isReturn = key.name === "return" || key.name === "enter";
  if (isReturn && (key.paste || key.meta || key.name === "enter")) return insert(["\n"]);
  if (key.ctrl) {
    switch (key.name) {
      case "d":
        return chars.length === 0 ? { state, action: "eof" } : { state };
      case "r":
        return { state, action: "rerun" };
      case "u":
        return set([...chars.slice(0, here.start), ...chars.slice(cursor)], here.start);
      case "k":
        return set([...chars.slice(0, cursor), ...chars.slice(lineEnd(chars, cursor))], cursor);
      case "w": {
        let from = cursor;
        while (from > here.start && chars[from - 1] === " ") from--;
        while (from > here.start && chars[from - 1] !== " ") from--;
        return set([...chars.slice(0, from), ...chars.slice(cursor)], from);
      }
      case "a":
        return set(chars, here.start);
      case "e":
        return set(chars, lineEnd(chars, cursor));
      default:
        return { state };
    }
  }
  switch (key.name) {
    case "return":
      if (cursor > 0 && chars[cursor - 1] === "\\") {
        return set([...chars.slice(0, cursor - 1), "\n", ...chars.slice(cursor)], cursor);
      }
      return { state, action: "submit" };
    case "escape":
      return { state, action: "cancel" };
    case "backspace":
      if (cursor === 0) return { state };
      return set([...chars.slice(0, cursor - 1), ...chars.slice(cursor)], cursor - 1);
    case "delete":
      return set([...chars.slice(0, cursor), ...chars.slice(cursor + 1)], cursor);
    case "left":
      return set(chars, cursor - 1);
    case "right":
      return set(chars, cursor + 1);
    case "home":
      return set(chars, here.start);
    case "end":
      return set(chars, lineEnd(chars, cursor));
    case "up": {
      if (here.start === 0) return { state, action: "previous" };
      const above = lineAt(chars, here.start - 1).start;
      return set(chars, Math.min(above + here.column, here.start - 1));
    }
    case "down": {
      const end = lineEnd(chars, cursor);
      if (end >= chars.length) return { state, action: "next" };
      return set(chars, Math.min(end + 1 + here.column, lineEnd(chars, end + 1)));
    }
    default:
      break;
  }
  const typed = key.meta ? undefined : key.sequence;
  if (key.paste && key.name === "tab") return insert([" ", " "]);
  // eslint-disable-next-line no-control-regex
  if (typed && !/[\x00-\x1f\x7f]/.test(typed)) return insert(graphemes(typed));
  return { state };
}
