// Live capability audit, plan and question tools: what the real Claude Code passes to
// `canUseTool` for AskUserQuestion, EnterPlanMode and ExitPlanMode, what it does with the
// results the agent returns for them, and the options the agent's builders make of it.
// Scripted API by default (always run); the real API with CLAUDE_AGENT_ACP_LIVE_AUDIT=1
// and ANTHROPIC_API_KEY (see support/audit/run.ts).
import { beforeAll, describe, expect, it } from "vitest";
import type { RecordedRequest, ScriptTurn, TurnSpec } from "../../scripted-api/index.js";
import { parseQuestions } from "../../questions/questions.js";
import { optionsShown } from "../support/audit/choices.js";
import { reportedModes, toolResultText, toolUses } from "../support/audit/expect.js";
import { LIVE_AUDIT, runAudit, type AuditRun, type RecordedAsk } from "../support/audit/run.js";

const QUESTION = "Which color should the button be?";
const QUESTIONS = [
  {
    question: QUESTION,
    header: "Color",
    options: [
      { label: "Red", description: "Warm." },
      { label: "Blue", description: "Calm." },
    ],
    multiSelect: false,
  },
];
const PLAN = "# Plan\n\n1. Paint the button blue.\n";

/** The plan file Claude Code announced to the model ("create your plan at <path>"). */
function planPath(request: RecordedRequest, configDir: string): string {
  const escaped = `${configDir}/plans/`.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const found = new RegExp(`${escaped}[^\\s"'\`\\\\]+\\.md`).exec(JSON.stringify(request.body));
  if (!found) throw new Error("Claude Code did not announce a plan file");
  return found[0];
}

const tool = (name: string, input: Record<string, unknown>): ScriptTurn => ({
  content: [{ type: "tool_use", name, input }],
});

const exitPlanCalls = (run: AuditRun) => run.asks.filter((a) => a.toolName === "ExitPlanMode");

/** How the agent answers: the form's answers; keep planning once; then accept edits. */
function answer(ask: RecordedAsk, exitPlanAsks: RecordedAsk[]) {
  if (ask.toolName === "AskUserQuestion") {
    return {
      behavior: "allow" as const,
      updatedInput: { ...ask.input, answers: { [QUESTION]: "Blue" } },
    };
  }
  if (ask.toolName === "ExitPlanMode" && exitPlanAsks.length === 1) {
    return { behavior: "deny" as const, message: "Keep planning: write the plan first." };
  }
  // What the agent returns for exit-plan-accept-edits (src/permissions/effects.ts).
  return {
    behavior: "allow" as const,
    updatedInput: ask.input,
    updatedPermissions: [
      { type: "setMode" as const, mode: "acceptEdits" as const, destination: "session" as const },
    ],
  };
}

function start(live: boolean): Promise<AuditRun> {
  const exitPlanAsks: RecordedAsk[] = [];
  return runAudit({
    prompt: live
      ? `First ask me with AskUserQuestion: ${JSON.stringify(QUESTIONS)}. Then call ` +
        "EnterPlanMode. Then call ExitPlanMode before writing any plan. When that is refused, " +
        `write this plan into the plan file with the Write tool: ${JSON.stringify(PLAN)}, and ` +
        "call ExitPlanMode again."
      : "Run the audit steps.",
    ...(live
      ? {}
      : {
          scenario: (dirs): TurnSpec[] => [
            tool("AskUserQuestion", { questions: QUESTIONS }),
            tool("EnterPlanMode", {}),
            tool("ExitPlanMode", {}),
            (request) =>
              tool("Write", { file_path: planPath(request, dirs.configDir), content: PLAN }),
            tool("ExitPlanMode", {}),
          ],
        }),
    answer: (ask) => {
      if (ask.toolName === "ExitPlanMode") exitPlanAsks.push(ask);
      return answer(ask, exitPlanAsks);
    },
  });
}

