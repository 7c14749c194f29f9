// Key handling as pure functions: a key and a state in, the next state and an action out.

/** A keypress as `readline.emitKeypressEvents` reports it. */
export interface Key {
  name?: string | undefined;
  sequence?: string | undefined;
  ctrl?: boolean | undefined;
  meta?: boolean | undefined;
  shift?: boolean | undefined;
}

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
 * Up/Down (or k/j) move with wrap-around, Home/End jump, a digit moves to that item,
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
  if (digit !== undefined && digit <= state.count) return at(digit - 1);
  return { state };
}

export interface LineState {
  text: string;
  /** Position of the cursor in code points. */
  cursor: number;
}

export type LineAction = "submit" | "cancel" | "interrupt" | "eof";

export interface LineStep {
  state: LineState;
  action?: LineAction;
}

export const EMPTY_LINE: LineState = { text: "", cursor: 0 };

/** A one-line editor: printable keys insert, Backspace/Delete/arrows/Home/End/Ctrl-U edit. */
export function lineKey(state: LineState, key: Key): LineStep {
  if (isInterrupt(key)) return { state, action: "interrupt" };
  const chars = [...state.text];
  const set = (next: string[], cursor: number): LineStep => ({
    state: { text: next.join(""), cursor: Math.max(0, Math.min(cursor, next.length)) },
  });
  if (key.ctrl) {
    switch (key.name) {
      case "d":
        return chars.length === 0 ? { state, action: "eof" } : { state };
      case "u":
        return set([], 0);
      case "a":
        return set(chars, 0);
      case "e":
        return set(chars, chars.length);
      default:
        return { state };
    }
  }
  switch (key.name) {
    case "return":
    case "enter":
      return { state, action: "submit" };
    case "escape":
      return { state, action: "cancel" };
    case "backspace":
      if (state.cursor === 0) return { state };
      return set(
        [...chars.slice(0, state.cursor - 1), ...chars.slice(state.cursor)],
        state.cursor - 1,
      );
    case "delete":
      return set([...chars.slice(0, state.cursor), ...chars.slice(state.cursor + 1)], state.cursor);
    case "left":
      return set(chars, state.cursor - 1);
    case "right":
      return set(chars, state.cursor + 1);
    case "home":
      return set(chars, 0);
    case "end":
      return set(chars, chars.length);
    default:
      break;
  }
  const typed = key.meta ? undefined : key.sequence;
  // eslint-disable-next-line no-control-regex
  if (typed && !/[\x00-\x1f\x7f]/.test(typed)) {
    const added = [...typed];
    return set(
      [...chars.slice(0, state.cursor), ...added, ...chars.slice(state.cursor)],
      state.cursor + added.length,
    );
  }
  return { state };
}
