// The scripted model turns of the demo: Claude's side of the conversation, played by the
// scripted API. The agent and Claude Code are real; function turns react to what happened.
import { join } from "node:path";
import {
  lastUserText,
  toolResults,
  type Block,
  type RecordedRequest,
  type Scenario,
  type ToolResult,
  type Turn,
  type TurnSpec,
} from "../scripted-api/index.js";

export const DEMO_PROMPT =
  "The tests fail: add(2, 3) should be 5. Please fix it and run the tests.";

export const QUESTION = "What should I plan next?";
export const CHOICES = [
  { label: "Test negative numbers", description: "Add a test case for add(-2, -3)" },
  { label: "Add subtract()", description: "A subtract(a, b) next to add(), with a test" },
] as const;

export interface DemoScenarioOptions {
  /** The project (session cwd). */
  project: string;
  /** Claude Code's config dir: plan files live in `<configDir>/plans/`. */
  configDir: string;
  /** Stream text at reading speed (interactive runs); false: as fast as possible. */
  paced: boolean;
}

/** The result of the tool call `id` as the model was sent it. */
function resultOf(request: RecordedRequest, id: string): ToolResult | undefined {
  return toolResults(request).find((r) => r.tool_use_id === id);
}

const REFUSED = /doesn't want to proceed|rejected|denied/i;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * In plan mode Claude Code tells the model where to write the plan
 * ("create your plan at <path> using the Write tool"), somewhere in the request.
 */
export function planFilePath(request: RecordedRequest, configDir: string): string | undefined {
  const pattern = new RegExp(`${escapeRegExp(join(configDir, "plans"))}/[^\\s"'\`\\\\]+\\.md`);
  return pattern.exec(JSON.stringify(request.body))?.[0];
}

/** The answer the user gave to QUESTION, from the AskUserQuestion result text. */
export function answerOf(result: ToolResult | undefined): string | undefined {
  const match = result?.text.match(/"What should I plan next\?"="([^"]*)"/);
  return match?.[1];
}

function planFor(answer: string): string {
  const subtract = answer === CHOICES[1].label;
  const topic = subtract
    ? "Add subtract()"
    : answer === CHOICES[0].label
      ? "Test negative numbers"
      : answer;
  const steps = subtract
    ? [
        "Add `subtract(a, b)` to math.js, next to `add()`.",
        "Add `assert.equal(subtract(5, 3), 2)` to test.js.",
        "Run `npm test`.",
      ]
    : answer === CHOICES[0].label
      ? [
          "Add `assert.equal(add(-2, -3), -5)` to test.js.",
          "Run `npm test` and check both cases pass.",
        ]
      : [`Do what was asked: ${answer}.`, "Run `npm test`."];
  return `# Plan: ${topic}\n\n${steps.map((s, i) => `${i + 1}. ${s}`).join("\n")}\n`;
}

