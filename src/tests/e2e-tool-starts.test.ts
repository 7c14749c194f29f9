// End-to-end: a tool call Claude Code runs without asking shows in_progress while it runs
// (its PreToolUse hook, session/tool-starts.ts); one the user is asked about is marked once,
// after the answer. The built agent, the real Claude Code binary, the scripted Anthropic API.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startE2E, stopAllE2E } from "./support/e2e/index.js";
import { statusesOf, toolCallEvents } from "./support/e2e-turns/index.js";

afterEach(stopAllE2E);

// A command Claude Code would ask about (it writes a file) but for the rule.
const COMMAND = "sleep 1; touch ran.txt";

describe("tool call status while Claude Code runs it", () => {
  it("a command allowed by a settings rule is in_progress before completed, with no permission request", async () => {
    const e2e = await startE2E({
      scenario: [
        {
          content: [
            { type: "tool_use", id: "toolu_rule", name: "Bash", input: { command: COMMAND } },
          ],
        },
        { content: [{ type: "text", text: "Done." }] },
      ],
      permission: { answer: "select", optionId: "reject-once" },
      clientCapabilities: { _meta: { terminal_output: true } },
    });
    await mkdir(join(e2e.cwd, ".claude"));
    await writeFile(
      join(e2e.cwd, ".claude", "settings.local.json"),
      // Claude Code checks each part of a compound command against the rules.
      JSON.stringify({ permissions: { allow: ["Bash(sleep 1)", "Bash(touch ran.txt)"] } }),
    );
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Run it.")).toMatchObject({ stopReason: "end_turn" });

    expect(e2e.permissions.records).toEqual([]);
    expect(statusesOf(e2e, sessionId, "toolu_rule")).toEqual([
      "pending",
      "in_progress",
      "completed",
    ]);
    // The running mark changes no terminal field: the terminal stays the call's content.
    const running = toolCallEvents(e2e, sessionId, "toolu_rule").find(
      (e) => e.status === "in_progress",
    );
    expect(running).toEqual({
      sessionUpdate: "tool_call_update",
      toolCallId: "toolu_rule",
      status: "in_progress",
      _meta: { claudeCode: { toolName: "Bash" } },
    });
  });

  it("a command the user allows is in_progress once, after the answer", async () => {
    const e2e = await startE2E({
      scenario: [
        {
          content: [
            {
              type: "tool_use",
              id: "toolu_ask",
              name: "Bash",
              input: { command: "sleep 1; touch made.txt" },
            },
          ],
        },
        { content: [{ type: "text", text: "Done." }] },
      ],
      permission: { answer: "select", optionId: "allow-once" },
    });
    const { sessionId } = await e2e.newSession();

    expect(await e2e.prompt(sessionId, "Run it.")).toMatchObject({ stopReason: "end_turn" });

    expect(e2e.permissions.records).toHaveLength(1);
    expect(statusesOf(e2e, sessionId, "toolu_ask")).toEqual([
      "pending",
      "in_progress",
      "completed",
    ]);
  });
});
