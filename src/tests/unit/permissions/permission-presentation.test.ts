/**
 * The executable contract for request presentation: permission-extension.md
 * ("Request presentation", "Tool-call presentation") and design.md ("Decisions where the
 * contract is silent": title fallback, description).
 */
import type { ToolCall } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import {
  BLOCKED_PATH_LIMIT,
  permissionDescription,
  permissionTitle,
  presentation,
  PRESENTATION_TEXT_LIMIT,
  requestToolCall,
} from "../../../permissions/presentation.js";
import type { ToolInput } from "../../../tools/index.js";
import { toolCallFromToolUse } from "../../../tools/tool-call.js";

const context = { cwd: "/project" };

function toolCall(name: string, input: ToolInput, parentToolUseId: string | null = null): ToolCall {
  return toolCallFromToolUse({ id: "toolu_1", name, input, parentToolUseId }, context);
}

/** The `_meta.permission` record the adapter puts on a request for this tool use. */
function metaFor(
  name: string,
  input: ToolInput,
  sdk: { displayName?: string; decisionReason?: string } = {},
) {
  return presentation(name, toolCall(name, input).title, sdk);
}

describe("_meta.permission = {version: 1, title, description?}", () => {
  it("matches the contract example: version 1, the command as title, the reason as description", () => {
    expect(
      metaFor("Bash", { command: "npm test" }, { decisionReason: "Needed to verify the change." }),
    ).toEqual({
      version: 1,
      title: "npm test",
      description: "Reason: Needed to verify the change.",
    });
  });

  it("has no description key at all without a reason", () => {
    const meta = metaFor("Bash", { command: "npm test" });
    expect(meta).toEqual({ version: 1, title: "npm test" });
    expect(Object.keys(meta)).toEqual(["version", "title"]);
  });
});

