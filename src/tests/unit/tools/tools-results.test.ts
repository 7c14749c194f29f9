import { readFileSync } from "node:fs";
import type { ToolCallContent } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import type { ToolInput } from "../../../tools/index.js";
import { toolResultUpdate } from "../../../tools/results.js";
import type { ToolResultBlock } from "../../../tools/results.js";

/** A tool call recorded from the real Claude Code (see fixtures/tools). */
interface Recorded {
  name: string;
  input: ToolInput;
  toolResult: ToolResultBlock;
  structured: unknown;
}

function fixture(name: string): Recorded {
  const url = new URL(`../../fixtures/tools/${name}.json`, import.meta.url);
  return JSON.parse(readFileSync(url, "utf8")) as Recorded;
}

function update(recorded: Recorded) {
  return toolResultUpdate(
    { id: recorded.toolResult.tool_use_id, name: recorded.name, input: recorded.input },
    recorded.toolResult,
    recorded.structured,
  );
}

function text(value: string): ToolCallContent {
  return { type: "content", content: { type: "text", text: value } };
}

interface Row {
  rule: string;
  fixture: string;
  status?: "completed" | "failed";
  title?: string;
  content?: ToolCallContent[];
  locations?: { path: string; line?: number }[];
}

const rows: Row[] = [
  {
    rule: "Read text is rebuilt from the structured file, numbered and fenced",
    fixture: "read-text",
    content: [
      text("```\n1  line one\n2  line two\n3  # a heading\n4  line four\n5  line five\n```"),
    ],
  },
  {
    rule: "Read of a range numbers lines from startLine",
    fixture: "read-range",
    content: [text("```\n2  line two\n3  # a heading\n```")],
  },
  {
    rule: "Read of an image passes the image through",
    fixture: "read-image",
    content: [
      {
        type: "content",
        content: {
          type: "image",
          mimeType: "image/png",
          data: "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEUlEQVR4nGP4z8DwnwGMgRQAH+4D/dJQfRoAAAAASUVORK5CYII=",
        },
      },
    ],
  },
  {
    rule: "a failed Read keeps its error text, fenced",
    fixture: "read-missing",
    status: "failed",
    content: [
      text("```\nFile does not exist. Note: your current working directory is /project.\n```"),
    ],
  },
  {
    rule: "Write of a new file: the whole content, no old text",
    fixture: "write-create",
    content: [{ type: "diff", path: "/project/new.txt", oldText: null, newText: "fresh\nfile\n" }],
    locations: [{ path: "/project/new.txt" }],
  },
  {
    rule: "Write over a file: the diff from the patch hunks",
    fixture: "write-update",
    content: [
      {
        type: "diff",
        path: "/project/over.txt",
        oldText: "old content",
        newText: "new content\nmore",
      },
    ],
    locations: [{ path: "/project/over.txt", line: 1 }],
  },
  {
    rule: "Edit: the diff from the patch hunk, context included",
    fixture: "edit",
    content: [
      {
        type: "diff",
        path: "/project/edit.txt",
        oldText: "alpha\nbeta\ngamma\ndelta",
        newText: "alpha\nBETA\nbeta2\ngamma\ndelta",
      },
    ],
    locations: [{ path: "/project/edit.txt", line: 1 }],
  },
  {
    rule: "Edit with replace_all: one hunk for all replacements",
    fixture: "edit-replace-all",
    content: [
      {
        type: "diff",
        path: "/project/edit.txt",
        oldText: "alpha\nbeta\ngamma\ndelta",
        newText: "AlphA\nbetA\ngAmmA\ndeltA",
      },
    ],
    locations: [{ path: "/project/edit.txt", line: 1 }],
  },
  {
    rule: "a failed Edit shows the error without Claude's tool_use_error tags",
    fixture: "edit-error",
    status: "failed",
    content: [text("```\nString to replace not found in file.\nString: zzz\n```")],
  },
  {
    rule: "NotebookEdit: the cell's old and new source as a diff",
    fixture: "notebook-edit",
    content: [
      { type: "diff", path: "/project/nb.ipynb", oldText: "print(1)\n", newText: "print(2)" },
    ],
    locations: [{ path: "/project/nb.ipynb" }],
  },
  {
    rule: "Bash output as a console block from the structured stdout",
    fixture: "bash",
    content: [text("```console\nout\nerr\n```")],
  },
  {
    rule: "a failed Bash keeps the exit code and output in a console block",
    fixture: "bash-failed",
    status: "failed",
    content: [
      text(
        "```console\nExit code 3\npartial\nls: cannot access '/nonexistent-dir': No such file or directory\n```",
      ),
    ],
  },
  {
    rule: "Bash with no output adds no content (the description stays)",
    fixture: "bash-empty",
  },
  { rule: "Glob lists files literally", fixture: "glob", content: [text("```\nsub/deep.md\n```")] },
  {
    rule: "Grep content is shown literally",
    fixture: "grep-content",
    content: [
      text(
        "```\nhello.txt:1:line one\nhello.txt:2:line two\nhello.txt:4:line four\nhello.txt:5:line five\n```",
      ),
    ],
  },
  {
    rule: "Grep file list is shown literally",
    fixture: "grep-files",
    content: [text("```\nFound 2 files\nhello.txt\nsub/deep.md\n```")],
  },
  {
    rule: "Agent shows the subagent's report without the hand-back frame",
    fixture: "agent",
    content: [text("hi from sub")],
  },
  {
    rule: "an approved plan retitles the call and keeps the plan content",
    fixture: "exit-plan-mode",
    title: "Exited Plan Mode",
  },
  { rule: "a TodoWrite result is left to the plan update", fixture: "todo-write" },
  {
    rule: "a tool this CLI lacks fails with its error text",
    fixture: "multiedit-unavailable",
    status: "failed",
    content: [text("```\nError: No such tool available: MultiEdit\n```")],
  },
];

