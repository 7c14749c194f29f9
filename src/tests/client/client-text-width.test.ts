// The terminal client's text as the terminal shows it (client/text-width.ts): the line editor
// moves over and deletes what the user sees as one character, and the input's rows and cursor
// are laid out by the columns characters take (CJK and emoji two, joiners none).
import { describe, expect, it } from "vitest";
import { EMPTY_LINE, lineKey, lineWith, type Key, type LineState } from "../../client/keys.js";
import { layoutInput } from "../../client/prompt-view.js";
import { truncate, truncateWords, visibleLength } from "../../client/style.js";
import { columns, graphemes } from "../../client/text-width.js";
import { wrapLine } from "../../client/wrap.js";

const FAMILY = "👨‍👩‍👧";
const FLAG = "🇯🇵";

function type(state: LineState, ...keys: Key[]): LineState {
  return keys.reduce((s, k) => lineKey(s, k).state, state);
}
const key = (name: string): Key => ({ name, sequence: "" });
const ch = (sequence: string): Key => ({ sequence });

describe("characters as the terminal shows them", () => {
  it("are grapheme clusters, each as wide as the terminal draws it", () => {
    expect(graphemes(`a${FAMILY}${FLAG}e\u0301日`)).toEqual(["a", FAMILY, FLAG, "e\u0301", "日"]);
    expect([columns("日本語"), columns(FAMILY), columns(FLAG), columns("e\u0301")]).toEqual([
      6, 2, 2, 1,
    ]);
    expect(columns("~".repeat(65_536) + "│")).toBe(65_537);
  });
});

describe("long text", () => {
  it("is split into the same clusters as one pass of the segmenter would give, a window at a time", () => {
    const mixed = `ab${FAMILY}日本e\u0301${FLAG} x`.repeat(200);
    const whole = Array.from(
      new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(mixed),
      (s) => s.segment,
    );
    expect(graphemes(mixed)).toEqual(whole);
    expect(columns(mixed)).toBe(200 * (2 + 2 + 4 + 1 + 2 + 2));
  });
});

describe("the line editor over wide and joined characters", () => {
  it("moves over a family emoji and a flag with one press each, and Backspace removes each whole", () => {
    const line = lineWith(`a${FAMILY}${FLAG}b`);
    expect(line.cursor).toBe(4);
    expect(type(line, key("left"), key("left")).cursor).toBe(2);
    expect(type(line, key("left"), key("backspace"))).toEqual({ text: `a${FAMILY}b`, cursor: 2 });
    expect(type(line, key("left"), key("left"), key("backspace"))).toEqual({
      text: `a${FLAG}b`,
      cursor: 1,
    });
    expect(type(line, key("home"), key("right"), key("delete")).text).toBe(`a${FLAG}b`);
  });

  it("keeps a combining mark typed after its letter with it, the cursor after both", () => {
    const typed = type(EMPTY_LINE, ch("e"), ch("\u0301"), ch("x"));
    expect(typed).toEqual({ text: "e\u0301x", cursor: 2 });
    expect(type(typed, key("left"), key("backspace"))).toEqual({ text: "x", cursor: 0 });
  });
});

describe("the input's rows and cursor", () => {
  it("puts the cursor after 日本語 where the terminal does: two columns a character", () => {
    const layout = layoutInput("> ", lineWith("日本語"), 40);
    expect(layout).toEqual({ rows: ["> 日本語"], cursorRow: 0, cursorColumn: 8 });
    expect(layoutInput("> ", { text: "日本語", cursor: 1 }, 40).cursorColumn).toBe(4);
  });

  it("wraps by columns: no row wider than the width, a wide character that does not fit starts the next row", () => {
    const text = "日本語のテキストを入力します";
    const layout = layoutInput("> ", lineWith(text), 11);
    for (const row of layout.rows) expect(columns(row)).toBeLessThanOrEqual(10);
    expect(layout.rows.join("")).toBe(`> ${text}`);
    expect(layout.rows[0]).toBe("> 日本語の");
    expect(layout.rows[1]).toBe("テキストを");
    const last = layout.rows.at(-1)!;
    expect(layout).toMatchObject({
      cursorRow: layout.rows.length - 1,
      cursorColumn: columns(last),
    });
  });

  it("keeps the ASCII layout: a line that fills its last row gets a row for the cursor", () => {
    expect(layoutInput("> ", lineWith("abcdefgh"), 11)).toEqual({
      rows: ["> abcdefgh", ""],
      cursorRow: 1,
      cursorColumn: 0,
    });
    expect(layoutInput("> ", { text: "ab\ncd", cursor: 4 }, 20)).toEqual({
      rows: ["> ab", "  cd"],
      cursorRow: 1,
      cursorColumn: 3,
    });
  });
});

describe("the transcript's and boxes' rows", () => {
  it("wrap by columns: a row of CJK text is never wider than the terminal, and nothing is lost", () => {
    const text = "│ 権限の確認：このコマンドを実行してもよろしいですか";
    const rows = wrapLine(text, 12);
    for (const row of rows) expect(visibleLength(row)).toBeLessThanOrEqual(12);
    expect(rows.map((row, i) => (i === 0 ? row : row.replace(/^│ /, ""))).join("")).toBe(text);
  });

  it("are cut by columns, a wide character never split", () => {
    expect(truncate("日本語の文章", 7)).toBe("日本語…");
    expect(columns(truncate("日本語の文章", 7))).toBeLessThanOrEqual(7);
    expect(truncateWords("実行 中のコマンド", 8)).toBe("実行…");
  });
});