describe("title: the standard tool-call operation title", () => {
  const rows: Array<{ name: string; input: ToolInput }> = [
    { name: "Bash", input: { command: "git status && npm test" } },
    { name: "Read", input: { file_path: "/project/src/a.ts" } },
    { name: "Edit", input: { file_path: "/project/src/a.ts", old_string: "a", new_string: "b" } },
    { name: "Write", input: { file_path: "/outside/x.txt", content: "x" } },
    { name: "Glob", input: { pattern: "**/*.ts" } },
    { name: "Grep", input: { pattern: "TODO", path: "/project/src" } },
    { name: "WebFetch", input: { url: "https://example.com", prompt: "p" } },
    { name: "WebSearch", input: { query: "vitest" } },
    { name: "Skill", input: { skill: "commit" } },
    { name: "mcp__github__create_issue", input: { title: "t" } },
    { name: "Monitor", input: {} },
    { name: "EnterPlanMode", input: {} },
  ];
  it.each(rows)("$name: the permission title duplicates toolCall.title", ({ name, input }) => {
    const call = toolCall(name, input);
    expect(call.title).not.toBe("");
    expect(presentation(name, call.title, {}).title).toBe(call.title);
  });

  it("ExitPlanMode is the deliberate exception: `Ready to code?`", () => {
    const call = toolCall("ExitPlanMode", { plan: "# Plan\n1. Do it" });
    expect(presentation("ExitPlanMode", call.title, {}).title).toBe("Ready to code?");
    expect(permissionTitle("ExitPlanMode", "anything")).toBe("Ready to code?");
  });

  it("a shell title collapses runs of whitespace: padding cannot push the rest of the command out of view", () => {
    expect(permissionTitle("Bash", `echo ok${" ".repeat(300)}&& rm -rf build`)).toBe(
      "echo ok && rm -rf build",
    );
    expect(permissionTitle("Bash", "npm\t\ttest  --watch ")).toBe("npm test --watch");
  });

  it("a multi-line shell command stays visibly multi-line: its first line and `… (+N lines)`, blank lines not counted", () => {
    expect(permissionTitle("Bash", "echo ok\nrm -rf build")).toBe("echo ok … (+1 line)");
    expect(permissionTitle("Bash", "npm  test \\\n  --watch\n\n\tfoo\r\nbar")).toBe(
      "npm test \\ … (+3 lines)",
    );
    expect(permissionTitle("PowerShell", "Get-ChildItem  |\n  Select  Name")).toBe(
      "Get-ChildItem | … (+1 line)",
    );
    expect(permissionTitle("Bash", "\n\n  echo ok  \n\n")).toBe("echo ok");
  });

  it("a shell permission title is the tool call's title, whatever the command's layout", () => {
    for (const command of [`a${" ".repeat(300)}b`, "a\nb\nc", "a\u2028b", "  a  "]) {
      const call = toolCall("Bash", { command });
      expect(presentation("Bash", call.title, {}).title).toBe(call.title);
    }
  });

  it("other titles collapse whitespace to one line", () => {
    expect(permissionTitle("Read", "Read  src/a.ts\n\n(1 - 5)\t")).toBe("Read src/a.ts (1 - 5)");
    expect(permissionTitle("mcp__s__t", "s:\r\n t")).toBe("s: t");
  });

  const dirty: Array<[string, string, string]> = [
    ["ANSI colour escapes", "\u001b[31mnpm test\u001b[0m", "npm test"],
    ["an OSC escape (terminal title / hyperlink)", "\u001b]0;evil\u0007npm test", "npm test"],
    ["C0 controls", "npm\u0000 \u0007test\u0008", "npm test"],
    ["C1 controls", "npm \u009btest", "npm test"],
    ["bidi overrides (Trojan Source)", "rm -rf \u202e/ ,txt.\u202c", "rm -rf / ,txt."],
    ["bidi isolates", "ls \u2066a\u2069", "ls a"],
    ["DEL", "npm\u007f test", "npm test"],
  ];
  it.each(dirty)("control characters are removed from shell titles: %s", (_what, title, clean) => {
    expect(permissionTitle("Bash", title)).toBe(clean);
  });
  it.each(dirty)("control characters are removed from other titles: %s", (_what, title, clean) => {
    expect(permissionTitle("WebSearch", title)).toBe(clean);
  });

  describe("fallback to the tool's display name when the cleaned title is empty or over 4,000 characters", () => {
    it("a title that cleans to nothing becomes the SDK display name", () => {
      expect(permissionTitle("Bash", "\u001b[2J\u001b[H", "Run command")).toBe("Run command");
      expect(permissionTitle("Bash", " \n\t ", "Run command")).toBe("Run command");
    });

    it("without a display name, the tool name (for example `Bash`)", () => {
      expect(permissionTitle("Bash", "\u0007")).toBe("Bash");
      expect(permissionTitle("Bash", "\u0007", "  ")).toBe("Bash");
    });

    it("a title of exactly 4,000 characters is kept", () => {
      const title = "x".repeat(PRESENTATION_TEXT_LIMIT);
      expect(PRESENTATION_TEXT_LIMIT).toBe(4_000);
      expect(permissionTitle("Bash", title, "Run command")).toBe(title);
    });

    it.each(["Bash", "Read"])(
      "%s: a title over 4,000 characters is replaced, never truncated",
      (name) => {
        const title = `echo ${"x".repeat(PRESENTATION_TEXT_LIMIT)}`;
        const result = permissionTitle(name, title, "Display name");
        expect(result).toBe("Display name");
      },
    );

    it("the limit applies to the cleaned title: escapes do not count", () => {
      const title = `\u001b[31m${"x".repeat(PRESENTATION_TEXT_LIMIT)}\u001b[0m`;
      expect(permissionTitle("Bash", title)).toBe("x".repeat(PRESENTATION_TEXT_LIMIT));
    });

    it("an oversized display name falls back to the tool name", () => {
      expect(permissionTitle("Bash", "", "d".repeat(PRESENTATION_TEXT_LIMIT + 1))).toBe("Bash");
    });

    it("the display name is cleaned too", () => {
      expect(permissionTitle("Bash", "", "Run\u001b[31m\ncommand")).toBe("Run command");
    });

    it("the title is never empty", () => {
      expect(permissionTitle("\u0007", "\u0007", "\u0007")).not.toBe("");
    });
  });
});

