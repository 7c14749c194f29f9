// What AIR reads beside ACP's own fields (issue 52), for an AIR client alone: the kind of each
// permission mode (on the modes a session offers and on its mode option's choices, in the
// responses and in config_option_update), the model option's recommended value, the marks of
// skills (on the command list, and a Skill call's file), and the mark of a question form's
// free-text answers.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  methods,
  type ClientCapabilities,
  type InitializeRequest,
  type SessionConfigOption,
} from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AIR, ZED } from "../../support/client-handshakes.js";
import type { ModelInfo } from "../../../claude/types.js";
import { fakeClaude, FakeClaudeQuery, result, toolUse } from "../../support/fake-claude.js";
import { settle } from "../../support/settle.js";
import { connectInProcess } from "../../support/in-process.js";
import { LIBRARY_QUESTION } from "../../support/questions.js";

let cleanup: Array<() => void> = [];
afterEach(() => {
  cleanup.forEach((fn) => fn());
  cleanup = [];
});

const withForms = (handshake: InitializeRequest): ClientCapabilities => ({
  ...handshake.clientCapabilities,
  elicitation: { form: {} },
});

async function connect(
  clientCapabilities: ClientCapabilities,
  models: ModelInfo[] = [],
  init: Parameters<typeof fakeClaude>[0] = {},
) {
  const claude = fakeClaude({ models, ...init });
  const harness = await connectInProcess({
    startQuery: claude.startQuery,
    clientCapabilities,
    onElicitation: () => ({ action: "decline" }),
  });
  cleanup.push(() => harness.close());
  const cwd = mkdtempSync(join(tmpdir(), "acp-air-presentation-"));
  return { ...harness, claude, cwd };
}

/** AIR's kind of each of Claude Code's modes. */
const KINDS: Record<string, string> = {
  default: "standard",
  acceptEdits: "standard",
  plan: "plan",
  auto: "auto_review",
  bypassPermissions: "full_access",
};

const kindOf = (item: { _meta?: unknown }) =>
  (item._meta as { jetbrains?: { air?: { kind?: string } } } | null | undefined)?.jetbrains?.air
    ?.kind;

/** The mode option's choices and their kinds. */
const modeKinds = (options: readonly SessionConfigOption[] | null | undefined) => {
  const mode = options?.find((o) => o.id === "mode");
  return mode?.type === "select"
    ? mode.options.flatMap((c): unknown[][] => ("value" in c ? [[c.value, kindOf(c)]] : []))
    : [];
};

describe("AIR's kind of each mode", () => {
  it("the modes and the mode option's choices carry AIR's kind, in the session/new answer and after a mode change", async () => {
    const harness = await connect(AIR.clientCapabilities!);
    const { cwd, agent, updates } = harness;
    const opened = await harness.newStartedSession(cwd);
    const modes = opened.modes!.availableModes.map((m): unknown[] => [m.id, kindOf(m)]);
    expect(modes.length).toBeGreaterThanOrEqual(3);
    for (const [id, kind] of modes) expect(kind).toBe(KINDS[id as string]);
    const choices = modeKinds(opened.configOptions);
    expect(choices.length).toBeGreaterThanOrEqual(3);
    for (const [id, kind] of choices) expect(kind).toBe(KINDS[id as string]);
    const { configOptions } = await agent.request(methods.agent.session.setConfigOption, {
      sessionId: opened.sessionId,
      configId: "mode",
      value: "plan",
    });
    expect(modeKinds(configOptions)).toContainEqual(["plan", "plan"]);
    const pushed = updates
      .map((n) => n.update)
      .filter((u) => u.sessionUpdate === "config_option_update");
    expect(pushed.length).toBeGreaterThan(0);
    for (const update of pushed) {
      if (update.sessionUpdate === "config_option_update") {
        expect(modeKinds(update.configOptions)).toContainEqual(["default", "standard"]);
      }
    }
  });

  it("Zed's modes and options carry no AIR key", async () => {
    const harness = await connect(ZED.clientCapabilities!);
    const opened = await harness.newStartedSession(harness.cwd);
    expect(JSON.stringify([opened, harness.updates])).not.toContain("jetbrains");
  });
});

