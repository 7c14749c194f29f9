import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  methods,
  RequestError,
  type NewSessionResponse,
  type SessionConfigOption,
  type SessionNotification,
} from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import type { ModelInfo } from "../../claude/types.js";
import type { UltracodeReport } from "../../claude/ultracode.js";
import { TOOL_USE_ABORTED } from "../../permissions/messages.js";
import { IMPLEMENT_PLAN_PREFIX } from "../../plan/handoff.js";
import { continuationId } from "../../session/lifecycle/continuations.js";
import {
  fakeClaude,
  type FakeClaudeQuery,
  result,
  sdkMessage,
  streamedText,
  toolResult,
} from "../support/fake-claude.js";
import { trustFolder } from "../support/trusted-folder.js";
import { connectInProcess, isolatedEnv, type InProcessOptions } from "../support/in-process.js";
import { LIBRARY_QUESTION } from "../support/questions.js";

const MODELS: ModelInfo[] = [
  {
    value: "default",
    resolvedModel: "claude-opus-5-5",
    displayName: "Default (recommended)",
    description: "Opus",
    supportsEffort: true,
    supportedEffortLevels: ["low", "medium", "high"],
    supportsFastMode: true,
    supportsAutoMode: true,
  },
  {
    value: "sonnet",
    resolvedModel: "claude-sonnet-5-5",
    displayName: "Sonnet",
    description: "Sonnet",
    supportsEffort: true,
    supportedEffortLevels: ["low", "high"],
    supportsAutoMode: true,
  },
  {
    value: "haiku",
    resolvedModel: "claude-haiku-5-5",
    displayName: "Haiku",
    description: "Haiku",
    supportsAutoMode: false,
  },
];

let cleanup: Array<() => void> = [];
afterEach(() => {
  cleanup.forEach((fn) => fn());
  cleanup = [];
});

interface Setup {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  options?: Partial<InProcessOptions>;
}

async function setup({ env, cwd, options }: Setup = {}) {
  const claude = fakeClaude({ models: MODELS });
  const harness = await connectInProcess({
    startQuery: claude.startQuery,
    env: env ?? isolatedEnv({ IS_SANDBOX: "1" }),
    ...options,
  });
  cleanup.push(() => harness.close());
  const dir = cwd ?? mkdtempSync(join(tmpdir(), "acp-config-"));
  // What the session offers once Claude Code has reported its models.
  const session: NewSessionResponse = await harness.newStartedSession(dir);
  const query = claude.started.at(-1)!;
  return { ...harness, claude, query, session, sessionId: session.sessionId, cwd: dir };
}

function option(options: readonly SessionConfigOption[] | null | undefined, id: string) {
  return options?.find((o) => o.id === id);
}

function kinds(updates: SessionNotification[]): string[] {
  return updates.map((n) => n.update.sessionUpdate);
}

function rpcCode(error: unknown): number {
  expect(error).toBeInstanceOf(RequestError);
  return (error as RequestError).code;
}