describe("description: `Reason: ` + the SDK's non-blank decisionReason", () => {
  it("is prefixed with `Reason: `", () => {
    expect(permissionDescription("Path is outside allowed working directories")).toBe(
      "Reason: Path is outside allowed working directories",
    );
  });

  it("keeps multiple lines (CRLF normalised)", () => {
    expect(permissionDescription("first line\r\nsecond line\n  indented")).toBe(
      "Reason: first line\nsecond line\n  indented",
    );
  });

  it("removes control characters and escapes", () => {
    expect(permissionDescription("\u001b[1mbold\u001b[0m \u202ereason\u0000")).toBe(
      "Reason: bold reason",
    );
  });

  it.each([
    ["an empty reason", ""],
    ["a blank reason", "  \n\t "],
    ["a reason of only escapes", "\u001b[31m\u001b[0m"],
    ["no reason", undefined],
    ["a non-string reason", 42],
  ])("is omitted for %s", (_what, reason) => {
    expect(permissionDescription(reason)).toBeUndefined();
    if (typeof reason === "string" || reason === undefined) {
      expect(
        presentation("Bash", "ls", reason === undefined ? {} : { decisionReason: reason }),
      ).not.toHaveProperty("description");
    }
  });

  it("a cleaned reason of 4,000 characters is kept whole", () => {
    const reason = "r".repeat(PRESENTATION_TEXT_LIMIT);
    expect(permissionDescription(reason)).toBe(`Reason: ${reason}`);
  });

  it("a reason over 4,000 characters is omitted, never truncated", () => {
    expect(permissionDescription("r".repeat(PRESENTATION_TEXT_LIMIT + 1))).toBeUndefined();
  });

  it("the SDK `description` operation subtitle is not copied", () => {
    const sdk = { description: "Claude will have read access to /etc", displayName: "Read file" };
    expect(presentation("Read", "Read /etc/hostname", sdk)).toEqual({
      version: 1,
      title: "Read /etc/hostname",
    });
    const withReason = { ...sdk, decisionReason: "Path is outside allowed working directories" };
    expect(presentation("Read", "Read /etc/hostname", withReason).description).toBe(
      "Reason: Path is outside allowed working directories",
    );
  });
});

