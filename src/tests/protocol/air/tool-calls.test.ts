// AIR's keys on tool calls (issue 52), for an AIR client alone: a command's description as
// `commandTitle`, `subagent`, `skill`, `mcp` (and `is_mcp_tool_call` on the announcement), the
// permission presentation under AIR's `permission` too, a compaction's facts as
// `contextCompaction`, and with `planFile` declared, ExitPlanMode's plan shown as its file,
// then cleared once approved. Zed sees none of it.
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  methods,
  type InitializeRequest,
  type SessionNotification,
} from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { ACPX, AIR, ZED } from "../../support/client-handshakes.js";
import { result, sdkMessage, toolResult, toolUse } from "../../support/fake-claude.js";
import type { PermissionHandler } from "../../support/in-process.js";
import { handshakeSession } from "../../support/handshake-session.js";

const AIR_PLAN_FILE: InitializeRequest = {
  ...AIR,
  clientCapabilities: {
    ...AIR.clientCapabilities,
    _meta: { jetbrains: { air: { version: 1, capabilities: ["planFile"] } } },
  },
};

let cleanup: Array<() => void> = [];
afterEach(() => {
  cleanup.forEach((fn) => fn());
  cleanup = [];
});

const allowOnce: PermissionHandler = (request) => ({
  outcome: {
    outcome: "selected",
    optionId: request.options.find((o) => o.kind === "allow_once")!.optionId,
  },
});

/** A prompt running on a client of this handshake. */
async function turn(handshake: InitializeRequest, onPermission: PermissionHandler = allowOnce) {
  const harness = await handshakeSession(handshake, { onPermission });
  const { sessionId, query } = harness;
  const prompt = harness.agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "Go." }],
  });
  await query.waitForSent(1);
  const end = async () => {
    query.emit(result());
    await prompt;
  };
  return { ...harness, end };
}

/** The tool calls and their updates the client saw. */
type ToolCallShown = Extract<
  SessionNotification["update"],
  { sessionUpdate: "tool_call" | "tool_call_update" }
>;
const calls = (updates: SessionNotification[]): ToolCallShown[] =>
  updates
    .map((n) => n.update)
    .filter(
      (u): u is ToolCallShown =>
        u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update",
    );
const airOf = (meta: unknown) =>
  (meta as { jetbrains?: { air?: Record<string, unknown> } } | null | undefined)?.jetbrains?.air;

describe("AIR's keys on tool calls", () => {
  it("a command's description is its commandTitle (cleaned); the title stays the command", async () => {
    const { query, updates, end } = await turn(AIR);
    query.emit(
      toolUse("toolu_1", "Bash", { command: "ls -la", description: "List\u001b[2J files\u0007" }),
    );
    await end();
    const call = calls(updates).find((u) => u.toolCallId === "toolu_1")!;
    expect(call.title).toBe("ls -la");
    expect(call._meta).toMatchObject({
      claudeCode: { toolName: "Bash" },
      jetbrains: { air: { version: 1, commandTitle: "List files" } },
    });
  });

  it("a subagent, a skill and an MCP tool's call say so, and an MCP call's announcement is flagged", async () => {
    const { query, updates, end } = await turn(AIR);
    query.emit(
      toolUse("toolu_a", "Agent", { description: "Look around", prompt: "Find it." }),
      toolUse("toolu_s", "Skill", { skill: "release-notes" }),
      toolUse("toolu_m", "mcp__github__get_issue", { number: 7 }),
    );
    await end();
    const meta = (id: string) =>
      calls(updates)
        .filter((u) => u.toolCallId === id)
        .map((u) => u._meta);
    expect(airOf(meta("toolu_a")[0])).toMatchObject({ subagent: true });
    expect(airOf(meta("toolu_s")[0])).toMatchObject({ skill: { name: "release-notes" } });
    expect(airOf(meta("toolu_m")[0])).toMatchObject({
      mcp: { server: "github", tool: "get_issue" },
    });
    expect(meta("toolu_m")[0]).toMatchObject({ is_mcp_tool_call: true });
  });

  it("an MCP tool's server and tool names, an MCP server's text, are cleaned", async () => {
    const { query, updates, end } = await turn(AIR);
    query.emit(toolUse("toolu_m", "mcp__git\u0007hub__get\u202e_issue", {}));
    await end();
    const announced = calls(updates).find((u) => u.toolCallId === "toolu_m")!;
    expect(airOf(announced._meta)).toMatchObject({ mcp: { server: "github", tool: "get_issue" } });
  });

  it("a permission request's presentation (the permission contract's request presentation, `_meta.permission`) is under AIR's permission key too, the same record", async () => {
    const { query, permissionRequests, end } = await turn(AIR);
    await query.canUseTool("Bash", { command: "npm test" }, { toolUseID: "toolu_p" });
    await end();
    const request = permissionRequests[0]!;
    expect(airOf(request._meta)).toEqual({ version: 1, permission: request._meta!.permission });
    expect(request._meta!.permission).toMatchObject({ version: 1, title: "npm test" });
  });

  it("Zed and acpx see no AIR key on any of it", async () => {
    for (const handshake of [ZED, ACPX]) {
      const { query, updates, permissionRequests, end } = await turn(handshake);
      query.emit(
        toolUse("toolu_1", "Bash", { command: "ls", description: "List" }),
        toolUse("toolu_m", "mcp__github__get_issue", {}),
        sdkMessage({ type: "system", subtype: "status", status: "compacting" }),
      );
      await query.canUseTool("Bash", { command: "npm test" }, { toolUseID: "toolu_p" });
      await end();
      const seen = JSON.stringify([updates, permissionRequests]);
      expect(seen).not.toMatch(/jetbrains|is_mcp_tool_call/);
    }
  });

  it("a compaction's facts reach AIR as contextCompaction, its trigger in AIR's words", async () => {
    const { query, updates, end } = await turn(AIR);
    query.emit(
      sdkMessage({ type: "system", subtype: "status", status: "compacting" }),
      sdkMessage({
        type: "system",
        subtype: "compact_boundary",
        compact_metadata: { trigger: "auto", pre_tokens: 150_000, post_tokens: 20_000 },
      }),
    );
    await end();
    const done = calls(updates).find((u) => u.status === "completed")!;
    expect(airOf(done._meta)).toEqual({
      version: 1,
      contextCompaction: {
        version: 1,
        trigger: "automatic",
        preTokens: 150_000,
        postTokens: 20_000,
      },
    });
  });
});

