import type { ToolCallContent, ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { partialToolInfo, toolInfoFromToolUse } from "../../../tools/index.js";
import type { ToolInput } from "../../../tools/index.js";
import { toolCallFromToolUse } from "../../../tools/tool-call.js";

const context = { cwd: "/project" };

function text(value: string): ToolCallContent {
  return { type: "content", content: { type: "text", text: value } };
}

interface Row {
  rule: string;
  name: string;
  input: ToolInput;
  kind: ToolKind;
  title: string;
  content?: ToolCallContent[];
  locations?: ToolCallLocation[];
}

const rows: Row[] = [
  // shell
  {
    rule: "Bash: the command is the title, the description the content",
    name: "Bash",
    input: { command: "npm test", description: "Run the tests" },
    kind: "execute",
    title: "npm test",
    content: [text("Run the tests")],
  },
  {
    rule: "PowerShell: command_description is the newer description field",
    name: "PowerShell",
    input: { command: "Get-ChildItem", command_description: "List files" },
    kind: "execute",
    title: "Get-ChildItem",
    content: [text("List files")],
  },
  {
    rule: "Bash without a command is a Terminal",
    name: "Bash",
    input: {},
    kind: "execute",
    title: "Terminal",
  },
  // read
  {
    rule: "Read: path relative to cwd, location line 1",
    name: "Read",
    input: { file_path: "/project/src/a.ts" },
    kind: "read",
    title: "Read src/a.ts",
    locations: [{ path: "/project/src/a.ts", line: 1 }],
  },
  {
    rule: "Read with offset and limit shows the range (A - B)",
    name: "Read",
    input: { file_path: "/project/a.ts", offset: 10, limit: 5 },
    kind: "read",
    title: "Read a.ts (10 - 14)",
    locations: [{ path: "/project/a.ts", line: 10 }],
  },
  {
    rule: "Read with a limit only starts at line 1",
    name: "Read",
    input: { file_path: "/project/a.ts", limit: 20 },
    kind: "read",
    title: "Read a.ts (1 - 20)",
    locations: [{ path: "/project/a.ts", line: 1 }],
  },
  {
    rule: "Read with an offset only reads from line N",
    name: "Read",
    input: { file_path: "/project/a.ts", offset: 7 },
    kind: "read",
    title: "Read a.ts (from line 7)",
    locations: [{ path: "/project/a.ts", line: 7 }],
  },
  {
    rule: "Read outside cwd keeps the absolute path",
    name: "Read",
    input: { file_path: "/etc/hostname" },
    kind: "read",
    title: "Read /etc/hostname",
    locations: [{ path: "/etc/hostname", line: 1 }],
  },
  {
    rule: "Read of a sibling whose name starts like cwd is outside cwd",
    name: "Read",
    input: { file_path: "/project-other/a.ts" },
    kind: "read",
    title: "Read /project-other/a.ts",
    locations: [{ path: "/project-other/a.ts", line: 1 }],
  },
  {
    rule: "Read of a PDF page range",
    name: "Read",
    input: { file_path: "/project/doc.pdf", pages: "1-5" },
    kind: "read",
    title: "Read doc.pdf (pages 1-5)",
    locations: [{ path: "/project/doc.pdf", line: 1 }],
  },
  {
    rule: "Read with a relative path: location resolved against cwd",
    name: "Read",
    input: { file_path: "src/a.ts" },
    kind: "read",
    title: "Read src/a.ts",
    locations: [{ path: "/project/src/a.ts", line: 1 }],
  },
  // edit
  {
    rule: "Edit: diff of old and new string, location the file",
    name: "Edit",
    input: { file_path: "/project/a.ts", old_string: "a", new_string: "b" },
    kind: "edit",
    title: "Edit a.ts",
    content: [{ type: "diff", path: "/project/a.ts", oldText: "a", newText: "b" }],
    locations: [{ path: "/project/a.ts" }],
  },
  {
    rule: "Write: diff with no old text",
    name: "Write",
    input: { file_path: "/project/new.md", content: "# hi\n" },
    kind: "edit",
    title: "Write new.md",
    content: [{ type: "diff", path: "/project/new.md", oldText: null, newText: "# hi\n" }],
    locations: [{ path: "/project/new.md" }],
  },
  {
    rule: "Write accepts the path and file_text aliases",
    name: "Write",
    input: { path: "/project/x.txt", file_text: "x" },
    kind: "edit",
    title: "Write x.txt",
    content: [{ type: "diff", path: "/project/x.txt", oldText: null, newText: "x" }],
    locations: [{ path: "/project/x.txt" }],
  },
  {
    rule: "Write without a path is still being prepared",
    name: "Write",
    input: {},
    kind: "edit",
    title: "Preparing file…",
  },
  {
    rule: "MultiEdit: one diff per edit, in order",
    name: "MultiEdit",
    input: {
      file_path: "/project/m.txt",
      edits: [
        { old_string: "one", new_string: "ONE" },
        { old_string: "three", new_string: "THREE" },
      ],
    },
    kind: "edit",
    title: "Edit m.txt",
    content: [
      { type: "diff", path: "/project/m.txt", oldText: "one", newText: "ONE" },
      { type: "diff", path: "/project/m.txt", oldText: "three", newText: "THREE" },
    ],
    locations: [{ path: "/project/m.txt" }],
  },
  {
    rule: "NotebookEdit replace: cell and notebook in the title, source fenced",
    name: "NotebookEdit",
    input: { notebook_path: "/project/nb.ipynb", cell_id: "c1", new_source: "print(2)" },
    kind: "edit",
    title: "Edit cell c1 in nb.ipynb",
    content: [text("```\nprint(2)\n```")],
    locations: [{ path: "/project/nb.ipynb" }],
  },
  {
    rule: "NotebookEdit insert after a cell",
    name: "NotebookEdit",
    input: {
      notebook_path: "/project/nb.ipynb",
      cell_id: "c1",
      new_source: "x = 1",
      edit_mode: "insert",
      cell_type: "code",
    },
    kind: "edit",
    title: "Insert cell after c1 in nb.ipynb",
    content: [text("```\nx = 1\n```")],
    locations: [{ path: "/project/nb.ipynb" }],
  },
  {
    rule: "NotebookEdit delete shows no source",
    name: "NotebookEdit",
    input: {
      notebook_path: "/project/nb.ipynb",
      cell_id: "c2",
      new_source: "",
      edit_mode: "delete",
    },
    kind: "edit",
    title: "Delete cell c2 in nb.ipynb",
    locations: [{ path: "/project/nb.ipynb" }],
  },
  // search
  {
    rule: "Glob: Find `<path>` `<pattern>` with the path as location",
    name: "Glob",
    input: { pattern: "**/*.ts", path: "/project/src" },
    kind: "search",
    title: "Find `src` `**/*.ts`",
    locations: [{ path: "/project/src" }],
  },
  {
    rule: "Glob without a path searches cwd",
    name: "Glob",
    input: { pattern: "*.md" },
    kind: "search",
    title: "Find `*.md`",
  },
  {
    rule: "Grep: an equivalent grep command line, pipes last",
    name: "Grep",
    input: {
      pattern: "foo",
      path: "/project/src",
      "-i": true,
      "-n": true,
      "-C": 2,
      output_mode: "files_with_matches",
      head_limit: 10,
      glob: "*.ts",
      type: "ts",
      multiline: true,
    },
    kind: "search",
    title: 'grep -i -n -C 2 -l --include="*.ts" --type=ts -P "foo" src | head -10',
  },
  {
    rule: "Grep: count mode, context lines, offset, quotes escaped",
    name: "Grep",
    input: { pattern: 'say "hi"', output_mode: "count", "-A": 1, "-B": 3, offset: 5 },
    kind: "search",
    title: 'grep -A 1 -B 3 -c "say \\"hi\\"" | tail -n +6',
  },
  // web
  {
    rule: "WebFetch: Fetch <url> with the prompt as content",
    name: "WebFetch",
    input: { url: "https://example.com/x", prompt: "Summarize" },
    kind: "fetch",
    title: "Fetch https://example.com/x",
    content: [text("Summarize")],
  },
  {
    rule: "WebFetch with an offset reads from char N",
    name: "WebFetch",
    input: { url: "https://example.com/x", prompt: "More", offset: 5000 },
    kind: "fetch",
    title: "Fetch https://example.com/x (from char 5000)",
    content: [text("More")],
  },
  {
    rule: 'WebSearch: Search "<query>"',
    name: "WebSearch",
    input: { query: "acp protocol" },
    kind: "fetch",
    title: 'Search "acp protocol"',
  },
  {
    rule: "WebSearch without a query",
    name: "WebSearch",
    input: {},
    kind: "fetch",
    title: "Web search",
  },
  // agent
  {
    rule: "Agent: description as title, prompt as content",
    name: "Agent",
    input: { description: "Explore code", prompt: "Find the parser", subagent_type: "Explore" },
    kind: "think",
    title: "Explore code",
    content: [text("Find the parser")],
  },
  {
    rule: "Agent with an effort names it",
    name: "Agent",
    input: { description: "Review", prompt: "p", effort: "high" },
    kind: "think",
    title: "Review (high effort)",
    content: [text("p")],
  },
  {
    rule: "Agent fork ignores the effort",
    name: "Agent",
    input: { description: "Fork", prompt: "p", effort: "high", subagent_type: "fork" },
    kind: "think",
    title: "Fork",
    content: [text("p")],
  },
  {
    rule: "Task (older name of Agent) without description is Task",
    name: "Task",
    input: {},
    kind: "think",
    title: "Task",
  },
  // todo
  {
    rule: "TodoWrite: Update TODOs: a, b",
    name: "TodoWrite",
    input: {
      todos: [
        { content: "a", status: "pending", activeForm: "doing a" },
        { content: "b", status: "completed", activeForm: "doing b" },
      ],
    },
    kind: "think",
    title: "Update TODOs: a, b",
  },
  {
    rule: "TaskCreate: Create task: S",
    name: "TaskCreate",
    input: { subject: "Write tests", description: "all" },
    kind: "think",
    title: "Create task: Write tests",
  },
  {
    rule: "TaskUpdate without subject",
    name: "TaskUpdate",
    input: { taskId: "1", status: "completed" },
    kind: "think",
    title: "Update task",
  },
  {
    rule: "TaskUpdate with subject",
    name: "TaskUpdate",
    input: { taskId: "1", subject: "Ship" },
    kind: "think",
    title: "Update task: Ship",
  },
  { rule: "TaskList", name: "TaskList", input: {}, kind: "think", title: "List tasks" },
  { rule: "TaskGet", name: "TaskGet", input: { taskId: "2" }, kind: "think", title: "Get task" },
  {
    rule: "TaskStop names the background task",
    name: "TaskStop",
    input: { task_id: "b7x" },
    kind: "other",
    title: "Stop task b7x",
  },
  // plan
  {
    rule: "ExitPlanMode: Approve Plan with the plan as content",
    name: "ExitPlanMode",
    input: { plan: "# Plan\n1. do it" },
    kind: "switch_mode",
    title: "Approve Plan",
    content: [text("# Plan\n1. do it")],
  },
  {
    rule: "ExitPlanMode with the plan in the plan file (empty input)",
    name: "ExitPlanMode",
    input: {},
    kind: "switch_mode",
    title: "Approve Plan",
  },
  {
    rule: "EnterPlanMode switches mode",
    name: "EnterPlanMode",
    input: {},
    kind: "switch_mode",
    title: "Enter plan mode",
  },
  // question
  {
    rule: "AskUserQuestion: a single question is the title",
    name: "AskUserQuestion",
    input: {
      questions: [
        {
          question: "Which library?",
          header: "Lib",
          options: [{ label: "a", description: "A" }],
          multiSelect: false,
        },
      ],
    },
    kind: "other",
    title: "Which library?",
    content: [text("Which library?")],
  },
  {
    rule: "AskUserQuestion: several questions ask for input",
    name: "AskUserQuestion",
    input: { questions: [{ question: "One?" }, { question: "Two?" }] },
    kind: "other",
    title: "Asking for your input",
    content: [text("One?"), text("Two?")],
  },
  // skill
  {
    rule: "Skill: Load skill: <name>",
    name: "Skill",
    input: { skill: "pdf", args: "x" },
    kind: "other",
    title: "Load skill: pdf",
  },
  // mcp
  {
    rule: "MCP: server: tool",
    name: "mcp__github__create_issue",
    input: { title: "x" },
    kind: "other",
    title: "github: create_issue",
  },
  {
    rule: "MCP: a tool name holding __ stays whole",
    name: "mcp__db__run__query",
    input: {},
    kind: "other",
    title: "db: run__query",
  },
  {
    rule: "MCP-like name without a tool falls back to the name",
    name: "mcp__lonely",
    input: {},
    kind: "other",
    title: "mcp__lonely",
  },
  // fallback
  ...["SendMessage", "Monitor", "ListAgents", "ReportFindings", "Workflow", "FutureTool"].map(
    (name): Row => ({
      rule: `${name}: the tool name`,
      name,
      input: { anything: 1 },
      kind: "other",
      title: name,
    }),
  ),
];

describe("toolInfoFromToolUse renders each family as the conventions show", () => {
  it.each(rows)("$rule", (row) => {
    expect(toolInfoFromToolUse(row.name, row.input, context)).toEqual({
      name: row.name,
      kind: row.kind,
      title: row.title,
      content: row.content ?? [],
      locations: row.locations ?? [],
    });
  });
});

describe("titles are cleaned and never empty", () => {
  it.each([
    ["Read", { file_path: "/project/a\u001b[31m\nb.ts" }, "Read a b.ts"],
    ["WebFetch", { url: "https://x.test/\u0007y", prompt: "p" }, "Fetch https://x.test/y"],
    ["Agent", { description: "\u202eevil\u202c task\r\nnow" }, "evil task now"],
    ["mcp__s\u0000rv__t", {}, "srv: t"],
    ["Grep", { pattern: "a\nb" }, 'grep "a b"'],
  ] as const)("%s title is one clean line", (name, input, title) => {
    expect(toolInfoFromToolUse(name, input, context).title).toBe(title);
  });

  it("a shell title is one line that hides nothing: whitespace runs collapse, controls go, further lines are counted", () => {
    const command = "for f in *; do\n  echo \u001b[1m$f\u001b[0m\u0007\ndone";
    expect(toolInfoFromToolUse("Bash", { command }, context).title).toBe(
      "for f in *; do … (+2 lines)",
    );
    expect(
      toolInfoFromToolUse("Bash", { command: `ls${" ".repeat(300)}; rm x` }, context).title,
    ).toBe("ls ; rm x");
  });

  it("a multi-line shell command is shown whole in the content, before the description", () => {
    const command = "echo ok\nrm -rf build\n";
    expect(toolInfoFromToolUse("Bash", { command, description: "Clean" }, context).content).toEqual(
      [text("```sh\necho ok\nrm -rf build\n```"), text("Clean")],
    );
    expect(toolInfoFromToolUse("PowerShell", { command: "a\nb" }, context).content).toEqual([
      text("```powershell\na\nb\n```"),
    ]);
    expect(toolInfoFromToolUse("Bash", { command: "echo  ok" }, context).content).toEqual([]);
  });

  it.each([
    ["Bash", { command: "\u001b[2J" }, "Bash"],
    ["Agent", { description: "\u0000" }, "Agent"],
    ["Skill", { skill: "  " }, "Skill"],
    ["AskUserQuestion", { questions: [{ question: "\u0007" }] }, "Asking for your input"],
    ["", {}, "Tool"],
  ] as const)("%s whose title cleans to nothing gets a fallback title", (name, input, title) => {
    expect(toolInfoFromToolUse(name, input, context).title).toBe(title);
  });
});

describe("content from Claude is cleaned", () => {
  it("descriptions, prompts and diffs lose escape sequences but keep newlines", () => {
    const bash = toolInfoFromToolUse(
      "Bash",
      { command: "ls", description: "List\u001b]0;pwned\u0007\nfiles" },
      context,
    );
    expect(bash.content).toEqual([text("List\nfiles")]);
    const edit = toolInfoFromToolUse(
      "Edit",
      { file_path: "/project/a", old_string: "a\u001b[31m", new_string: "b\r\nc" },
      context,
    );
    expect(edit.content).toEqual([
      { type: "diff", path: "/project/a", oldText: "a", newText: "b\nc" },
    ]);
  });

  it("a fenced cell source cannot be closed early by backticks joined by cleaning", () => {
    const source = "``\u0000`\nrest";
    const info = toolInfoFromToolUse(
      "NotebookEdit",
      { notebook_path: "/project/n.ipynb", cell_id: "c", new_source: source },
      context,
    );
    expect(info.content).toEqual([text("````\n```\nrest\n````")]);
  });
});

describe("empty or malformed input never throws and keeps a title", () => {
  const names = [
    "Bash",
    "Read",
    "Edit",
    "MultiEdit",
    "Write",
    "NotebookEdit",
    "Glob",
    "Grep",
    "WebFetch",
    "WebSearch",
    "Agent",
    "TodoWrite",
    "TaskCreate",
    "TaskStop",
    "ExitPlanMode",
    "AskUserQuestion",
    "Skill",
    "mcp__a__b",
    "Whatever",
  ];
  const inputs: ToolInput[] = [
    {},
    { file_path: 42, command: null, todos: "x", questions: [null, 3], edits: [1] },
    { pattern: ["x"], url: {}, description: false, skill: 1 },
  ];
  it.each(names)("%s", (name) => {
    for (const input of inputs) {
      const info = toolInfoFromToolUse(name, input, context);
      expect(info.title.trim()).not.toBe("");
      expect(Array.isArray(info.content)).toBe(true);
    }
  });
});

describe("partialToolInfo refines title, kind and locations without content", () => {
  it.each([
    [
      "Write",
      '{"file_path": "/project/src/new.ts", "content": "export const a',
      { title: "Write src/new.ts", kind: "edit", locations: [{ path: "/project/src/new.ts" }] },
    ],
    ["Write", '{"file_pa', { title: "Preparing file…", kind: "edit", locations: [] }],
    [
      "Read",
      '{"file_path": "/project/a.ts", "offset": 1',
      { title: "Read a.ts", kind: "read", locations: [{ path: "/project/a.ts", line: 1 }] },
    ],
    [
      "Read",
      '{"file_path": "/project/a.ts", "offset": 12,',
      {
        title: "Read a.ts (from line 12)",
        kind: "read",
        locations: [{ path: "/project/a.ts", line: 12 }],
      },
    ],
    ["Bash", '{"command": "npm te', { title: "Terminal", kind: "execute", locations: [] }],
  ] as const)("%s with %s", (name, partial, expected) => {
    expect(partialToolInfo(name, partial, context)).toEqual(expected);
  });

  it("accepts fields already parsed", () => {
    expect(partialToolInfo("Edit", { file_path: "/project/a.ts" }, context)).toEqual({
      title: "Edit a.ts",
      kind: "edit",
      locations: [{ path: "/project/a.ts" }],
    });
  });
});

describe("a permission ask shows the same rendering as the tool call", () => {
  it("toolCallFromToolUse carries the family rendering, rawInput and the Claude tool name", () => {
    const input = { file_path: "/project/a.ts", old_string: "a", new_string: "b" };
    const call = toolCallFromToolUse(
      { id: "toolu_1", name: "Edit", input, parentToolUseId: null },
      context,
    );
    expect(call).toEqual({
      toolCallId: "toolu_1",
      ...toolInfoFromToolUse("Edit", input, context),
      status: "pending",
      rawInput: input,
      _meta: { claudeCode: { toolName: "Edit" } },
    });
  });
});

describe("text from Claude or from tools is cleaned before a client shows it", () => {
  it("the tool name in _meta.claudeCode has no escape sequence or control character", () => {
    const name = "mcp__evil\u001b]0;title\u0007__run\u202e\u0000";
    const call = toolCallFromToolUse(
      { id: "toolu_2", name, input: {}, parentToolUseId: null },
      context,
    );
    expect(call._meta).toEqual({ claudeCode: { toolName: "mcp__evil__run" } });
  });
});