export function demoScenario(options: DemoScenarioOptions): Scenario {
  const { project, configDir, paced } = options;
  const mathJs = join(project, "math.js");
  /** A text block, streamed word by word when paced. */
  const say = (text: string): Block => ({
    type: "text",
    text,
    chunks: paced ? Math.max(1, text.split(" ").length) : 2,
  });
  const turn = (content: Block[]): Turn => ({
    content,
    ...(paced ? { delayMs: 35, firstByteDelayMs: 400 } : {}),
  });
  const task = (taskId: string, status: "pending" | "in_progress" | "completed"): Block => ({
    type: "tool_use",
    name: "TaskUpdate",
    input: { taskId, status },
  });
  const ids = {
    read: "toolu_demo_read",
    edit: "toolu_demo_edit",
    test: "toolu_demo_test",
    ask: "toolu_demo_ask",
    exit: "toolu_demo_exit_plan",
  };

  const turns: TurnSpec[] = [
    turn([
      {
        type: "thinking",
        thinking: "add() returns the wrong sum. Track the work, then read math.js.",
      },
      say("I'll keep a short task list, then look at `add()`."),
      {
        type: "tool_use",
        name: "TaskCreate",
        input: {
          subject: "Find the bug in add()",
          description: "Read math.js",
          activeForm: "Finding the bug in add()",
        },
      },
      {
        type: "tool_use",
        name: "TaskCreate",
        input: { subject: "Fix add()", description: "Edit math.js", activeForm: "Fixing add()" },
      },
      {
        type: "tool_use",
        name: "TaskCreate",
        input: {
          subject: "Run the tests",
          description: "npm test",
          activeForm: "Running the tests",
        },
      },
    ]),
    turn([
      task("1", "in_progress"),
      { type: "tool_use", id: ids.read, name: "Read", input: { file_path: mathJs } },
    ]),
    turn([
      say("Found it: `add()` subtracts. Here is the fix:"),
      task("1", "completed"),
      task("2", "in_progress"),
      {
        type: "tool_use",
        id: ids.edit,
        name: "Edit",
        input: { file_path: mathJs, old_string: "  return a - b;", new_string: "  return a + b;" },
      },
    ]),
    (request) => {
      const edit = resultOf(request, ids.edit);
      const declined = edit?.is_error === true;
      return turn([
        say(
          declined
            ? "You declined the edit, so math.js stays as it is. I'll still run the tests to show where things stand."
            : "Fixed. Now let me run the tests.",
        ),
        // A declined edit leaves the task open: the list says what was done, not what was tried.
        task("2", declined ? "pending" : "completed"),
        task("3", "in_progress"),
        {
          type: "tool_use",
          id: ids.test,
          name: "Bash",
          input: { command: "npm test", description: "Run the project's tests" },
        },
      ]);
    },
    (request) => {
      const test = resultOf(request, ids.test);
      const ran = test !== undefined && !(test.is_error && REFUSED.test(test.text));
      const text =
        test === undefined
          ? "The tests did not run."
          : !ran
            ? "You declined running the tests; fine."
            : test.is_error
              ? "The tests still fail, as expected without the fix."
              : "All tests pass. ✔";
      return turn([
        say(`${text} One question before I go on:`),
        task("3", ran ? "completed" : "pending"),
        {
          type: "tool_use",
          id: ids.ask,
          name: "AskUserQuestion",
          input: {
            questions: [
              {
                question: QUESTION,
                header: "Next step",
                multiSelect: false,
                options: CHOICES.map((c) => ({ ...c })),
              },
            ],
          },
        },
      ]);
    },
    (request) => {
      const answer = answerOf(resultOf(request, ids.ask));
      const picked = answer
        ? `You chose "${answer}". `
        : "No answer, so I'll pick the first idea. ";
      return turn([
        say(`${picked}That deserves a plan: I'll switch to plan mode and write one.`),
        { type: "tool_use", name: "EnterPlanMode", input: {} },
      ]);
    },
    (request) => {
      const answer =
        answerOf(toolResults(request).find((r) => r.tool_use_id === ids.ask)) ?? CHOICES[0].label;
      const path = planFilePath(request, configDir);
      if (!path) {
        // Claude Code did not say where the plan goes: hand the plan to ExitPlanMode directly.
        return turn([
          say("Here is my plan."),
          {
            type: "tool_use",
            id: ids.exit,
            name: "ExitPlanMode",
            input: { plan: planFor(answer) },
          },
        ]);
      }
      return turn([
        say("Writing the plan:"),
        { type: "tool_use", name: "Write", input: { file_path: path, content: planFor(answer) } },
      ]);
    },
    (request) =>
      resultOf(request, ids.exit)
        ? finalTurn(request)
        : turn([
            say("The plan is ready for your review."),
            { type: "tool_use", id: ids.exit, name: "ExitPlanMode", input: {} },
          ]),
    finalTurn,
  ];

  function finalTurn(request: RecordedRequest): Turn {
    if (/^Implement the following plan/m.test(lastUserText(request))) {
      return turn([say("Starting on the plan in a fresh context. That's the end of the demo.")]);
    }
    const exit = resultOf(request, ids.exit);
    const text =
      exit === undefined
        ? "That's the end of the demo."
        : exit.is_error
          ? "OK, the plan stays a plan for now. That's the end of the demo."
          : "The plan is approved. That's the end of the demo.";
    return turn([say(text)]);
  }

  return { name: "claude-agent-acp demo", turns, fallbackText: "That's the end of the demo." };
}
