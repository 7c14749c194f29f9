// End-to-end: modes, config options and plan mode against the real Claude Code. Each test
// checks that Claude Code itself behaves in the mode the client sees, not only the labels.
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { toolResults, type TurnSpec } from "../../../scripted-api/index.js";
import { type E2E, shareAgents, startE2E, stopAllE2E } from "../../support/e2e/index.js";
import {
  bodyOf,
  contentTexts,
  messagesOf,
  planThenImplement,
  promptAnswers,
  setConfigOption,
  setMode,
  statusesOf,
  toolCallState,
  userTexts,
} from "../../support/e2e-turns/index.js";

afterEach(stopAllE2E);
shareAgents();

const PLAN = "# Plan\n\n1. Create impl.txt with the result.\n";

const optionIds = (request: RequestPermissionRequest | undefined) =>
  request?.options.map((o) => o.optionId) ?? [];

async function writeProjectSettings(e2e: E2E, settings: unknown): Promise<void> {
  await mkdir(join(e2e.cwd, ".claude"), { recursive: true });
  await writeFile(join(e2e.cwd, ".claude", "settings.json"), JSON.stringify(settings));
}

const modeUpdates = (e2e: E2E, sessionId: string) =>
  e2e.updates.of(sessionId, "current_mode_update").map((u) => u.currentModeId);

describe("session/new", () => {
  it("returns the modes and the config options: mode, the real model list, effort, fast mode and thinking", async () => {
    const e2e = await startE2E();

    // The first session answers before Claude Code has reported its models (a fresh HOME
    // knows none): they follow as config_option_update, and the next session/new has them.
    const first = await e2e.newSession();
    const modelCount = (options: typeof first.configOptions) => {
      const model = options?.find((o) => o.id === "model");
      return model?.type === "select" ? model.options.length : 0;
    };
    const reported = await e2e.updates.waitFor(
      first.sessionId,
      "config_option_update",
      (u) => modelCount(u.configOptions) > 1,
    );
    const { modes, configOptions } = await e2e.newSession();
    // Ultracode is offered once this session's Claude Code reports that it can run.
    expect(configOptions).toEqual(reported.configOptions.filter((o) => o.id !== "ultracode"));

    const asRoot = process.getuid?.() === 0; // bypass needs IS_SANDBOX as root
    const modeIds = [
      "default",
      "acceptEdits",
      "plan",
      "auto",
      ...(asRoot ? [] : ["bypassPermissions"]),
    ];
    expect(modes?.currentModeId).toBe("default");
    expect(modes?.availableModes.map((m) => m.id)).toEqual(modeIds);
    expect(configOptions?.map((o) => o.id)).toEqual([
      "mode",
      "model",
      "effort",
      "fast_mode",
      "thinking",
    ]);
    const [mode, model, effort, fast] = configOptions ?? [];
    expect(mode).toMatchObject({ type: "select", category: "mode", currentValue: "default" });
    expect(
      mode?.type === "select" && mode.options.map((o) => ("value" in o ? o.value : "")),
    ).toEqual(modeIds);
    // Claude Code's own model list: its aliases, each with a name and a description.
    expect(model).toMatchObject({ type: "select", category: "model", currentValue: "default" });
    const models = model?.type === "select" ? model.options : [];
    expect(models.map((o) => ("value" in o ? o.value : ""))).toEqual(
      expect.arrayContaining(["default", "opus", "sonnet", "haiku"]),
    );
    expect(models.every((o) => "name" in o && o.name && "description" in o && o.description)).toBe(
      true,
    );
    expect(effort).toMatchObject({
      type: "select",
      category: "thought_level",
      currentValue: "default",
      options: [
        { value: "default" },
        { value: "low" },
        { value: "medium" },
        { value: "high" },
        { value: "xhigh" },
        { value: "max" },
      ],
    });
    expect(fast).toMatchObject({
      type: "select",
      currentValue: "off",
      options: [{ value: "off" }, { value: "on" }],
    });
  });

  it("starts in acceptEdits when the project settings say permissions.defaultMode acceptEdits: a Write in the cwd is not asked", async () => {
    const e2e = await startE2E({ permission: { answer: "select", optionId: "reject" } });
    await writeProjectSettings(e2e, { permissions: { defaultMode: "acceptEdits" } });
    const file = join(e2e.cwd, "edited.txt");
    e2e.api.setScenario([
      {
        content: [{ type: "tool_use", name: "Write", input: { file_path: file, content: "ok\n" } }],
      },
    ]);

    const { sessionId, modes, configOptions } = await e2e.newSession();

    expect(modes?.currentModeId).toBe("acceptEdits");
    expect(configOptions?.find((o) => o.id === "mode")?.currentValue).toBe("acceptEdits");
    expect(await e2e.prompt(sessionId, "Edit it.")).toMatchObject({ stopReason: "end_turn" });
    expect(e2e.permissions.records).toEqual([]);
    expect(await readFile(file, "utf8")).toBe("ok\n");
  });
});

