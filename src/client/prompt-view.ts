// The rows of a text input and where its cursor is: the prompt on the first row, every line
// of the text wrapped at the width by the columns its characters take on the terminal (a
// wide character that does not fit goes to the next row, as the terminal puts it), so the
// cursor's place is exact.
import type { LineState } from "./keys.js";
import { columns, graphemes } from "./text-width.js";

export interface InputLayout {
  /** Plain rows, none wider than the width. */
  rows: string[];
  cursorRow: number;
  cursorColumn: number;
}

interface Place {
  row: number;
  column: number;
}

/**
 * `prompt` then the text; the text's later lines start under the first (indented by the
 * prompt's width, at most half the width).
 */
export function layoutInput(prompt: string, state: LineState, width: number): InputLayout {
  const indent = " ".repeat(Math.min(columns(prompt), Math.floor(width / 2)));
  const room = Math.max(1, width - 1);
  const rows: string[] = [];
  let cursorRow = 0;
  let cursorColumn = 0;
  let index = 0; // grapheme clusters of the text before the current line
  state.text.split("\n").forEach((line, lineNumber) => {
    const lead = graphemes(lineNumber === 0 ? prompt : indent);
    const chars = graphemes(line);
    const { lineRows, places } = wrapCells([...lead, ...chars], room);
    const at = state.cursor - index;
    if (at >= 0 && at <= chars.length) {
      const place = places[lead.length + at]!;
      cursorRow = rows.length + place.row;
      cursorColumn = place.column;
    }
    rows.push(...lineRows);
    index += chars.length + 1;
  });
  return { rows, cursorRow, cursorColumn };
}

/**
 * `cells` in rows of `room` columns, and where each cell (and the place after the last)
 * starts. One row more when the cells fill their last row: the cursor may sit past the end.
 */
function wrapCells(
  cells: readonly string[],
  room: number,
): { lineRows: string[]; places: Place[] } {
  const lineRows: string[] = [];
  const places: Place[] = [];
  let row = "";
  let column = 0;
  for (const cell of cells) {
    const wide = columns(cell);
    if (column > 0 && column + wide > room) {
      lineRows.push(row);
      row = "";
      column = 0;
    }
    places.push({ row: lineRows.length, column });
    row += cell;
    column += wide;
  }
  lineRows.push(row);
  if (column >= room) lineRows.push("");
  places.push(
    column >= room ? { row: lineRows.length - 1, column: 0 } : { row: lineRows.length - 1, column },
  );
  return { lineRows, places };
}