describe("modes", () => {
  it("offers Manual, Accept edits, Plan, Auto and Bypass permissions with SDK wire ids", async () => {
    const { session } = await setup();
    expect(session.modes?.currentModeId).toBe("default");
    expect(session.modes?.availableModes.map((m) => [m.id, m.name])).toEqual([
      ["default", "Manual"],
      ["acceptEdits", "Accept edits"],
      ["plan", "Plan"],
      ["auto", "Auto"],
      ["bypassPermissions", "Bypass permissions"],
    ]);
    expect(option(session.configOptions, "mode")).toMatchObject({
      type: "select",
      category: "mode",
      currentValue: "default",
    });
  });

  it("does not offer Bypass permissions to a root process without IS_SANDBOX", async () => {
    const { session } = await setup({ env: isolatedEnv() });
    const ids = session.modes?.availableModes.map((m) => m.id);
    if (process.getuid?.() === 0) expect(ids).not.toContain("bypassPermissions");
    else expect(ids).toContain("bypassPermissions");
  });

  it("session/set_mode changes the mode through the SDK and publishes current_mode_update and config_option_update", async () => {
    const { agent, query, sessionId, updates } = await setup();
    const before = updates.length;
    await agent.request(methods.agent.session.setMode, { sessionId, modeId: "acceptEdits" });
    expect(query.modes).toEqual(["acceptEdits"]);
    const published = updates.slice(before).map((n) => n.update);
    expect(published).toContainEqual({
      sessionUpdate: "current_mode_update",
      currentModeId: "acceptEdits",
    });
    const configUpdate = published.find((u) => u.sessionUpdate === "config_option_update");
    expect(
      configUpdate && "configOptions" in configUpdate && option(configUpdate.configOptions, "mode"),
    ).toMatchObject({ currentValue: "acceptEdits" });
  });

  it("a mode the session does not offer gets invalid params", async () => {
    const { agent, sessionId } = await setup({ env: isolatedEnv({ IS_SANDBOX: "" }) });
    for (const modeId of [
      "manual",
      "dontAsk",
      "nonsense",
      ...(process.getuid?.() === 0 ? ["bypassPermissions"] : []),
    ]) {
      const error = await agent
        .request(methods.agent.session.setMode, { sessionId, modeId })
        .catch((e: unknown) => e);
      expect(rpcCode(error)).toBe(-32602);
    }
  });

  it("a mode change reported by Claude Code (EnterPlanMode) is published", async () => {
    const { agent, query, sessionId, updates } = await setup();
    const prompt = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "plan it" }],
    });
    await query.waitForSent(1);
    query.emit(
      sdkMessage({ type: "system", subtype: "status", status: null, permissionMode: "plan" }),
      result(),
    );
    await prompt;
    expect(updates.map((n) => n.update)).toContainEqual({
      sessionUpdate: "current_mode_update",
      currentModeId: "plan",
    });
  });
});

describe("settings: permissions.defaultMode decides the initial mode", () => {
  function withSettings(files: { user?: unknown; project?: unknown; local?: unknown }) {
    const env = isolatedEnv({ IS_SANDBOX: "1" });
    const cwd = mkdtempSync(join(tmpdir(), "acp-settings-"));
    mkdirSync(join(cwd, ".claude"), { recursive: true });
    trustFolder(env, cwd); // a project's settings apply in a folder the user trusts
    if (files.user)
      writeFileSync(join(env.CLAUDE_CONFIG_DIR!, "settings.json"), JSON.stringify(files.user));
    if (files.project)
      writeFileSync(join(cwd, ".claude", "settings.json"), JSON.stringify(files.project));
    if (files.local)
      writeFileSync(join(cwd, ".claude", "settings.local.json"), JSON.stringify(files.local));
    return { env, cwd };
  }

  it.each([
    ["user settings", { user: { permissions: { defaultMode: "acceptEdits" } } }, "acceptEdits"],
    ["project settings", { project: { permissions: { defaultMode: "plan" } } }, "plan"],
    [
      "local settings over project and user",
      {
        user: { permissions: { defaultMode: "plan" } },
        project: { permissions: { defaultMode: "plan" } },
        local: { permissions: { defaultMode: "acceptEdits" } },
      },
      "acceptEdits",
    ],
    ["the manual alias", { project: { permissions: { defaultMode: "manual" } } }, "default"],
    [
      "an invalid value falls back to default",
      { project: { permissions: { defaultMode: "yolo" } } },
      "default",
    ],
    ["dontAsk is honoured", { project: { permissions: { defaultMode: "dontAsk" } } }, "dontAsk"],
    [
      "a name that is only an object property is not a mode",
      { project: { permissions: { defaultMode: "constructor" } } },
      "default",
    ],
  ])("%s", async (_name, files, expected) => {
    const { env, cwd } = withSettings(files);
    const { session, query } = await setup({ env, cwd });
    expect(session.modes?.currentModeId).toBe(expected);
    expect(query.options.permissionMode).toBe(expected);
  });

  it("dontAsk is shown only while it is current", async () => {
    const { env, cwd } = withSettings({ project: { permissions: { defaultMode: "dontAsk" } } });
    const { agent, session, sessionId } = await setup({ env, cwd });
    expect(session.modes?.availableModes.map((m) => m.id)).toContain("dontAsk");
    await agent.request(methods.agent.session.setMode, { sessionId, modeId: "default" });
    const options = await agent.request(methods.agent.session.setConfigOption, {
      sessionId,
      configId: "effort",
      value: "low",
    });
    const mode = option(options.configOptions, "mode");
    expect(
      mode?.type === "select" && mode.options.map((o) => ("value" in o ? o.value : "")),
    ).not.toContain("dontAsk");
  });

  it("settings that disable auto and bypass remove those modes", async () => {
    const { env, cwd } = withSettings({
      user: {
        permissions: { disableAutoMode: "disable", disableBypassPermissionsMode: "disable" },
      },
    });
    const { session } = await setup({ env, cwd });
    const ids = session.modes?.availableModes.map((m) => m.id);
    expect(ids).not.toContain("auto");
    expect(ids).not.toContain("bypassPermissions");
  });
});

