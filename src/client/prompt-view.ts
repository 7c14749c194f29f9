// The rows of a text input and where its cursor is: the prompt on the first row, every line
// of the text wrapped at the width (by characters, so the cursor's place is exact).
import type { LineState } from "./keys.js";

export interface InputLayout {
  /** Plain rows, none wider than the width. */
  rows: string[];
  cursorRow: number;
  cursorColumn: number;
}

/**
 * `prompt` then the text; the text's later lines start under the first (indented by the
 * prompt's width, at most half the width).
 */
export function layoutInput(prompt: string, state: LineState, width: number): InputLayout {
  const promptChars = [...prompt];
  const indent = " ".repeat(Math.min(promptChars.length, Math.floor(width / 2)));
  const room = Math.max(1, width - 1);
  const rows: string[] = [];
  let cursorRow = 0;
  let cursorColumn = 0;
  let index = 0; // code points of the text before the current line
  const lines = state.text.split("\n");
  lines.forEach((line, lineNumber) => {
    const chars = [...(lineNumber === 0 ? prompt : indent), ...line];
    const lead = lineNumber === 0 ? promptChars.length : indent.length;
    // One row more when the line fills its last row: the cursor may sit past its end.
    const count = Math.floor(chars.length / room) + 1;
    for (let row = 0; row < count; row++) {
      rows.push(chars.slice(row * room, (row + 1) * room).join(""));
    }
    const at = state.cursor - index;
    if (at >= 0 && at <= [...line].length) {
      const offset = lead + at;
      cursorRow = rows.length - count + Math.floor(offset / room);
      cursorColumn = offset % room;
    }
    index += [...line].length + 1;
  });
  return { rows, cursorRow, cursorColumn };
}
