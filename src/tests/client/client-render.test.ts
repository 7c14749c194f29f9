// The terminal client's rendering pieces: diffs, option lists, permission boxes, safety.
import { describe, expect, it, vi } from "vitest";
import { diffLines, hunks } from "../../client/diff.js";
import {
  contentLines,
  diffBlockLines,
  planLines,
  toolStatusLine,
  type RenderContext,
} from "../../client/render.js";
import {
  optionLines,
  permissionHints,
  permissionLines,
  permissionOptionLabels,
} from "../../client/request-box.js";
import { createStyle, oneLine, sanitize, visibleLength } from "../../client/style.js";
import { ToolCallStore } from "../../client/tool-calls.js";
import { MarkdownBlocks, markdownLines } from "../../client/markdown.js";
import { wrapLine } from "../../client/wrap.js";
import { Scrollback } from "../../client/scrollback.js";
import { Screen, statusText } from "../../client/screen.js";
import { SessionView } from "../../client/view/session-view.js";

const plain: RenderContext = { style: createStyle(false), cwd: "/home/user/project", width: 100 };
const colour: RenderContext = { ...plain, style: createStyle(true) };
const RED = "\x1b[31m";
const GREEN = "\x1b[32m";
const DIM = "\x1b[2m";

describe("line diff", () => {
  it("keeps common lines and marks removed and added ones", () => {
    expect(diffLines("a\nb\nc\n", "a\nB\nc\n")).toEqual([
      { op: " ", text: "a" },
      { op: "-", text: "b" },
      { op: "+", text: "B" },
      { op: " ", text: "c" },
    ]);
  });

  it("finds an insertion in the middle instead of rewriting the rest", () => {
    const ops = diffLines("1\n2\n3\n4\n", "1\n2\nnew\n3\n4\n").map((l) => `${l.op}${l.text}`);
    expect(ops).toEqual([" 1", " 2", "+new", " 3", " 4"]);
  });

  it("shows a new file (oldText null or absent) as added lines only", () => {
    expect(diffLines(null, "x\ny").map((l) => l.op)).toEqual(["+", "+"]);
    expect(diffLines(undefined, "").length).toBe(0);
  });

  it("keeps three lines of context around a change and marks the gaps", () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i}`);
    const after = before.map((l, i) => (i === 10 ? "changed" : l));
    const shown = hunks(diffLines(before.join("\n"), after.join("\n")));
    expect(shown[0]).toBeNull();
    expect(shown.filter((l) => l !== null)).toHaveLength(8); // 3 + removed + added + 3
    expect(shown.at(-1)).toBeNull();
  });

  it("renders removed lines red, added lines green and context dim, with the path relative to cwd", () => {
    const lines = diffBlockLines("/home/user/project/math.js", "a\nold\n", "a\nnew\n", colour);
    expect(lines[0]).toContain("math.js");
    expect(lines[0]).not.toContain("/home/user/project");
    expect(lines.find((l) => l.includes("old"))).toContain(RED);
    expect(lines.find((l) => l.includes("new"))).toContain(GREEN);
    expect(lines.find((l) => l.includes(" a"))).toContain(DIM);
  });

  it("has no escape codes without colour, and +/- prefixes carry the meaning", () => {
    const lines = diffBlockLines("/elsewhere/x.txt", null, "hello\n", plain);
    expect(lines).toEqual(["/elsewhere/x.txt (new file)", "1 + hello"]);
  });

  it("numbers context and added lines from the hunk's located line; removed lines get none", () => {
    const lines = contentLines(
      [{ type: "diff", path: "/p/a.js", oldText: "a\nold\nc", newText: "a\nnew\nc" }],
      plain,
      [{ path: "/p/a.js", line: 98 }],
    );
    expect(lines.slice(1)).toEqual([" 98   a", "    - old", " 99 + new", "100   c"]);
  });

  it("numbers the k-th diff of a file from the k-th location in it", () => {
    const diff = { type: "diff", path: "/p/a.js", oldText: "x", newText: "y" } as const;
    const lines = contentLines([diff, diff], plain, [
      { path: "/p/a.js", line: 3 },
      { path: "/p/a.js", line: 40 },
    ]);
    expect(lines.filter((l) => l.includes("+ y"))).toEqual(["3 + y", "40 + y"]);
  });

  it("an edit snippet with no located line has no numbers (its place in the file is unknown)", () => {
    const lines = diffBlockLines("/p/a.js", "old", "new", plain);
    expect(lines.slice(1)).toEqual(["- old", "+ new"]);
  });
});

describe("option lists", () => {
  const options = [
    { optionId: "allow-once", name: "Yes", kind: "allow_once" as const },
    {
      optionId: "allow-with-updates",
      name: "Yes, and don't ask again for npm test commands",
      kind: "allow_always" as const,
    },
    { optionId: "reject", name: "No", kind: "reject_once" as const },
  ];

  it("numbers the options and marks the highlighted one", () => {
    const lines = optionLines(permissionOptionLabels(options, false), 1, plain);
    expect(lines).toEqual([
      "│   1. Yes",
      "│ ❯ 2. Yes, and don't ask again for npm test commands",
      "│   3. No",
    ]);
  });

  it("shows the standard kinds in transcripts but no internal option ids, and no marker when nothing is highlighted", () => {
    const lines = optionLines(permissionOptionLabels(options, true), undefined, plain);
    expect(lines[1]).toBe("│   2. Yes, and don't ask again for npm test commands — allow_always");
    expect(lines.join("\n")).not.toContain("allow-with-updates");
    expect(lines.some((l) => l.includes("❯"))).toBe(false);
  });

  it("ticks multi-select items", () => {
    const lines = optionLines([{ label: "A" }, { label: "B" }], 0, plain, [false, true]);
    expect(lines).toEqual(["│ ❯ 1. [ ] A", "│   2. [x] B"]);
  });

  it("wraps a long label under itself at the terminal width: never cut, every word shown", () => {
    const label =
      "Yes, and don't ask again for npm test and make lint commands and any cargo build, go vet, or yarn lint command (broader than this command) in this project";
    const narrow = { ...plain, width: 40 };
    const lines = optionLines([{ label }, { label: "No" }], 0, narrow);
    for (const line of lines) expect(visibleLength(line)).toBeLessThanOrEqual(40);
    expect(lines[0]).toMatch(/^│ ❯ 1\. Yes, and/);
    // Continuation rows hang under the label, inside the box's border.
    expect(lines[1]).toMatch(/^│ {6}\S/);
    const rows = lines.slice(0, -1).map((l, i) => (i === 0 ? l.slice(7) : l.slice(2).trim()));
    expect(rows.join(" ")).toBe(label);
    expect(lines.join("")).not.toContain("…");
  });
});

describe("permission requests", () => {
  const store = new ToolCallStore();
  const call = store.merge({
    toolCallId: "t1",
    title: "npm test",
    kind: "execute",
    status: "pending",
    content: [{ type: "content", content: { type: "text", text: "Run the tests" } }],
    locations: [{ path: "/home/user/project/package.json", line: 3 }],
  });

  it("uses the extension's title and description when present", () => {
    const hints = permissionHints({
      _meta: { permission: { version: 1, title: "Ready to code?", description: "Reason: x" } },
    });
    const lines = permissionLines(hints, call, plain);
    expect(lines[0]).toBe("╭─ Permission: Ready to code?");
    expect(lines).toContain("│ Reason: x");
    // The subject is still the tool call: its title, locations and content.
    expect(lines).toContain("│ npm test"); // no ACP kind in what people read
    expect(lines).toContain("│ ↳ package.json:3");
    expect(lines).toContain("│ Run the tests");
  });

  it("works without _meta.permission, from the standard tool call", () => {
    const lines = permissionLines(permissionHints({}), call, plain);
    expect(lines[0]).toBe("╭─ Permission: npm test");
    expect(lines).toContain("│ Run the tests");
  });

  it("ignores unknown _meta fields, malformed hints and versions it does not know", () => {
    expect(
      permissionHints({
        _meta: { permission: { version: 1, title: "T", future: { x: 1 } }, other: 1 },
      }),
    ).toEqual({ title: "T" });
    expect(permissionHints({ _meta: { permission: { version: 2, title: "T" } } })).toEqual({});
    expect(permissionHints({ _meta: { permission: "nope" } })).toEqual({});
    expect(permissionHints({ _meta: { permission: { version: 1, title: "  " } } })).toEqual({});
  });
});

describe("tool calls, plans and safety", () => {
  it("renders text content without code fences, and diffs", () => {
    const lines = contentLines(
      [
        { type: "content", content: { type: "text", text: "```console\n> ok\n```" } },
        { type: "diff", path: "/home/user/project/a.txt", oldText: "1\n", newText: "2\n" },
      ],
      plain,
    );
    expect(lines).toEqual(["> ok", "a.txt", "- 1", "+ 2"]);
  });

  it("cuts long text content and says how much is left", () => {
    const text = Array.from({ length: 30 }, (_, i) => `l${i}`).join("\n");
    const lines = contentLines([{ type: "content", content: { type: "text", text } }], plain);
    expect(lines).toHaveLength(13);
    expect(lines.at(-1)).toBe("… 18 more lines");
  });

  it("names a status change with the call's title when other lines came in between", () => {
    const call = new ToolCallStore().merge({
      toolCallId: "t",
      title: "npm test",
      status: "completed",
    });
    call.printedTitle = "npm test";
    expect(toolStatusLine(call, plain)).toBe("  └ ✓ completed");
    expect(toolStatusLine(call, plain, true)).toBe("  └ ✓ npm test: completed");
    call.title = "Exited Plan Mode";
    expect(toolStatusLine(call, plain)).toBe("  └ ✓ completed: Exited Plan Mode");
  });

  it("renders plan entries with their status", () => {
    expect(
      planLines(
        [
          { content: "Read", status: "completed", priority: "medium" },
          { content: "Fix", status: "in_progress", priority: "high" },
          { content: "Test", status: "pending", priority: "low" },
        ],
        plain,
      ),
    ).toEqual(["◆ Tasks", "  ☑ Read", "  ◐ Fix", "  ☐ Test"]);
  });

  it("strips terminal control sequences from agent text", () => {
    expect(sanitize("a\x1b]0;title\x07b\x1b[2Jc\r\nd\te")).toBe("a]0;titleb[2Jc\nd  e");
    const call = new ToolCallStore().merge({ toolCallId: "x", title: "evil\x1b[31m title\x07" });
    expect(permissionLines({}, call, plain)[0]).toBe("╭─ Permission: evil[31m title");
  });

  it("strips bidi overrides and isolates from agent text, whichever agent sends it", () => {
    const bidi = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069";
    expect(sanitize(`txt.${bidi}exe`)).toBe("txt.exe");
    expect(oneLine(`a${bidi} b`)).toBe("a b");
    const call = new ToolCallStore().merge({ toolCallId: "x", title: "rm \u202e-rf /" });
    expect(permissionLines({}, call, plain)[0]).toBe("╭─ Permission: rm -rf /");
  });
});

describe("wrapping", () => {
  it("wraps at spaces within the width, keeps a box's gutter, and carries styles across the break", () => {
    expect(wrapLine("│ one two three four", 12)).toEqual(["│ one two", "│ three four"]);
    expect(wrapLine("x".repeat(25), 10)).toEqual(["x".repeat(10), "x".repeat(10), "x".repeat(5)]);
    const bold = wrapLine("\u001b[1mhello world\u001b[22m", 8);
    expect(bold).toEqual(["\u001b[1mhello\u001b[0m", "\u001b[1mworld\u001b[22m"]);
  });
});

describe("scrollback kept for a redraw", () => {
  it("prints again what was written, wrapped at the new width, ending mid-line if it did", () => {
    const kept = new Scrollback();
    kept.append("one two three four\nstreamed ");
    kept.append("text");
    expect(kept.text(10)).toBe("one two\nthree four\nstreamed\ntext");
    kept.append("\n");
    expect(kept.text(100)).toBe("one two three four\nstreamed text\n");
  });

  it("a line replaced in place is replaced in what a resize prints again; in a pipe both stay", () => {
    const run = (terminal: boolean): string => {
      let out = "";
      const screen = new Screen({ write: (t) => void (out += t), columns: () => 80 }, terminal);
      screen.lines(["● Build"]);
      screen.tagged("t", ["  └ running"]);
      screen.replace("t", ["  └ completed"]);
      screen.resized();
      screen.close();
      return out.slice(out.lastIndexOf("\x1b[3J"));
    };
    expect(run(true)).toBe("\x1b[3J● Build\n  └ completed\n");
    expect(run(false)).toContain("● Build\n  └ running\n  └ completed\n");
  });

  it("keeps only the last 5000 lines", () => {
    const kept = new Scrollback();
    for (let i = 0; i < 6_000; i++) kept.append(`line ${i}\n`);
    const rows = kept.text(100).split("\n");
    expect(rows[0]).toBe("line 1001");
    expect(rows.at(-2)).toBe("line 5999");
  });
});

describe("markdown from the agent", () => {
  it("renders headings, bold, code and lists without the markup", () => {
    const md =
      "## Summary\n\nThis is **bold** and `code`.\n\n- one\n- two\n\n```js\nconst x = 1;\n```\n";
    expect(markdownLines(md, plain.style)).toEqual([
      "Summary",
      "",
      "This is bold and code.",
      "",
      "• one",
      "• two",
      "",
      "  const x = 1;",
    ]);
    const styled = markdownLines("**bold**", createStyle(true));
    expect(styled).toEqual(["\u001b[1mbold\u001b[22m"]);
  });

  it("counts as finished only blocks followed by a blank line outside a code fence", () => {
    const finished = (...pieces: string[]): string => {
      const blocks = new MarkdownBlocks();
      for (const piece of pieces) blocks.push(piece);
      return blocks.take(false);
    };
    expect(finished("# A\n\npara")).toBe("# A\n\n");
    expect(finished("```\na\n\nb")).toBe("");
    expect(finished("no end yet")).toBe("");
    // Pieces that split lines and fences are read as the whole text is.
    expect(finished("# A\n", "\n``", "`\na\n\nb\n``", "`\n\nc")).toBe(
      "# A\n\n```\na\n\nb\n```\n\n",
    );
  });

  it("takes the rest of a block after its finished part, the fence state kept", () => {
    const blocks = new MarkdownBlocks();
    blocks.push("one\n\n```\ncode\n");
    expect(blocks.take(false)).toBe("one\n\n");
    blocks.push("\nmore code\n```\n\nafter");
    expect(blocks.take(false)).toBe("```\ncode\n\nmore code\n```\n\n");
    expect(blocks.take(true)).toBe("after");
    expect(blocks.text).toBe("");
  });
});