describe("config options", () => {
  it("offers model (from the SDK's model list), effort (levels the model supports) and fast mode", async () => {
    const { session } = await setup();
    const model = option(session.configOptions, "model");
    expect(model).toMatchObject({ type: "select", category: "model", currentValue: "default" });
    expect(
      model?.type === "select" && model.options.map((o) => ("value" in o ? o.value : "")),
    ).toEqual(["default", "sonnet", "haiku"]);
    const effort = option(session.configOptions, "effort");
    expect(
      effort?.type === "select" && effort.options.map((o) => ("value" in o ? o.value : "")),
    ).toEqual(["default", "low", "medium", "high"]);
    expect(option(session.configOptions, "fast_mode")).toMatchObject({ currentValue: "off" });
  });

  it("fast mode is a boolean option for clients that render boolean options", async () => {
    const { session } = await setup({
      options: { clientCapabilities: { session: { configOptions: { boolean: {} } } } },
    });
    expect(option(session.configOptions, "fast_mode")).toMatchObject({
      type: "boolean",
      currentValue: false,
    });
  });

  it("a model change applies through setModel, accepts aliases, and is published", async () => {
    const { agent, query, sessionId, updates } = await setup();
    const response = await agent.request(methods.agent.session.setConfigOption, {
      sessionId,
      configId: "model",
      value: "claude-sonnet-5-5",
    });
    expect(query.models).toEqual(["sonnet"]);
    expect(option(response.configOptions, "model")).toMatchObject({ currentValue: "sonnet" });
    expect(kinds(updates)).toContain("config_option_update");
    // Sonnet has no fast mode: the option disappears.
    expect(option(response.configOptions, "fast_mode")).toBeUndefined();
  });

  it("a model switch that loses Auto support moves the session out of Auto visibly", async () => {
    const { agent, query, sessionId, updates } = await setup();
    await agent.request(methods.agent.session.setMode, { sessionId, modeId: "auto" });
    await agent.request(methods.agent.session.setConfigOption, {
      sessionId,
      configId: "model",
      value: "haiku",
    });
    expect(query.modes).toEqual(["auto", "default"]);
    expect(
      updates.map((n) => n.update).filter((u) => u.sessionUpdate === "current_mode_update"),
    ).toEqual([
      { sessionUpdate: "current_mode_update", currentModeId: "auto" },
      { sessionUpdate: "current_mode_update", currentModeId: "default" },
    ]);
  });

  it("effort and fast mode apply as flag settings", async () => {
    const { agent, query, sessionId } = await setup();
    await agent.request(methods.agent.session.setConfigOption, {
      sessionId,
      configId: "effort",
      value: "high",
    });
    await agent.request(methods.agent.session.setConfigOption, {
      sessionId,
      configId: "fast_mode",
      value: "on",
    });
    expect(query.flagSettings).toEqual([{ effortLevel: "high" }, { fastMode: true }]);
  });

  it.each([
    ["model", "gpt-9"],
    ["effort", "ludicrous"],
    ["fast_mode", "maybe"],
    ["mode", "nonsense"],
    ["nonexistent", "x"],
  ])("an invalid value for %s gets invalid params", async (configId, value) => {
    const { agent, sessionId } = await setup();
    const error = await agent
      .request(methods.agent.session.setConfigOption, { sessionId, configId, value })
      .catch((e: unknown) => e);
    expect(rpcCode(error)).toBe(-32602);
  });
});

