// Live capability audit, ask rules under Bypass: which calls still reach `canUseTool`
// when the session bypasses permissions, what the real Claude Code says about a call
// that a configured `permissions.ask` rule forced, and the options the agent's builders
// make of it. (Default mode sends the same shapes; the shell and MCP audits show it.)
// Scripted API by default (always run); the real API with CLAUDE_AGENT_ACP_LIVE_AUDIT=1
// and ANTHROPIC_API_KEY (see support/audit/run.ts).
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { TurnSpec } from "../../scripted-api/index.js";
import { optionsShown } from "../support/audit/choices.js";
import { askOf, toolResultText, toolUses } from "../support/audit/expect.js";
import { LIVE_AUDIT, runAudit, type AuditDirs, type AuditRun } from "../support/audit/run.js";

const ASKED_HOST = "example.org";
const ASK_RULES = ["Bash(npm test:*)", "Write", "WebSearch", `WebFetch(domain:${ASKED_HOST})`];
const SETTINGS_BEFORE = '"allow": []';
const SETTINGS_AFTER = '"allow": ["Bash(ls:*)"]';

function steps(dirs: AuditDirs): Array<{ tool: string; input: Record<string, unknown> }> {
  const settings = join(dirs.cwd, ".claude", "settings.json");
  return [
    { tool: "Bash", input: { command: "npm test" } },
    { tool: "Write", input: { file_path: join(dirs.cwd, "forced.txt"), content: "x\n" } },
    { tool: "WebSearch", input: { query: "agent client protocol" } },
    { tool: "WebFetch", input: { url: `https://${ASKED_HOST}/forced`, prompt: "Summarize." } },
    // No ask rule matches these: Bypass approves them without a callback.
    { tool: "Bash", input: { command: "echo hi > out.txt" } },
    { tool: "Read", input: { file_path: settings } },
    {
      tool: "Edit",
      input: { file_path: settings, old_string: SETTINGS_BEFORE, new_string: SETTINGS_AFTER },
    },
  ];
}

function start(live: boolean): Promise<AuditRun> {
  return runAudit({
    permissionMode: "bypassPermissions",
    allowBypass: true,
    // Claude Code refuses Bypass as root unless it is told it runs in a sandbox.
    env: { IS_SANDBOX: "1" },
    files: (dirs) => ({
      // Pretty-printed, so SETTINGS_BEFORE is in it word for word.
      [join(dirs.cwd, ".claude", "settings.json")]: JSON.stringify(
        { permissions: { allow: [], ask: ASK_RULES } },
        null,
        2,
      ),
    }),
    prompt: (dirs) =>
      live
        ? "Make exactly these tool calls, one per step, in this order, even if one is refused:\n" +
          steps(dirs)
            .map((s, i) => `${i + 1}. ${s.tool} with input ${JSON.stringify(s.input)}`)
            .join("\n")
        : "Run the audit steps.",
    ...(live
      ? {}
      : {
          scenario: (dirs: AuditDirs): TurnSpec[] =>
            steps(dirs).map((s) => ({
              content: [{ type: "tool_use", name: s.tool, input: s.input }],
            })),
        }),
    answer: () => ({ behavior: "deny", message: "Not during this audit; go on." }),
  });
}

const yes = { id: "allow-once", name: "Yes", kind: "allow_once", effect: { type: "allowOnce" } };
const no = { id: "reject", name: "No", kind: "reject_once", effect: { type: "reject" } };

function auditAskRules(variant: string, live: boolean): void {
  describe.runIf(!live || LIVE_AUDIT)(`asks forced by ask rules under Bypass (${variant})`, () => {
    let run: AuditRun;
    beforeAll(async () => {
      run = await start(live);
    }, 150_000);

    it("only the calls an ask rule matches reach the callback; Bypass approves the rest, .claude settings included", () => {
      expect(run.asks.map((a) => a.toolName).sort()).toEqual(
        ["Bash", "WebFetch", "WebSearch", "Write"].sort(),
      );
      const ran = toolUses(run.messages).filter(
        (u) =>
          (u.name === "Bash" &&
            (u.input as { command?: string }).command === "echo hi > out.txt") ||
          u.name === "Edit",
      );
      expect(ran).toHaveLength(2);
      for (const use of ran) {
        expect(toolResultText(run.messages, use.id)).not.toMatch(/Not during this audit/);
      }
    });

    it("a Bash ask rule: decisionReasonType rule, no suggestions, no matchedAskRule; only one-time choices", () => {
      const ask = askOf(run, "Bash");
      expect(ask.input.command).toBe("npm test");
      expect(ask.context.decisionReasonType).toBe("rule");
      expect(ask.context.suggestions).toBeUndefined();
      expect(ask.context.matchedAskRule).toBeUndefined();
      expect(ask.context.decisionReason).toBeUndefined();
      expect(optionsShown(ask, run.dirs)).toEqual([yes, no]);
    });

    it("a whole-tool ask rule on a tool that asks anyway (Write): matchedAskRule names it; only one-time choices", () => {
      const ask = askOf(run, "Write");
      expect(ask.context.matchedAskRule).toEqual({ source: "projectSettings", toolName: "Write" });
      expect(ask.context.suggestions).toBeUndefined();
      expect(optionsShown(ask, run.dirs)).toEqual([yes, no]);
    });

    it("a WebSearch ask rule: decisionReasonType rule, no suggestions, no matchedAskRule", () => {
      const ask = askOf(run, "WebSearch");
      expect(ask.context.decisionReasonType).toBe("rule");
      expect(ask.context.suggestions).toBeUndefined();
      expect(ask.context.matchedAskRule).toBeUndefined();
    });

    it("a WebSearch ask rule: the agent offers no durable option, since the ask rule keeps asking", () => {
      expect(optionsShown(askOf(run, "WebSearch"), run.dirs)).toEqual([yes, no]);
    });

    it("a WebFetch domain ask rule: decisionReasonType rule, no matchedAskRule, yet a domain allow suggestion", () => {
      const ask = askOf(run, "WebFetch");
      expect(ask.context.decisionReasonType).toBe("rule");
      expect(ask.context.matchedAskRule).toBeUndefined();
      expect(ask.context.suggestions).toEqual([
        {
          type: "addRules",
          rules: [{ toolName: "WebFetch", ruleContent: `domain:${ASKED_HOST}` }],
          behavior: "allow",
          destination: "localSettings",
        },
      ]);
    });

    it("a WebFetch domain ask rule: the agent offers no durable option, since the ask rule keeps asking", () => {
      expect(optionsShown(askOf(run, "WebFetch"), run.dirs)).toEqual([yes, no]);
    });
  });
}

auditAskRules("scripted API", false);
auditAskRules("live API", true);