describe("the status line while Claude works", () => {
  it("is cut after a whole word where the row is short, and keeps the time and Esc whole", () => {
    const since = Date.now() - 12_000;
    const text = statusText("⠋", "Running the project's whole test suite — running", since, 50);
    expect(text).toBe("⠋ Running the project's…" + " (12s · esc to interrupt)");
    expect([...text].length).toBeLessThanOrEqual(50);
    // Narrower: the time stays, "esc to interrupt" goes.
    expect(statusText("⠋", "Running the tests", since, 24)).toBe("⠋ Running the… (12s)");
  });

  it("does not count the time a permission box waited for the user", () => {
    vi.useFakeTimers({ now: 1_000_000 });
    try {
      let out = "";
      const screen = new Screen({ write: (t) => void (out += t), columns: () => 100 }, true);
      const view = new SessionView(screen, createStyle(false), "/p");
      view.startTurn("go");
      vi.advanceTimersByTime(3_000);
      const call = view.beginRequest({ toolCallId: "t1", title: "npm test", status: "pending" });
      vi.advanceTimersByTime(60_000); // the user thinks a minute
      view.endRequest(call);
      vi.advanceTimersByTime(2_000); // the spinner redraws as it turns
      // 3 s before the box and 2 s after: 5 s, not 65.
      expect(out.slice(out.lastIndexOf("starting ("))).toMatch(
        /^starting \(5s · esc to interrupt\)/,
      );
      screen.close();
    } finally {
      vi.useRealTimers();
    }
  });
});