describe("ExitPlanMode", () => {
  const PLAN = "1. Write the code\n2. Test it";

  async function inPlanMode(onPermission: InProcessOptions["onPermission"]) {
    const harness = await setup({ options: { onPermission } });
    await harness.agent.request(methods.agent.session.setMode, {
      sessionId: harness.sessionId,
      modeId: "plan",
    });
    const prompt = harness.agent.request(methods.agent.session.prompt, {
      sessionId: harness.sessionId,
      prompt: [{ type: "text", text: "make a plan" }],
    });
    await harness.query.waitForSent(1);
    return { ...harness, prompt };
  }

  it("offers clear-context and keep-context in the highest elevated mode, manual approval and keep planning", async () => {
    const { query, permissionRequests } = await inPlanMode(() => ({
      outcome: { outcome: "cancelled" },
    }));
    const decision = await query.canUseTool(
      "ExitPlanMode",
      { plan: PLAN },
      { toolUseID: "toolu_exit" },
    );
    expect(decision).toMatchObject({ behavior: "deny", message: TOOL_USE_ABORTED });
    const request = permissionRequests[0]!;
    expect(request._meta).toMatchObject({ permission: { version: 1, title: "Ready to code?" } });
    expect(request.options.map((o) => [o.optionId, o.kind])).toEqual([
      ["exit-plan-default", "allow_once"],
      ["exit-plan-clear-auto", "allow_always"],
      ["exit-plan-auto", "allow_always"],
      ["reject", "reject_once"],
    ]);
  });

  it("a keep-context choice switches the session mode and publishes it", async () => {
    const { query, updates, prompt } = await inPlanMode(() => ({
      outcome: { outcome: "selected", optionId: "exit-plan-auto" },
    }));
    const decision = await query.canUseTool(
      "ExitPlanMode",
      { plan: PLAN },
      { toolUseID: "toolu_exit" },
    );
    expect(decision).toMatchObject({
      behavior: "allow",
      updatedPermissions: [{ type: "setMode", mode: "auto", destination: "session" }],
    });
    expect(updates.map((n) => n.update)).toContainEqual({
      sessionUpdate: "current_mode_update",
      currentModeId: "auto",
    });
    query.emit(result());
    await prompt;
  });

  it("a clear-context choice continues the same prompt in a new private query with the plan, under the id derived from the session's (never a spare's)", async () => {
    const { claude, query, updates, prompt, sessionId } = await inPlanMode(() => ({
      outcome: { outcome: "selected", optionId: "exit-plan-clear-auto" },
    }));
    query.emit(
      sdkMessage({
        type: "assistant",
        message: {
          id: "m1",
          content: [
            { type: "tool_use", id: "toolu_exit", name: "ExitPlanMode", input: { plan: PLAN } },
          ],
          usage: {},
        },
        parent_tool_use_id: null,
      }),
    );
    const decision = await query.canUseTool(
      "ExitPlanMode",
      { plan: PLAN },
      { toolUseID: "toolu_exit" },
    );
    expect(decision).toMatchObject({ behavior: "deny", interrupt: true });
    const next = claude.nextStart();
    // Claude Code reports the internal rejection, then ends the interrupted turn.
    query.emit(
      toolResult("toolu_exit", "rejected", { isError: true }),
      result({ subtype: "error_during_execution", usage: { input_tokens: 10, output_tokens: 5 } }),
    );
    const fresh = await next;
    expect(fresh.options.permissionMode).toBe("auto");
    expect(fresh.options.sessionId).toBe(continuationId(sessionId));
    expect(fresh.options.exactSessionId).toBe(true);
    expect(fresh.options.resume).toBeUndefined();
    const sent = await fresh.waitForSent(1);
    expect(sent.message.content).toEqual([
      { type: "text", text: `${IMPLEMENT_PLAN_PREFIX}\n\n${PLAN}` },
    ]);
    expect(query.closed).toBe(true);
    fresh.emit(
      ...streamedText("m2", "Implementing."),
      result({ usage: { input_tokens: 1, output_tokens: 2 } }),
    );
    const response = await prompt;
    expect(response).toMatchObject({
      stopReason: "end_turn",
      usage: { inputTokens: 11, outputTokens: 7 },
    });
    const exitUpdates = updates
      .map((n) => n.update)
      .filter(
        (u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "toolu_exit" && u.status,
      );
    expect(exitUpdates.at(-1)).toMatchObject({ status: "completed" });
    expect(updates.map((n) => n.update)).toContainEqual({
      sessionUpdate: "current_mode_update",
      currentModeId: "auto",
    });
  });
});

describe("AskUserQuestion", () => {
  const INPUT = LIBRARY_QUESTION;
  const FORM = { elicitation: { form: {} } };

  it("without form elicitation support the tool is disabled when the Claude session is created", async () => {
    const { query } = await setup();
    expect(query.options.disallowedTools).toContain("AskUserQuestion");
  });

  it("with form support it is routed through elicitation/create, never a permission dialog", async () => {
    const { agent, query, sessionId, elicitations, permissionRequests } = await setup({
      options: {
        clientCapabilities: FORM,
        onElicitation: () => ({ action: "accept", content: { question_0: "luxon" } }),
      },
    });
    expect(query.options.disallowedTools).not.toContain("AskUserQuestion");
    void agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "ask" }],
    });
    await query.waitForSent(1);
    const decision = await query.canUseTool("AskUserQuestion", INPUT, { toolUseID: "toolu_q" });
    expect(permissionRequests).toHaveLength(0);
    expect(elicitations[0]).toMatchObject({
      mode: "form",
      sessionId,
      toolCallId: "toolu_q",
      message: "Which library?",
    });
    expect(decision).toMatchObject({
      behavior: "allow",
      updatedInput: { ...INPUT, answers: { "Which library?": "luxon" } },
    });
  });

  it("decline tells Claude the user skipped; cancel aborts the tool use", async () => {
    for (const [action, expected] of [
      ["decline", { behavior: "allow", updatedInput: { answers: {} } }],
      ["cancel", { behavior: "deny", message: TOOL_USE_ABORTED }],
    ] as const) {
      const { agent, query, sessionId } = await setup({
        options: { clientCapabilities: FORM, onElicitation: () => ({ action }) },
      });
      void agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "ask" }],
      });
      await query.waitForSent(1);
      expect(
        await query.canUseTool("AskUserQuestion", INPUT, { toolUseID: "toolu_q" }),
      ).toMatchObject(expected);
    }
  });
});