describe("AIR's planFile", () => {
  const plan = "1. Write it.\n2. Test it.";
  const planFile = () => {
    const file = join(mkdtempSync(join(tmpdir(), "acp-air-plan-")), "plan.md");
    writeFileSync(file, plan);
    return file;
  };

  it("shows ExitPlanMode's plan as its file (no copy of the plan), and once approved, a call clearing it", async () => {
    const file = planFile();
    const { query, updates, permissionRequests, end } = await turn(AIR_PLAN_FILE);
    const input = { plan, planFilePath: file };
    await query.canUseTool("ExitPlanMode", input, { toolUseID: "toolu_exit" });
    const asked = permissionRequests[0]!.toolCall;
    expect(asked.rawInput).toEqual({ planFilePath: file });
    expect(asked.content ?? []).toEqual([]);
    expect(JSON.stringify(updates)).not.toContain("Write it.");
    query.emit(toolResult("toolu_exit", "Exit plan mode?"));
    await end();
    const shown = calls(updates).map((u): unknown[] => [u.toolCallId, u.sessionUpdate, u.status]);
    const done = shown.findIndex(([id, , status]) => id === "toolu_exit" && status === "completed");
    expect(shown[done + 1]).toEqual(["toolu_exit:plan-file-clear", "tool_call", "completed"]);
    expect(calls(updates)[done + 1]).toMatchObject({ rawInput: { planFilePath: "" } });
  });

  it("a rejected plan gets no clearing call; a plan file that is not there, or AIR without planFile, shows the plan as before", async () => {
    const file = planFile();
    const reject: PermissionHandler = (request) => ({
      outcome: {
        outcome: "selected",
        optionId: request.options.find((o) => o.kind === "reject_once")!.optionId,
      },
    });
    const rejected = await turn(AIR_PLAN_FILE, reject);
    await rejected.query.canUseTool(
      "ExitPlanMode",
      { plan, planFilePath: file },
      { toolUseID: "toolu_exit" },
    );
    rejected.query.emit(toolResult("toolu_exit", "No.", { isError: true }));
    await rejected.end();
    expect(JSON.stringify(rejected.updates)).not.toContain("plan-file-clear");

    for (const [handshake, path] of [
      [AIR_PLAN_FILE, join(tmpdir(), "no-such-plan.md")],
      [AIR, file],
    ] as const) {
      const { query, permissionRequests, end } = await turn(handshake, reject);
      const input = { plan, planFilePath: path };
      await query.canUseTool("ExitPlanMode", input, { toolUseID: "toolu_exit" });
      await end();
      expect(permissionRequests[0]!.toolCall.rawInput).toEqual(input);
    }
  });
});