describe("session/set_mode plan", () => {
  it("puts Claude Code in plan mode: the model is told, and a Write is asked without the accept-edits offer of the default mode", async () => {
    const e2e = await startE2E({ permission: { answer: "select", optionId: "reject" } });
    const write = (name: string): TurnSpec => ({
      content: [
        {
          type: "tool_use",
          name: "Write",
          input: { file_path: join(e2e.cwd, name), content: "x\n" },
        },
      ],
    });
    e2e.api.setScenario([write("before.txt"), { content: [{ type: "text", text: "Refused." }] }]);
    const { sessionId } = await e2e.newSession();
    await e2e.prompt(sessionId, "Write before.txt.");

    await setMode(e2e, sessionId, "plan");
    e2e.api.enqueue(write("during.txt"), { content: [{ type: "text", text: "Refused." }] });
    expect(await e2e.prompt(sessionId, "Write during.txt.")).toMatchObject({
      stopReason: "end_turn",
    });

    expect(modeUpdates(e2e, sessionId)).toEqual(["plan"]);
    const [inDefault, inPlan] = e2e.permissions.records;
    expect(optionIds(inDefault?.request)).toEqual(["allow-once", "allow-with-updates", "reject"]);
    expect(optionIds(inPlan?.request)).toEqual(["allow-once", "reject"]);
    const planRequest = e2e.api.mainRequests()[2]!;
    expect(JSON.stringify(bodyOf(planRequest))).toContain("Plan mode is active");
    expect(JSON.stringify(bodyOf(e2e.api.mainRequests()[0]))).not.toContain("Plan mode is active");
    expect(existsSync(join(e2e.cwd, "before.txt"))).toBe(false);
    expect(existsSync(join(e2e.cwd, "during.txt"))).toBe(false);
  });
});

describe("ExitPlanMode, keeping the context", () => {
  const cases = [
    {
      when: "the model supports auto",
      settings: undefined,
      optionId: "exit-plan-auto",
      mode: "auto",
    },
    {
      when: "auto mode is disabled in settings",
      settings: { permissions: { disableAutoMode: "disable" } },
      optionId: "exit-plan-accept-edits",
      mode: "acceptEdits",
    },
  ];
  for (const { when, settings, optionId, mode } of cases) {
    it(`switches to ${mode} with ${optionId} when ${when}, and Claude Code goes on in it: the next Write is not asked`, async () => {
      const e2e = await startE2E({ permission: { answer: "select", optionId } });
      if (settings) await writeProjectSettings(e2e, settings);
      e2e.api.setScenario(planThenImplement(e2e, PLAN));
      const { sessionId } = await e2e.newSession();
      await setMode(e2e, sessionId, "plan");

      expect(await e2e.prompt(sessionId, "Plan it, then do it.")).toMatchObject({
        stopReason: "end_turn",
      });

      // Only ExitPlanMode was asked about, with the plan shown.
      expect(e2e.permissions.records).toHaveLength(1);
      const asked = e2e.permissions.records[0]!.request;
      expect(asked.toolCall).toMatchObject({ toolCallId: "toolu_exit", title: "Approve Plan" });
      expect(contentTexts(asked.toolCall.content)).toEqual([PLAN]);
      expect(optionIds(asked)).toContain(optionId);
      expect(modeUpdates(e2e, sessionId)).toEqual(["plan", mode]);
      expect(toolCallState(e2e, sessionId, "toolu_exit")).toMatchObject({
        status: "completed",
        title: "Exited Plan Mode",
      });
      const approved = toolResults(e2e.api.mainRequests()[2]!).find(
        (r) => r.tool_use_id === "toolu_exit",
      );
      expect(approved?.text).toContain("User has approved your plan");
      expect(approved?.text).toContain(PLAN.trim());
      expect(await readFile(join(e2e.cwd, "impl.txt"), "utf8")).toBe("implemented\n");
    });
  }
});

