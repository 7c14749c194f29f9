// Live capability audit, Skill family: what the real Claude Code passes to `canUseTool`
// for a project skill (`.claude/skills/<name>/SKILL.md`), and the options the agent's
// builders make of it. Scripted API by default (always run); the real API with
// CLAUDE_AGENT_ACP_LIVE_AUDIT=1 and ANTHROPIC_API_KEY (see support/audit/run.ts).
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { TurnSpec } from "../../scripted-api/index.js";
import { optionsShown } from "../support/audit/choices.js";
import { askOf, toolResultText, toolUses } from "../support/audit/expect.js";
import { LIVE_AUDIT, runAudit, type AuditRun } from "../support/audit/run.js";

/** Grants itself a tool (allowed-tools), so invoking it needs permission. */
const GREET = "greet";
/** Nothing but instructions: Claude Code invokes it without asking. */
const PLAIN = "plain";
const ARGS = "everyone now";

const skill = (name: string, extra: string) =>
  `---\nname: ${name}\ndescription: Says hello (${name}).\n${extra}---\nSay hello to $ARGUMENTS.\n`;

const STEPS: Array<Record<string, unknown>> = [
  { skill: GREET },
  { skill: GREET, args: ARGS },
  { skill: PLAIN, args: ARGS },
];

function start(live: boolean): Promise<AuditRun> {
  return runAudit({
    files: (dirs) => ({
      [join(dirs.cwd, ".claude", "skills", GREET, "SKILL.md")]: skill(
        GREET,
        "allowed-tools: Bash(ls:*)\n",
      ),
      [join(dirs.cwd, ".claude", "skills", PLAIN, "SKILL.md")]: skill(PLAIN, ""),
    }),
    prompt: live
      ? "Make exactly these Skill tool calls, one per step, in this order, and do nothing " +
        "else:\n" +
        STEPS.map((s, i) => `${i + 1}. Skill with input ${JSON.stringify(s)}`).join("\n")
      : "Run the audit steps.",
    ...(live
      ? {}
      : {
          scenario: (): TurnSpec[] =>
            STEPS.map((input) => ({ content: [{ type: "tool_use", name: "Skill", input }] })),
        }),
  });
}

const greetRule = (ruleContent: string) => ({
  type: "addRules",
  rules: [{ toolName: "Skill", ruleContent }],
  behavior: "allow",
  destination: "localSettings",
});

function auditSkill(variant: string, live: boolean): void {
  describe.runIf(!live || LIVE_AUDIT)(`Skill asks (${variant})`, () => {
    let run: AuditRun;
    beforeAll(async () => {
      run = await start(live);
    }, 150_000);

    it("a skill that grants itself tools: Claude Code (2.1.336) suggests the exact rule in local settings, with or without arguments; args stay a separate field", () => {
      const plainCall = askOf(run, "Skill", (input) => input.args === undefined);
      const withArgs = askOf(run, "Skill", (input) => input.args === ARGS);
      for (const ask of [plainCall, withArgs]) {
        expect(ask.input.skill).toBe(GREET);
        expect(ask.context.suggestions).toEqual([greetRule(GREET)]);
        expect(ask.context.toolUseID).toMatch(/^toolu_/);
      }
    });

    it("the agent offers the exact-skill rule, and the `prefix:*` rule when the call carries arguments", () => {
      const once = {
        id: "allow-once",
        name: "Yes",
        kind: "allow_once",
        effect: { type: "allowOnce" },
      };
      const exact = {
        id: "allow-skill-exact",
        name: `Yes, and don't ask again for ${GREET} in this project`,
        kind: "allow_always",
        effect: { type: "allowWithUpdates", updates: [greetRule(GREET)] },
      };
      const prefix = {
        id: "allow-skill-prefix",
        name: `Yes, and don't ask again for ${GREET}:* commands in this project`,
        kind: "allow_always",
        effect: { type: "allowWithUpdates", updates: [greetRule(`${GREET}:*`)] },
      };
      const no = { id: "reject", name: "No", kind: "reject_once", effect: { type: "reject" } };
      const plainCall = askOf(run, "Skill", (input) => input.args === undefined);
      const withArgs = askOf(run, "Skill", (input) => input.args === ARGS);
      expect(optionsShown(plainCall, run.dirs)).toEqual([once, exact, no]);
      expect(optionsShown(withArgs, run.dirs)).toEqual([once, exact, prefix, no]);
    });

    it("a skill of instructions only is not asked, and launches", () => {
      expect(run.asks.filter((a) => a.input.skill === PLAIN)).toEqual([]);
      const use = toolUses(run.messages).find(
        (u) => (u.input as { skill?: unknown }).skill === PLAIN,
      );
      expect(toolResultText(run.messages, use?.id ?? "")).toMatch(/Launching skill: plain/);
    });
  });
}

auditSkill("scripted API", false);
auditSkill("live API", true);