describe("ultracode", () => {
  /** A session whose Claude Code reports ultracode as given (`available`, `requested`). */
  async function withUltracode(report: UltracodeReport | undefined, options = {}) {
    const claude = fakeClaude({ models: MODELS });
    const harness = await connectInProcess({
      startQuery: (queryOptions) => {
        const query = claude.startQuery(queryOptions) as FakeClaudeQuery;
        query.ultracodeReport = report;
        return query;
      },
      env: isolatedEnv({ IS_SANDBOX: "1" }),
      ...options,
    });
    cleanup.push(() => harness.close());
    const session = await harness.newStartedSession(mkdtempSync(join(tmpdir(), "acp-ultra-")));
    return { ...harness, session, query: claude.started.at(-1)!, sessionId: session.sessionId };
  }

  it("is offered only while Claude Code reports it can run, with Claude Code's value", async () => {
    expect(option((await withUltracode(undefined)).session.configOptions, "ultracode")).toBe(
      undefined,
    );
    const off = await withUltracode({ available: false, requested: true });
    expect(option(off.session.configOptions, "ultracode")).toBeUndefined();
    const on = await withUltracode({ available: true, requested: true });
    expect(option(on.session.configOptions, "ultracode")).toMatchObject({
      type: "select",
      currentValue: "on",
      category: "model_config",
    });
  });

  it("is a boolean for clients that render booleans; a choice goes to Claude Code, and an effort change carries it", async () => {
    const { agent, query, sessionId } = await withUltracode(
      { available: true, requested: false },
      { clientCapabilities: { session: { configOptions: { boolean: {} } } } },
    );
    const response = await agent.request(methods.agent.session.setConfigOption, {
      sessionId,
      configId: "ultracode",
      type: "boolean",
      value: true,
    });
    expect(option(response.configOptions, "ultracode")).toMatchObject({
      type: "boolean",
      currentValue: true,
    });
    await agent.request(methods.agent.session.setConfigOption, {
      sessionId,
      configId: "effort",
      value: "high",
    });
    expect(query.flagSettings).toEqual([
      { ultracode: true },
      { effortLevel: "high", ultracode: true },
    ]);
  });

  it("a value that is no on/off, or ultracode where it cannot run, is refused with invalid params", async () => {
    const { agent, sessionId } = await withUltracode({ available: true, requested: false });
    const sideways = await agent
      .request(methods.agent.session.setConfigOption, {
        sessionId,
        configId: "ultracode",
        value: "sideways",
      })
      .catch((error: unknown) => error);
    expect(rpcCode(sideways)).toBe(-32602);
    const unavailable = await withUltracode({ available: false, requested: false });
    const refused = await unavailable.agent
      .request(methods.agent.session.setConfigOption, {
        sessionId: unavailable.sessionId,
        configId: "ultracode",
        value: "on",
      })
      .catch((error: unknown) => error);
    expect(rpcCode(refused)).toBe(-32602);
  });
});