function auditPlan(variant: string, live: boolean): void {
  describe.runIf(!live || LIVE_AUDIT)(`plan and question asks (${variant})`, () => {
    let run: AuditRun;
    beforeAll(async () => {
      run = await start(live);
    }, 150_000);

    it("AskUserQuestion: requiresUserInteraction, no suggestions; the questions parse, and answers in updatedInput reach the model", () => {
      const [ask, ...more] = run.asks.filter((a) => a.toolName === "AskUserQuestion");
      expect(more).toEqual([]);
      expect(ask?.context.requiresUserInteraction).toBe(true);
      expect(ask?.context.suggestions).toBeUndefined();
      expect(ask?.context.toolUseID).toMatch(/^toolu_/);
      expect(parseQuestions(ask?.input ?? {})).toEqual([
        {
          question: QUESTION,
          header: "Color",
          multiSelect: false,
          options: QUESTIONS[0]?.options,
        },
      ]);
      const result = toolResultText(run.messages, ask?.context.toolUseID ?? "");
      expect(result).toContain(QUESTION);
      expect(result).toContain("Blue");
    });

    it("EnterPlanMode in default mode does not reach the callback: Claude Code switches to plan and reports it", () => {
      expect(run.asks.filter((a) => a.toolName === "EnterPlanMode")).toEqual([]);
      const entered = toolUses(run.messages).find((u) => u.name === "EnterPlanMode");
      expect(entered).toBeDefined();
      expect(toolResultText(run.messages, entered?.id ?? "")).toMatch(/Entered plan mode/);
      expect(reportedModes(run.messages)[0]).toBe("plan");
    });

    it("ExitPlanMode without a plan file: empty input, requiresUserInteraction; the agent offers manual approval, accept edits, keep planning", () => {
      const [first] = exitPlanCalls(run);
      expect(first?.input).toEqual({});
      expect(first?.context.requiresUserInteraction).toBe(true);
      expect(first?.context.suggestions).toBeUndefined();
      expect(optionsShown(first!, run.dirs).map((o) => [o.id, o.name])).toEqual([
        ["exit-plan-default", "Yes, manually approve edits"],
        ["exit-plan-accept-edits", "Yes, auto-accept edits"],
        ["reject", "No, keep planning"],
      ]);
    });

    it("ExitPlanMode with a plan file: Claude Code puts the plan and its path in the input; with a plan the agent adds a clear-context choice", () => {
      const second = exitPlanCalls(run)[1];
      expect(Object.keys(second?.input ?? {}).sort()).toEqual(["plan", "planFilePath"]);
      expect(second?.input.plan).toBe(PLAN);
      expect(second?.input.planFilePath).toMatch(
        new RegExp(`^${run.dirs.configDir}/plans/[^/]+\\.md$`),
      );
      expect(second?.context.requiresUserInteraction).toBe(true);
      expect(optionsShown(second!, run.dirs)).toEqual([
        {
          id: "exit-plan-default",
          name: "Yes, manually approve edits",
          kind: "allow_once",
          effect: { type: "exitPlan", mode: "default", clearContext: false },
        },
        {
          id: "exit-plan-clear-accept-edits",
          name: "Yes, clear context and auto-accept edits",
          kind: "allow_always",
          effect: { type: "exitPlan", mode: "acceptEdits", clearContext: true },
        },
        {
          id: "exit-plan-accept-edits",
          name: "Yes, auto-accept edits",
          kind: "allow_always",
          effect: { type: "exitPlan", mode: "acceptEdits", clearContext: false },
        },
        {
          id: "reject",
          name: "No, keep planning",
          kind: "reject_once",
          effect: { type: "reject" },
        },
      ]);
    });

    it("the agent's exit-plan result (allow with setMode acceptEdits for the session) leaves plan mode into acceptEdits", () => {
      expect(reportedModes(run.messages)).toEqual(["plan", "acceptEdits"]);
      const second = exitPlanCalls(run)[1];
      expect(toolResultText(run.messages, second?.context.toolUseID ?? "")).toMatch(
        /approved your plan/,
      );
    });
  });
}

auditPlan("scripted API", false);
auditPlan("live API", true);