describe("AIR's mark of a question's free-text answer", () => {
  const QUESTIONS = LIBRARY_QUESTION;

  async function ask(handshake: InitializeRequest) {
    const harness = await connect(withForms(handshake));
    const sessionId = await harness.newSession(harness.cwd);
    const query = harness.claude.started.at(-1)!;
    void harness.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "ask" }],
    });
    await query.waitForSent(1);
    await query.canUseTool("AskUserQuestion", QUESTIONS, { toolUseID: "toolu_q" });
    const request = harness.elicitations[0] as {
      requestedSchema?: { properties?: Record<string, unknown> };
    };
    return request.requestedSchema?.properties ?? {};
  }

  it("the free-text field names the question it answers, in AIR's key and in the spelling released AIR versions read", async () => {
    const fields = await ask(AIR);
    const mark = { questionId: "question_0", isCustomAnswer: true };
    expect(fields.question_0_custom).toMatchObject({
      type: "string",
      title: "Other",
      _meta: {
        _askUserQuestionCustomAnswer: mark,
        jetbrains: { air: { version: 1, customAnswer: mark } },
      },
    });
  });

  it("Zed's form has no mark", async () => {
    const fields = await ask(ZED);
    expect(fields.question_0_custom).toEqual({ type: "string", title: "Other" });
  });
});

describe("AIR's recommendedValue", () => {
  const model = (value: string, resolvedModel: string): ModelInfo => ({
    value,
    resolvedModel,
    displayName: value === "default" ? "Default (recommended)" : value,
    description: "",
  });
  const MODELS = [
    model("default", "claude-opus-5-5"),
    model("opus", "claude-opus-5-5"),
    model("sonnet", "claude-sonnet-5-5"),
  ];
  const declaring = (capabilities: string[]): ClientCapabilities => ({
    ...AIR.clientCapabilities,
    _meta: { jetbrains: { air: { version: 1, capabilities } } },
  });
  const modelOption = (options: readonly SessionConfigOption[] | null | undefined) => {
    const option = options?.find((o) => o.id === "model");
    if (option?.type !== "select") throw new Error("no model option");
    const values = option.options.flatMap((c) => ("value" in c ? [c.value] : []));
    const air = (option._meta as { jetbrains?: { air?: unknown } } | undefined)?.jetbrains?.air;
    return { current: option.currentValue, values, air };
  };
  /** The model option as the client last heard it. */
  const lastPushed = (harness: Awaited<ReturnType<typeof connect>>) => {
    const pushed = harness.updates
      .map((n) => n.update)
      .filter((u) => u.sessionUpdate === "config_option_update");
    const last = pushed.at(-1);
    return last?.sessionUpdate === "config_option_update" ? last.configOptions : undefined;
  };

  it("the model option names the model Claude Code's default runs, marked recommended, in place of a Default entry; a pick of another keeps the mark", async () => {
    const harness = await connect(declaring(["recommendedValue"]), MODELS);
    const { sessionId } = await harness.newStartedSession(harness.cwd);
    expect(modelOption(lastPushed(harness))).toEqual({
      current: "opus",
      values: ["opus", "sonnet"],
      air: { version: 1, recommendedValue: "opus" },
    });
    const { configOptions } = await harness.agent.request(methods.agent.session.setConfigOption, {
      sessionId,
      configId: "model",
      value: "sonnet",
    });
    expect(modelOption(configOptions)).toMatchObject({
      current: "sonnet",
      air: { recommendedValue: "opus" },
    });
    expect(harness.claude.started.at(-1)!.models).toContain("sonnet");
  });

  it("a default that runs no listed model keeps its Default entry, unmarked; AIR without the capability and Zed keep it too", async () => {
    const unlisted = await connect(declaring(["recommendedValue"]), [
      model("default", "claude-opus-5-5"),
      model("sonnet", "claude-sonnet-5-5"),
    ]);
    await unlisted.newStartedSession(unlisted.cwd);
    expect(modelOption(lastPushed(unlisted))).toEqual({
      current: "default",
      values: ["default", "sonnet"],
      air: undefined,
    });
    for (const capabilities of [declaring([]), ZED.clientCapabilities!]) {
      const harness = await connect(capabilities, MODELS);
      await harness.newStartedSession(harness.cwd);
      expect(modelOption(lastPushed(harness))).toMatchObject({
        current: "default",
        values: ["default", "opus", "sonnet"],
        air: undefined,
      });
    }
  });
});

