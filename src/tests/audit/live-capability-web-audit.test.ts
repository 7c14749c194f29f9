// Live capability audit, web family: what the real Claude Code passes to `canUseTool`
// for WebFetch and WebSearch, and the options the agent's builders make of it (with an
// ask rule: live-capability-ask-rule-audit.test.ts). Scripted API by default (always run); the real API with
// CLAUDE_AGENT_ACP_LIVE_AUDIT=1 and ANTHROPIC_API_KEY (see support/audit/run.ts).
import { beforeAll, describe, expect, it } from "vitest";
import type { TurnSpec } from "../../scripted-api/index.js";
import { optionsShown } from "../support/audit/choices.js";
import { askOf } from "../support/audit/expect.js";
import { LIVE_AUDIT, runAudit, type AuditRun } from "../support/audit/run.js";

const FETCH_URL = "https://example.com/page";
const SEARCH = "agent client protocol";

const STEPS: Array<{ tool: string; input: Record<string, unknown> }> = [
  { tool: "WebFetch", input: { url: FETCH_URL, prompt: "Summarize the page." } },
  { tool: "WebSearch", input: { query: SEARCH } },
];

function start(live: boolean): Promise<AuditRun> {
  return runAudit({
    prompt: live
      ? "Make exactly these tool calls, one per step, in this order, even if one is refused:\n" +
        STEPS.map((s, i) => `${i + 1}. ${s.tool} with input ${JSON.stringify(s.input)}`).join("\n")
      : "Run the audit steps.",
    ...(live
      ? {}
      : {
          scenario: (): TurnSpec[] =>
            STEPS.map((s) => ({ content: [{ type: "tool_use", name: s.tool, input: s.input }] })),
        }),
    // No network here: refusing keeps the tools from trying.
    answer: () => ({ behavior: "deny", message: "Not during this audit; go on." }),
  });
}

const yes = { id: "allow-once", name: "Yes", kind: "allow_once", effect: { type: "allowOnce" } };
const no = { id: "reject", name: "No", kind: "reject_once", effect: { type: "reject" } };

function auditWeb(variant: string, live: boolean): void {
  describe.runIf(!live || LIVE_AUDIT)(`web asks (${variant})`, () => {
    let run: AuditRun;
    beforeAll(async () => {
      run = await start(live);
    }, 150_000);
    const fetchOf = (url: string) => askOf(run, "WebFetch", (input) => input.url === url);

    it("WebFetch: a domain rule in local settings; the agent offers its own identical domain rule by host", () => {
      const ask = fetchOf(FETCH_URL);
      const rule = { toolName: "WebFetch", ruleContent: "domain:example.com" };
      expect(ask.context.suggestions).toEqual([
        { type: "addRules", rules: [rule], behavior: "allow", destination: "localSettings" },
      ]);
      expect(ask.context.matchedAskRule).toBeUndefined();
      expect(ask.context.toolUseID).toMatch(/^toolu_/);
      expect(optionsShown(ask, run.dirs)).toEqual([
        yes,
        {
          id: "allow-with-updates",
          name: "Yes, and don't ask again for example.com in this project",
          kind: "allow_always",
          effect: { type: "allowWithUpdates", updates: ask.context.suggestions },
        },
        no,
      ]);
    });

    it("WebSearch: a whole-tool rule in local settings; the agent offers the same whole-tool rule", () => {
      const ask = askOf(run, "WebSearch");
      expect(ask.input.query).toBe(SEARCH);
      expect(ask.context.suggestions).toEqual([
        {
          type: "addRules",
          rules: [{ toolName: "WebSearch" }],
          behavior: "allow",
          destination: "localSettings",
        },
      ]);
      expect(optionsShown(ask, run.dirs)).toEqual([
        yes,
        {
          id: "allow-with-updates",
          name: "Yes, and don't ask again for WebSearch commands in this project",
          kind: "allow_always",
          effect: { type: "allowWithUpdates", updates: ask.context.suggestions },
        },
        no,
      ]);
    });
  });
}

auditWeb("scripted API", false);
auditWeb("live API", true);
