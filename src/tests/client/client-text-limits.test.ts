// How much of an agent's text the client shows (text-limits.ts), and that every field of a
// message is cut as it arrives while ids and values go back untouched (incoming.ts).
import { describe, expect, it } from "vitest";
import { cutPermissionRequest, cutUpdate } from "../../client/incoming.js";
import { markdownLines } from "../../client/markdown.js";
import { createStyle } from "../../client/style.js";
import {
  codePoints,
  cutField,
  cutLines,
  cutNote,
  FIELD_MAX,
  LINE_MAX,
  StreamedLines,
} from "../../client/text-limits.js";

describe("a single-line field", () => {
  it("up to the limit is kept as it is", () => {
    const field = "x".repeat(FIELD_MAX);
    expect(cutField(field)).toBe(field);
  });

  it("longer is cut to the limit, then says its full length", () => {
    expect(cutNote(10_485_760)).toBe("… (10,485,760 characters)");
    expect(cutField("x".repeat(FIELD_MAX + 1))).toBe(
      `${"x".repeat(FIELD_MAX)}… (${(FIELD_MAX + 1).toLocaleString("en-US")} characters)`,
    );
  });

  it("is measured and cut in code points: a surrogate pair is never split", () => {
    const field = "😀".repeat(FIELD_MAX + 10); // two UTF-16 units each
    expect(codePoints(field)).toBe(FIELD_MAX + 10);
    const shown = cutField(field);
    expect(shown.startsWith("😀".repeat(FIELD_MAX))).toBe(true);
    expect(shown.slice(2 * FIELD_MAX)).toBe(cutNote(FIELD_MAX + 10));
  });

  it("is cut before a character whose code points the limit falls between", () => {
    // A family emoji: seven code points joined into one character.
    const family = "👨‍👩‍👧‍👦";
    const field = `${"x".repeat(FIELD_MAX - 3)}${family}${"y".repeat(10)}`;
    expect(cutField(field)).toBe(`${"x".repeat(FIELD_MAX - 3)}${cutNote(codePoints(field))}`);
  });
});

describe("multi-line text", () => {
  it("keeps its lines, each cut to the line limit", () => {
    const text = `short\n${"z".repeat(LINE_MAX + 5)}\nlast`;
    expect(cutLines(text)).toBe(`short\n${"z".repeat(LINE_MAX)}${cutNote(LINE_MAX + 5)}\nlast`);
  });

  it("streamed in pieces: a long line is cut once, its full length when it ends", () => {
    const lines = new StreamedLines();
    const piece = "w".repeat(LINE_MAX / 4 + 1);
    const shown = [piece, piece, piece, piece, piece, "\nnext line", " goes on"].map((p) =>
      lines.push(p),
    );
    shown.push(lines.end());
    expect(shown.join("")).toBe(
      `${"w".repeat(LINE_MAX)}${cutNote(5 * (LINE_MAX / 4 + 1))}\nnext line goes on`,
    );
  });

  it("a markdown block the lexer cannot read (megabytes on end) is shown as plain lines", () => {
    const block = `${"word ".repeat(15)}\n`.repeat(140_000); // 10 MB, no blank line
    const lines = markdownLines(block, createStyle(false));
    expect(lines.length).toBeGreaterThanOrEqual(140_000);
  });
});

describe("a message as it arrives", () => {
  it("a permission request: option names cut, option ids exactly as offered", () => {
    const id = `id-${"i".repeat(3 * FIELD_MAX)}`;
    const request = cutPermissionRequest({
      sessionId: "s1",
      toolCall: { toolCallId: "t1", title: "t".repeat(3 * FIELD_MAX) },
      options: [{ optionId: id, name: "n".repeat(3 * FIELD_MAX), kind: "allow_always" }],
      _meta: { permission: { version: 1, title: "h".repeat(3 * FIELD_MAX) } },
    });
    expect(request.options[0]!.optionId).toBe(id);
    expect(request.options[0]!.name).toBe(cutField("n".repeat(3 * FIELD_MAX)));
    expect(request.toolCall.title).toBe(cutField("t".repeat(3 * FIELD_MAX)));
    expect(request._meta).toEqual({
      permission: { version: 1, title: cutField("h".repeat(3 * FIELD_MAX)) },
    });
  });

  it("a task list: each entry cut", () => {
    const update = cutUpdate({
      sessionUpdate: "plan",
      entries: [{ content: "p".repeat(3 * FIELD_MAX), status: "pending", priority: "medium" }],
    });
    expect(update).toEqual({
      sessionUpdate: "plan",
      entries: [
        { content: cutField("p".repeat(3 * FIELD_MAX)), status: "pending", priority: "medium" },
      ],
    });
  });
});