describe("toolResultUpdate renders the real CLI's results per family", () => {
  it.each(rows)("$rule", (row) => {
    const recorded = fixture(row.fixture);
    const expected: Record<string, unknown> = {
      toolCallId: recorded.toolResult.tool_use_id,
      status: row.status ?? "completed",
      rawOutput: recorded.structured,
    };
    if (row.title) expected.title = row.title;
    if (row.content) expected.content = row.content;
    if (row.locations) expected.locations = row.locations;
    expect(update(recorded)).toEqual(expected);
  });

  it("task tools show their short answer", () => {
    const [create] = fixture("tasks") as unknown as Recorded[];
    expect(update(create!).content).toEqual([text("Task #1 created successfully: Write tests")]);
  });
});

describe("results without a family-specific shape", () => {
  const call = { id: "t1", name: "mcp__srv__shot" };

  it("rawOutput carries the raw content when there is no structured result", () => {
    const block = { tool_use_id: "t1", content: [{ type: "text", text: "ok" }] };
    expect(toolResultUpdate(call, block, undefined)).toEqual({
      toolCallId: "t1",
      status: "completed",
      content: [text("ok")],
      rawOutput: block.content,
    });
  });

  it("rawOutput is null when the result has nothing", () => {
    expect(toolResultUpdate(call, { tool_use_id: "t1" }, undefined)).toEqual({
      toolCallId: "t1",
      status: "completed",
      rawOutput: null,
    });
  });

  it("images pass through, documents become a placeholder, system reminders are dropped", () => {
    const block = {
      tool_use_id: "t1",
      content: [
        { type: "text", text: "shot:<system-reminder>model only</system-reminder>" },
        { type: "image", source: { type: "base64", media_type: "image/jpeg", data: "AAA" } },
        { type: "document", source: { type: "base64", media_type: "application/pdf", data: "B" } },
      ],
    };
    expect(toolResultUpdate(call, block, undefined).content).toEqual([
      text("shot:"),
      { type: "content", content: { type: "image", mimeType: "image/jpeg", data: "AAA" } },
      text("[document]"),
    ]);
  });

  it("result text loses escape sequences; a fence outlasts backticks in the output", () => {
    const block = { tool_use_id: "t1", content: "\u001b[32mok\u001b[0m ``\u0000` done\n" };
    expect(toolResultUpdate({ id: "t1", name: "Bash" }, block, undefined).content).toEqual([
      text("````console\nok ``` done\n````"),
    ]);
    expect(toolResultUpdate(call, block, undefined).content).toEqual([text("ok ``` done")]);
  });

  it("an error is fenced so markdown in it does not render", () => {
    const block = { tool_use_id: "t1", content: "# not a heading", is_error: true };
    expect(toolResultUpdate(call, block, "Error: # not a heading")).toEqual({
      toolCallId: "t1",
      status: "failed",
      content: [text("```\n# not a heading\n```")],
      rawOutput: "Error: # not a heading",
    });
  });
});

describe("Read results beyond the recorded ones", () => {
  const read = (input: ToolInput, file: Record<string, unknown>, type = "text") =>
    toolResultUpdate(
      { id: "r", name: "Read", input },
      { tool_use_id: "r", content: "model text" },
      { type, file },
    ).content;

  it("a whole-file read that returns fewer lines than the file says it is truncated", () => {
    expect(
      read(
        { file_path: "/p/big.txt" },
        { filePath: "/p/big.txt", content: "a\nb", numLines: 2, startLine: 1, totalLines: 9 },
      ),
    ).toEqual([text("```\n1  a\n2  b\n```"), text("[File truncated: showing 2 of 9 lines]")]);
  });

  it("numbers are right-aligned to the widest line number", () => {
    expect(
      read(
        { file_path: "/p/a.md", offset: 9, limit: 2 },
        { filePath: "/p/a.md", content: "```x\n**y**", numLines: 2, startLine: 9, totalLines: 20 },
      ),
    ).toEqual([text("````\n 9  ```x\n10  **y**\n````")]);
  });

  it("a PDF becomes a placeholder", () => {
    expect(read({}, { filePath: "/p/doc.pdf", base64: "JVBER", originalSize: 5 }, "pdf")).toEqual([
      text("[document /p/doc.pdf]"),
    ]);
  });

  it("a notebook read shows Claude's text literally", () => {
    expect(read({}, { filePath: "/p/n.ipynb", cells: [] }, "notebook")).toEqual([
      text("```\nmodel text\n```"),
    ]);
  });
});