describe("request toolCall: the same standard ACP tool information as normal tool updates", () => {
  it("status is pending; rawInput is the original SDK input object", () => {
    const input = { command: "npm test" };
    const call = { ...toolCall("Bash", input), status: "in_progress" as const };
    const request = requestToolCall(call, "Bash", input, undefined);
    expect(request.status).toBe("pending");
    expect(request.rawInput).toBe(input);
  });

  it("name, kind, title, content and locations come from the tool renderer", () => {
    const input = { file_path: "/project/src/a.ts" };
    const call = toolCall("Read", input);
    const request = requestToolCall(call, "Read", input, undefined);
    expect(request).toMatchObject({
      toolCallId: call.toolCallId,
      kind: call.kind,
      title: call.title,
      content: call.content,
      locations: call.locations,
    });
  });

  it("subagent calls keep `_meta.claudeCode.parentToolUseId`", () => {
    const input = { command: "ls" };
    const request = requestToolCall(
      toolCall("Bash", input, "toolu_parent"),
      "Bash",
      input,
      undefined,
    );
    expect(request._meta).toEqual({
      claudeCode: { toolName: "Bash", parentToolUseId: "toolu_parent" },
    });
  });

  describe("blockedPath is appended to locations when it is valid and not already present", () => {
    it("a valid absolute blockedPath is appended after the renderer's locations", () => {
      const input = { command: "mkdir -p /outside/dir" };
      const request = requestToolCall(toolCall("Bash", input), "Bash", input, "/outside/dir");
      expect(request.locations).toEqual([{ path: "/outside/dir" }]);
      const readInput = { file_path: "/project/a.ts" };
      const read = requestToolCall(toolCall("Read", readInput), "Read", readInput, "/outside/b.ts");
      expect(read.locations).toEqual([
        { path: "/project/a.ts", line: 1 },
        { path: "/outside/b.ts" },
      ]);
    });

    it("a blockedPath already among the locations is not repeated", () => {
      const input = { file_path: "/etc/hostname" };
      const request = requestToolCall(toolCall("Read", input), "Read", input, "/etc/hostname");
      expect(request.locations).toEqual([{ path: "/etc/hostname", line: 1 }]);
    });

    it("a blockedPath of exactly 4,096 characters is valid", () => {
      const path = `/${"p".repeat(BLOCKED_PATH_LIMIT - 1)}`;
      expect(path).toHaveLength(4_096);
      const request = requestToolCall(toolCall("Bash", {}), "Bash", {}, path);
      expect(request.locations).toEqual([{ path }]);
    });

    it.each([
      ["relative", "outside/dir"],
      ["empty", ""],
      ["too long (over 4,096 characters)", `/${"p".repeat(BLOCKED_PATH_LIMIT)}`],
      ["with a NUL", "/tmp/a\u0000b"],
      ["with an escape sequence", "/tmp/\u001b[31ma"],
      ["with a newline", "/tmp/a\nb"],
      ["with a carriage return", "/tmp/a\rb"],
      ["with a tab", "/tmp/a\tb"],
      ["with a bidi override", "/tmp/\u202eexe.txt"],
      ["with a line separator", "/tmp/a\u2028b"],
      ["not a string", 42],
      ["an object", { path: "/tmp" }],
    ])("an invalid blockedPath (%s) is not shown", (_what, blockedPath) => {
      const request = requestToolCall(
        toolCall("Bash", { command: "ls" }),
        "Bash",
        { command: "ls" },
        blockedPath,
      );
      expect(request.locations).toEqual([]);
    });

    it("locations of the tool call itself are not mutated", () => {
      const input = { file_path: "/project/a.ts" };
      const call = toolCall("Read", input);
      const before = structuredClone(call.locations);
      requestToolCall(call, "Read", input, "/outside/b.ts");
      expect(call.locations).toEqual(before);
    });
  });

  describe("Sandbox Network and Computer Use requests synthesize JSON content when the renderer has none", () => {
    const json = (value: unknown) => [
      {
        type: "content",
        content: { type: "text", text: `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\`` },
      },
    ];

    it("SandboxNetworkAccess: the input as JSON", () => {
      const input = { host: "registry.npmjs.org" };
      const call = toolCall("SandboxNetworkAccess", input);
      expect(call.content).toEqual([]);
      expect(requestToolCall(call, "SandboxNetworkAccess", input, undefined).content).toEqual(
        json(input),
      );
    });

    it("Computer Use (`mcp__computer-use__*`): the input as JSON", () => {
      const name = "mcp__computer-use__left_click";
      const input = { coordinate: [10, 20] };
      const call = toolCall(name, input);
      expect(call.content).toEqual([]);
      expect(requestToolCall(call, name, input, undefined).content).toEqual(json(input));
    });

    it("the JSON holds no control characters, and a fence in the input cannot close it", () => {
      const input = { host: "a\u202e```\u001b]0;x\u0007\u009b2J.example" };
      const call = toolCall("SandboxNetworkAccess", input);
      const [block] = requestToolCall(call, "SandboxNetworkAccess", input, undefined).content!;
      const text = (block as { content: { text: string } }).content.text;
      expect(text).toBe(`\`\`\`\`json\n{\n  "host": "a\`\`\`2J.example"\n}\n\`\`\`\``);
    });

    it("renderer content is kept as it is", () => {
      const input = { host: "a.example" };
      const content = [
        { type: "content" as const, content: { type: "text" as const, text: "rendered" } },
      ];
      const call = { ...toolCall("SandboxNetworkAccess", input), content };
      expect(requestToolCall(call, "SandboxNetworkAccess", input, undefined).content).toEqual(
        content,
      );
    });

    it.each(["mcp__github__create_issue", "Monitor", "WebSearch", "mcp__computer-usex__click"])(
      "%s: no JSON content is synthesized",
      (name) => {
        const input = { a: 1 };
        const call = toolCall(name, input);
        expect(requestToolCall(call, name, input, undefined).content).toEqual(call.content);
      },
    );
  });
});