describe("ExitPlanMode, clearing the context", () => {
  it("hands the plan to a fresh conversation that starts with 'Implement the following plan:', in the same prompt", async () => {
    const e2e = await startE2E({
      permission: { answer: "select", optionId: "exit-plan-clear-auto" },
    });
    e2e.api.setScenario(planThenImplement(e2e, PLAN));
    const { sessionId } = await e2e.newSession();
    await setMode(e2e, sessionId, "plan");

    expect(await e2e.prompt(sessionId, "Plan it, then do it.")).toMatchObject({
      stopReason: "end_turn",
    });

    const [planning, exiting, fresh] = e2e.api.mainRequests();
    expect(exiting!.sessionId).toBe(planning!.sessionId);
    expect(fresh!.sessionId).not.toBe(planning!.sessionId);
    const messages = messagesOf(fresh);
    expect(messages.some((m) => m.role === "assistant")).toBe(false);
    const firstUser = messages.find((m) => m.role === "user");
    expect(userTexts(firstUser)[0]).toBe(`Implement the following plan:\n\n${PLAN.trim()}`);
    // The ACP side: one prompt, the tool call completed, the mode change published.
    expect(e2e.transcript.calls("session/prompt", "to-agent")).toHaveLength(1);
    expect(statusesOf(e2e, sessionId, "toolu_exit")).not.toContain("failed");
    expect(toolCallState(e2e, sessionId, "toolu_exit").status).toBe("completed");
    expect(modeUpdates(e2e, sessionId)).toEqual(["plan", "auto"]);
    expect(await readFile(join(e2e.cwd, "impl.txt"), "utf8")).toBe("implemented\n");
    expect(e2e.permissions.records).toHaveLength(1);
    const answered = promptAnswers(e2e)[0]!.seq;
    expect(e2e.transcript.updatesAfter(answered)).toEqual([]);
  });
  it("the handed-off plan mentions no file: a plan's @-mentions are not read in the fresh conversation", async () => {
    const e2e = await startE2E({
      permission: { answer: "select", optionId: "exit-plan-clear-auto" },
    });
    const outside = join(dirname(e2e.cwd), "outside");
    await mkdir(outside, { recursive: true });
    const secrets = { abs: join(outside, "abs"), home: join(e2e.home, "creds.txt") };
    const markers = [`SECRET-abs-${randomUUID()}`, `SECRET-home-${randomUUID()}`];
    await writeFile(secrets.abs, `${markers[0]}\n`);
    await writeFile(secrets.home, `${markers[1]}\n`);
    const plan = `# Plan\n\n1. Read @${secrets.abs}\n2. Then ok\u3002@~/creds.txt\n3. Create impl.txt.\n`;
    e2e.api.setScenario(planThenImplement(e2e, plan));
    const { sessionId } = await e2e.newSession();
    await setMode(e2e, sessionId, "plan");

    expect(await e2e.prompt(sessionId, "Plan it, then do it.")).toMatchObject({
      stopReason: "end_turn",
    });

    const fresh = e2e.api.mainRequests()[2];
    const said = messagesOf(fresh)
      .filter((m) => m.role === "user")
      .flatMap(userTexts)
      .map((text) => text.replaceAll("\u2060", ""));
    // The plan reads the same (an invisible word joiner before each mention's `@`).
    expect(said).toContain(`Implement the following plan:\n\n${plan.trim()}`);
    const sent = JSON.stringify(e2e.api.requests.map((r) => r.body));
    expect(markers.filter((m) => sent.includes(m))).toEqual([]);
    expect(sent).not.toContain("Called the Read tool");
  });
});

describe("session/set_config_option", () => {
  it("applies a model and an effort change to the next model request", async () => {
    const e2e = await startE2E();
    const { sessionId } = await e2e.newSession();
    await e2e.prompt(sessionId, "Before.");
    const before = bodyOf(e2e.api.lastMainRequest());

    const afterModel = await setConfigOption(e2e, sessionId, "model", "sonnet");
    const afterEffort = await setConfigOption(e2e, sessionId, "effort", "high");
    await e2e.prompt(sessionId, "After.");

    expect(afterModel.find((o) => o.id === "model")?.currentValue).toBe("sonnet");
    expect(afterEffort.find((o) => o.id === "effort")?.currentValue).toBe("high");
    const after = bodyOf(e2e.api.lastMainRequest());
    expect(before.model).toEqual(expect.stringContaining("opus"));
    expect(after.model).toEqual(expect.stringContaining("sonnet"));
    expect(after.output_config).toMatchObject({ effort: "high" });
    expect(before.output_config).not.toMatchObject({ effort: "high" });
    expect(e2e.updates.of(sessionId, "config_option_update").length).toBeGreaterThanOrEqual(2);
  });

  it("offers ultracode where Claude Code reports it can run: on, the next request orchestrates workflows, and an effort and a model change keep it on, as Claude Code reports", async () => {
    const e2e = await startE2E();
    const { sessionId } = await e2e.newSession();
    await e2e.prompt(sessionId, "Before.");
    const before = JSON.stringify(bodyOf(e2e.api.lastMainRequest()));
    const offered = e2e.updates
      .of(sessionId, "config_option_update")
      .at(-1)
      ?.configOptions.find((o) => o.id === "ultracode");
    // This client shows no boolean options: an Off/On select.
    expect(offered).toMatchObject({
      type: "select",
      currentValue: "off",
      category: "model_config",
    });

    const on = await setConfigOption(e2e, sessionId, "ultracode", "on");
    expect(on.find((o) => o.id === "ultracode")?.currentValue).toBe("on");
    await e2e.prompt(sessionId, "After.");
    const after = JSON.stringify(bodyOf(e2e.api.lastMainRequest()));
    expect(before).not.toContain("orchestrating");
    expect(after).toContain("orchestrating");

    // An effort change alone would turn it off in Claude Code; the model change reads its report.
    await setConfigOption(e2e, sessionId, "effort", "high");
    const later = await setConfigOption(e2e, sessionId, "model", "sonnet");
    expect(later.find((o) => o.id === "ultracode")?.currentValue).toBe("on");
    await expect(setConfigOption(e2e, sessionId, "ultracode", "sideways")).rejects.toMatchObject({
      code: -32602,
    });
  });
});
