// Live capability audit, MCP family: what the real Claude Code passes to `canUseTool`
// for a tool of a stdio MCP server (as an ACP client configures one in session/new),
// with and without an ask rule, and the options the agent's builders make of it.
// Scripted API by default (always run); the real API with CLAUDE_AGENT_ACP_LIVE_AUDIT=1
// and ANTHROPIC_API_KEY (see support/audit/run.ts).
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import type { TurnSpec } from "../../scripted-api/index.js";
import { mcpServersToClaude } from "../../session/configuration/mcp-servers.js";
import { optionsShown, presentationOf } from "../support/audit/choices.js";
import { askOf, toolResultText } from "../support/audit/expect.js";
import { LIVE_AUDIT, runAudit, type AuditRun } from "../support/audit/run.js";

const SERVER = fileURLToPath(new URL("../fixtures/audit/echo-mcp-server.mjs", import.meta.url));
const ECHO = "mcp__audit__echo";
/** Has a whole-tool ask rule in the project settings. */
const SHOUT = "mcp__audit__shout";

const STEPS: Array<{ tool: string; input: Record<string, unknown> }> = [
  { tool: ECHO, input: { text: "hello" } },
  { tool: SHOUT, input: { text: "hello" } },
];

function start(live: boolean): Promise<AuditRun> {
  return runAudit({
    files: (dirs) => ({
      [join(dirs.cwd, ".claude", "settings.json")]: JSON.stringify({
        permissions: { ask: [SHOUT] },
      }),
    }),
    // The server as an ACP client sends it in session/new, converted as the agent does.
    mcpServers: () =>
      mcpServersToClaude([{ name: "audit", command: process.execPath, args: [SERVER], env: [] }]),
    prompt: live
      ? "Make exactly these tool calls, one per step, in this order:\n" +
        STEPS.map((s, i) => `${i + 1}. ${s.tool} with input ${JSON.stringify(s.input)}`).join("\n")
      : "Run the audit steps.",
    ...(live
      ? {}
      : {
          scenario: (): TurnSpec[] =>
            STEPS.map((s) => ({ content: [{ type: "tool_use", name: s.tool, input: s.input }] })),
        }),
  });
}

const yes = { id: "allow-once", name: "Yes", kind: "allow_once", effect: { type: "allowOnce" } };
const no = { id: "reject", name: "No", kind: "reject_once", effect: { type: "reject" } };

function auditMcp(variant: string, live: boolean): void {
  describe.runIf(!live || LIVE_AUDIT)(`MCP asks (${variant})`, () => {
    let run: AuditRun;
    beforeAll(async () => {
      run = await start(live);
    }, 150_000);

    it("an MCP tool: a whole-tool rule for exactly that tool in local settings; the agent offers it by tool name", () => {
      const ask = askOf(run, ECHO);
      expect(ask.context.suggestions).toEqual([
        {
          type: "addRules",
          rules: [{ toolName: ECHO }],
          behavior: "allow",
          destination: "localSettings",
        },
      ]);
      expect(ask.context.mcpServer?.name).toBe("audit");
      expect(ask.context.mcpServer?.source).toEqual(expect.any(String));
      expect(ask.context.toolUseID).toMatch(/^toolu_/);
      expect(ask.context.matchedAskRule).toBeUndefined();
      expect(optionsShown(ask, run.dirs)).toEqual([
        yes,
        {
          id: "allow-with-updates",
          name: `Yes, and don't ask again for ${ECHO} commands in this project`,
          kind: "allow_always",
          effect: { type: "allowWithUpdates", updates: ask.context.suggestions },
        },
        no,
      ]);
      // The title is the tool call's ("audit: echo"), not the CLI's displayName.
      expect(presentationOf(ask, "audit: echo")).toEqual({ version: 1, title: "audit: echo" });
      // Allowed once, the call reached the server.
      expect(toolResultText(run.messages, ask.context.toolUseID)).toBe("hello");
    });

    it("an MCP tool forced by an ask rule: decisionReasonType rule, no suggestions, no matchedAskRule; only one-time choices", () => {
      const ask = askOf(run, SHOUT);
      expect(ask.context.decisionReasonType).toBe("rule");
      expect(ask.context.matchedAskRule).toBeUndefined();
      expect(ask.context.suggestions).toBeUndefined();
      expect(optionsShown(ask, run.dirs)).toEqual([yes, no]);
    });
  });
}

auditMcp("scripted API", false);
auditMcp("live API", true);