describe("AIR's rawInputRendering", () => {
  const AIR_RAW_INPUT: InitializeRequest = {
    ...AIR,
    clientCapabilities: {
      ...AIR.clientCapabilities,
      _meta: { jetbrains: { air: { version: 1, capabilities: ["rawInputRendering"] } } },
    },
  };

  it("a client that renders the input itself gets no text copy of it (a subagent's prompt, a command's description); rawInput and the result stay", async () => {
    const { query, updates, end } = await turn(AIR_RAW_INPUT);
    query.emit(
      toolUse("toolu_a", "Agent", { description: "Look around", prompt: "Find the config." }),
      toolUse("toolu_b", "Bash", { command: "ls", description: "List files" }),
      toolResult("toolu_b", "a.txt"),
    );
    await end();
    const agent = calls(updates).filter((u) => u.toolCallId === "toolu_a");
    expect(JSON.stringify(agent.map((u) => u.content ?? []))).not.toContain("Find the config.");
    expect(agent.some((u) => JSON.stringify(u.rawInput).includes("Find the config."))).toBe(true);
    const bash = calls(updates).filter((u) => u.toolCallId === "toolu_b");
    expect(JSON.stringify(bash.filter((u) => u.status !== "completed"))).not.toContain(
      '"text":"List files"',
    );
    expect(JSON.stringify(bash.find((u) => u.status === "completed")?.content)).toContain("a.txt");
  });

  it("AIR without it, and Zed, still get the copy", async () => {
    for (const handshake of [AIR, ZED]) {
      const { query, updates, end } = await turn(handshake);
      query.emit(toolUse("toolu_a", "Agent", { description: "Look around", prompt: "Find it." }));
      await end();
      const contents = calls(updates).map((u) => u.content ?? []);
      expect(JSON.stringify(contents)).toContain("Find it.");
    }
  });
});