describe("AIR's marks of skills", () => {
  const command = (name: string) => ({ name, description: name, argumentHint: "" });
  const SKILLS = {
    commands: [command("greet"), command("simplify"), command("deploy"), command("compact")],
    skillFiles: [
      { name: "greet", path: "/project/.claude/skills/greet/SKILL.md" },
      { name: "simplify" },
      { name: "deploy", path: "/project/.claude/commands/deploy.md" },
    ],
  };
  const airOf = (item: { _meta?: unknown } | undefined) =>
    (item?._meta as { jetbrains?: { air?: unknown } } | undefined)?.jetbrains?.air;
  /** The commands of the last list the client heard, each with its AIR mark. */
  const lastList = (harness: Awaited<ReturnType<typeof connect>>) => {
    const lists = harness.updates
      .map((n) => n.update)
      .filter((u) => u.sessionUpdate === "available_commands_update");
    const last = lists.at(-1);
    if (last?.sessionUpdate !== "available_commands_update") return {};
    return Object.fromEntries(last.availableCommands.map((c) => [c.name, airOf(c)]));
  };

  it("a skill command is marked a skill, with its SKILL.md when it has one; a prompt file or a built-in command is not", async () => {
    const harness = await connect(AIR.clientCapabilities!, [], SKILLS);
    await harness.newStartedSession(harness.cwd);
    await vi.waitFor(() => expect(lastList(harness).greet).toBeDefined());
    expect(lastList(harness)).toMatchObject({
      greet: { version: 1, kind: "skill", skillPath: "/project/.claude/skills/greet/SKILL.md" },
      simplify: { version: 1, kind: "skill" },
      deploy: undefined,
      compact: undefined,
    });
    expect(lastList(harness).simplify).not.toHaveProperty("skillPath");
  });

  it("a Skill tool call's skill key names its file", async () => {
    const harness = await connect(AIR.clientCapabilities!, [], SKILLS);
    const sessionId = await harness.newSession(harness.cwd);
    await vi.waitFor(() => expect(lastList(harness).greet).toBeDefined());
    const query = harness.claude.started.at(-1)!;
    const prompt = harness.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "Greet." }],
    });
    await query.waitForSent(1);
    query.emit(toolUse("toolu_s", "Skill", { skill: "greet" }));
    query.emit(result());
    await prompt;
    const call = harness.updates
      .map((n) => n.update)
      .find((u) => u.sessionUpdate === "tool_call" && u.toolCallId === "toolu_s");
    expect(airOf(call)).toMatchObject({
      skill: { name: "greet", path: "/project/.claude/skills/greet/SKILL.md" },
    });
  });

  it("Zed's command list carries no mark, and Claude Code is not asked for its skills", async () => {
    const asked = vi.spyOn(FakeClaudeQuery.prototype, "skillFiles");
    cleanup.push(() => asked.mockRestore());
    const harness = await connect(ZED.clientCapabilities!, [], SKILLS);
    await harness.newStartedSession(harness.cwd);
    await settle();
    expect(lastList(harness)).toHaveProperty("greet");
    expect(asked).not.toHaveBeenCalled();
    expect(JSON.stringify(harness.updates)).not.toContain("jetbrains");
  });
});