describe("AIR's diffPatch", () => {
  const AIR_PATCH: InitializeRequest = {
    ...AIR,
    clientCapabilities: {
      ...AIR.clientCapabilities,
      _meta: { jetbrains: { air: { version: 1, capabilities: ["diffPatch"] } } },
    },
  };
  const patchOf = (content: unknown) =>
    (
      (
        content as Array<{ _meta?: { jetbrains?: { air?: { diffPatch?: { text?: string } } } } }>
      )?.at(0)?._meta?.jetbrains?.air?.diffPatch ?? {}
    ).text;

  it("an Edit's permission request shows the change as one git patch of the file; a Write of a new file as a created file", async () => {
    const { query, cwd, permissionRequests, end } = await turn(AIR_PATCH);
    const file = join(cwd, "a.txt");
    writeFileSync(file, "line1\nline2\nline3\n");
    await query.canUseTool(
      "Edit",
      { file_path: file, old_string: "line2", new_string: "LINE2" },
      { toolUseID: "toolu_e" },
    );
    await query.canUseTool(
      "Write",
      { file_path: join(cwd, "b.txt"), content: "hello\n" },
      { toolUseID: "toolu_w" },
    );
    await end();
    const name = file.replace(/^\//, "");
    const [edit, write] = permissionRequests.map((r) => r.toolCall.content);
    expect(edit).toMatchObject([{ type: "diff", path: file, oldText: null, newText: "" }]);
    expect(patchOf(edit)).toBe(
      `diff --git a/${name} b/${name}\n--- a/${name}\n+++ b/${name}\n` +
        "@@ -1,3 +1,3 @@\n line1\n-line2\n+LINE2\n line3\n",
    );
    expect(patchOf(write)).toContain("new file mode 100644\n--- /dev/null\n");
    expect(patchOf(write)).toContain("+hello\n");
  });

  it("an edit's completed call shows what Claude Code did as one git patch, from its own result; a created file as a created file", async () => {
    const { query, cwd, updates, end } = await turn(AIR_PATCH);
    const file = join(cwd, "a.txt");
    query.emit(toolUse("toolu_e", "Edit", { file_path: file, old_string: "b", new_string: "B" }));
    query.emit(
      toolResult("toolu_e", "The file has been updated.", {
        structured: {
          filePath: file,
          type: "update",
          structuredPatch: [
            { oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [" a", "-b", "+B", " c"] },
          ],
        },
      }),
    );
    const created = join(cwd, "new.txt");
    query.emit(toolUse("toolu_w", "Write", { file_path: created, content: "hi\n" }));
    query.emit(
      toolResult("toolu_w", "File created.", {
        structured: { filePath: created, type: "create", content: "hi\n", structuredPatch: [] },
      }),
    );
    await end();
    const completed = (id: string) =>
      calls(updates).find((u) => u.toolCallId === id && u.status === "completed")!;
    const name = file.replace(/^\//, "");
    expect(completed("toolu_e").content).toMatchObject([
      { type: "diff", path: file, oldText: null, newText: "" },
    ]);
    expect(patchOf(completed("toolu_e").content)).toBe(
      `diff --git a/${name} b/${name}\n--- a/${name}\n+++ b/${name}\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n`,
    );
    expect(patchOf(completed("toolu_w").content)).toContain(
      "new file mode 100644\n--- /dev/null\n",
    );
  });

  it("a completed edit whose lines hold a control character keeps its own diffs; Zed's keeps them too", async () => {
    for (const handshake of [AIR_PATCH, ZED]) {
      const { query, cwd, updates, end } = await turn(handshake);
      const file = join(cwd, "a.txt");
      const patch = (lines: string[]) => ({
        structured: {
          filePath: file,
          type: "update",
          structuredPatch: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines }],
        },
      });
      query.emit(toolUse("toolu_e", "Edit", { file_path: file, old_string: "b", new_string: "B" }));
      query.emit(toolResult("toolu_e", "Updated.", patch(["-b\u001b[2J", "+B"])));
      await end();
      const done = calls(updates).find((u) => u.status === "completed")!;
      expect(patchOf(done.content)).toBeUndefined();
      expect(done.content?.[0]).toMatchObject({ type: "diff", path: file });
    }
  });

  it("a file outside the session's folders, or a link in them to one outside, is not read: its request keeps its own diff", async () => {
    const { query, cwd, permissionRequests, end } = await turn(AIR_PATCH);
    const outside = mkdtempSync(join(tmpdir(), "acp-air-outside-"));
    cleanup.push(() => rmSync(outside, { recursive: true, force: true }));
    const secret = join(outside, "credentials");
    writeFileSync(secret, "key=SECRET-VALUE\nline2\n");
    symlinkSync(outside, join(cwd, "linked"));
    await query.canUseTool(
      "Edit",
      { file_path: secret, old_string: "line2", new_string: "LINE2" },
      { toolUseID: "toolu_out" },
    );
    await query.canUseTool(
      "Write",
      { file_path: join(cwd, "linked", "credentials"), content: "replaced\n" },
      { toolUseID: "toolu_link" },
    );
    await end();
    expect(permissionRequests).toHaveLength(2);
    for (const request of permissionRequests)
      expect(patchOf(request.toolCall.content)).toBeUndefined();
    expect(JSON.stringify(permissionRequests)).not.toContain("SECRET-VALUE");
  });

  it("an edit that does not match the file exactly once keeps the request's own diff; AIR without diffPatch and Zed get no patch", async () => {
    const twice = await turn(AIR_PATCH);
    const file = join(twice.cwd, "a.txt");
    writeFileSync(file, "x\nx\n");
    await twice.query.canUseTool(
      "Edit",
      { file_path: file, old_string: "x", new_string: "y" },
      { toolUseID: "toolu_e" },
    );
    // A path a cleaning would change is not put in a patch's headers.
    const odd = join(twice.cwd, "odd\u0007.txt");
    writeFileSync(odd, "line2\n");
    await twice.query.canUseTool(
      "Edit",
      { file_path: odd, old_string: "line2", new_string: "LINE2" },
      { toolUseID: "toolu_o" },
    );
    await twice.end();
    expect(patchOf(twice.permissionRequests[0]!.toolCall.content)).toBeUndefined();
    expect(patchOf(twice.permissionRequests[1]!.toolCall.content)).toBeUndefined();

    for (const handshake of [AIR, ZED]) {
      const { query, cwd, permissionRequests, end } = await turn(handshake);
      const other = join(cwd, "a.txt");
      writeFileSync(other, "line2\n");
      await query.canUseTool(
        "Edit",
        { file_path: other, old_string: "line2", new_string: "LINE2" },
        { toolUseID: "toolu_e" },
      );
      await end();
      expect(JSON.stringify(permissionRequests)).not.toContain("diffPatch");
    }
  });
});
