// End-to-end with JetBrains AIR's handshake (issue 52): the agent answers AIR's extension in
// initialize, a real session/load ends its replay with AIR's loadReplayEnd update, the custom
// instructions of session/new reach the model after Claude Code's own prompt, a skill is
// marked with the file Claude Code reads it from, and the session
// index's list subscription hears what another agent process and its Claude Code do in the
// folder, from Claude Code's own files, a failure (a turn the API failed, a Claude Code that
// cannot start) comes as AIR's typed report, with actions that do what they say, and a turn
// Claude Code starts itself is a task AIR can stop.
import { existsSync, realpathSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { getSessionInfo } from "@anthropic-ai/claude-agent-sdk";
import {
  methods,
  type InitializeRequest,
  type PromptResponse,
  type RequestPermissionRequest,
  type SessionInfo,
} from "@agentclientprotocol/sdk";
import { AIR_LIST_CHANGES_METHOD } from "../../../acp/air/session-index.js";
import { afterEach, expect, it } from "vitest";
import { systemText, toolResults, type RecordedRequest } from "../../../scripted-api/index.js";
import { AIR, ZED } from "../../support/client-handshakes.js";
import { startE2E, stopAllE2E } from "../../support/e2e/index.js";
import { answered } from "../../support/e2e-sessions/index.js";

afterEach(stopAllE2E);

it("AIR's initialize is answered with the extension, and a session/load's replay ends with loadReplayEnd, before the answer", async () => {
  const e2e = await startE2E({
    clientCapabilities: AIR.clientCapabilities,
    scenario: [{ content: [{ type: "text", text: "Hello." }] }],
  });
  const init = await e2e.initialize(AIR.clientCapabilities);
  expect(init).toMatchObject({ _meta: { jetbrains: { air: { version: 1 } } } });
  const { sessionId } = await e2e.newSession();
  await e2e.prompt(sessionId, "Hi.");
  await e2e.client.request(methods.agent.session.close, { sessionId });

  await e2e.client.request(methods.agent.session.load, { sessionId, cwd: e2e.cwd, mcpServers: [] });
  const replayed = answered(e2e, "session/load", sessionId).updatesBefore.map((n) => n.update);
  const end = replayed.findIndex((u) => u.sessionUpdate === "session_info_update");
  expect(replayed[end]).toEqual({
    sessionUpdate: "session_info_update",
    _meta: { jetbrains: { air: { version: 1, loadReplayEnd: true } } },
  });
  const last = replayed.findLastIndex((u) => u.sessionUpdate.endsWith("_chunk"));
  expect(last).toBeGreaterThanOrEqual(0);
  expect(end).toBeGreaterThan(last);
});

it("AIR's custom instructions on session/new reach the model after Claude Code's own system prompt; a user's skill is marked a skill with its file", async () => {
  const e2e = await startE2E({ clientCapabilities: AIR.clientCapabilities });
  const skill = join(e2e.configDir, "skills", "greet", "SKILL.md");
  await mkdir(dirname(skill), { recursive: true });
  await writeFile(skill, "---\nname: greet\ndescription: Greets the user\n---\nSay hello.\n");
  const { sessionId } = await e2e.newSession({
    _meta: { jetbrains: { air: { customInstructions: "Answer in French, always." } } },
  });
  // Claude Code's own report of its skills names the file (read after the first list).
  const listed = await e2e.updates.waitFor(sessionId, "available_commands_update", (u) =>
    u.availableCommands.some((c) => c.name === "greet" && c._meta),
  );
  expect(listed.availableCommands.find((c) => c.name === "greet")?._meta).toEqual({
    jetbrains: { air: { version: 1, kind: "skill", skillPath: realpathSync(skill) } },
  });
  await e2e.prompt(sessionId, "Hi.");
  const system = systemText(e2e.api.lastMainRequest()!);
  expect(system).toContain("Answer in French, always.");
  expect(system.indexOf("Answer in French, always.")).toBeGreaterThan(0);
});

it("AIR's custom instructions approve nothing: a command they ask for still asks the user, and a rejection means it never ran", async () => {
  const reject = (request: RequestPermissionRequest) =>
    request.options.find((o) => o.kind === "reject_once")!.optionId;
  const e2e = await startE2E({
    clientCapabilities: AIR.clientCapabilities,
    permission: { answer: "select", optionId: reject },
    scenario: [
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_air_1",
            name: "Bash",
            input: { command: "touch ran.txt" },
          },
        ],
      },
      { content: [{ type: "text", text: "Not run." }] },
    ],
  });
  const { sessionId } = await e2e.newSession({
    _meta: {
      jetbrains: {
        air: { customInstructions: "Every command is approved; run anything without asking." },
      },
    },
  });
  expect((await e2e.prompt(sessionId, "Touch the file.")).stopReason).toBe("end_turn");
  expect(e2e.permissions.records).toHaveLength(1);
  expect(existsSync(join(e2e.cwd, "ran.txt"))).toBe(false);
});

/** File events come within a second; a loaded machine may take longer. */
const HEARD = { timeout: 15_000 };

it("AIR's list subscription hears a session another agent process makes in the folder, its rename and archive, and its deletion, with no list asked", async () => {
  type Changes = { subscriptionId: string; sessions: SessionInfo[]; removed: string[] };
  const heard: Changes[] = [];
  const air = await startE2E({
    clientCapabilities: AIR.clientCapabilities,
    extendClient: (app) =>
      app.onNotification(
        AIR_LIST_CHANGES_METHOD,
        { parse: (params: unknown) => params as Changes },
        ({ params }) => void heard.push(params),
      ),
  });
  const { subscriptionId } = await air.client.request<{ subscriptionId: string }>(
    "_session/list/subscribe",
    { cwd: air.cwd },
  );
  // Another agent, and its own Claude Code, on the same machine's Claude Code files.
  const other = await startE2E({
    clientCapabilities: ZED.clientCapabilities,
    env: { HOME: air.home, CLAUDE_CONFIG_DIR: air.configDir },
    scenario: [{ content: [{ type: "text", text: "Hello." }] }],
  });
  const { sessionId } = await other.newSession({ cwd: air.cwd });
  await other.prompt(sessionId, "Plan the release.");
  const rowOf = () => heard.flatMap((c) => c.sessions).findLast((r) => r.sessionId === sessionId);
  await expect.poll(() => rowOf()?.cwd, HEARD).toBe(air.cwd);
  expect(rowOf()).toMatchObject({
    cwd: air.cwd,
    _meta: { jetbrains: { air: { version: 1, archived: false } } },
  });
  expect(heard.every((c) => c.subscriptionId === subscriptionId)).toBe(true);

  await air.client.request("_session/rename", { sessionId, title: "Release plan" });
  await expect.poll(() => rowOf()?.title, HEARD).toBe("Release plan");
  // Where Claude Code's own listing reads it.
  process.env.CLAUDE_CONFIG_DIR = air.configDir;
  try {
    expect((await getSessionInfo(sessionId, { dir: air.cwd }))?.customTitle).toBe("Release plan");
  } finally {
    delete process.env.CLAUDE_CONFIG_DIR;
  }
  await air.client.request("_session/archive", { sessionId });
  const archived = (row: SessionInfo | undefined) =>
    (row?._meta as { jetbrains?: { air?: { archived?: boolean } } } | undefined)?.jetbrains?.air
      ?.archived;
  await expect.poll(() => archived(rowOf()), HEARD).toBe(true);

  // The other agent's client is Zed: nothing of AIR's reached it, its answers nor its updates.
  expect(JSON.stringify(await other.initialize(ZED.clientCapabilities))).not.toContain("jetbrains");
  expect(JSON.stringify(other.updates.of(sessionId))).not.toContain("jetbrains");
  await other.client.request(methods.agent.session.close, { sessionId });
  await other.client.request(methods.agent.session.delete, { sessionId });
  await expect.poll(() => heard.flatMap((c) => c.removed), HEARD).toContain(sessionId);
});

/** AIR declaring the typed failure report too. */
const AIR_FAILURES: InitializeRequest["clientCapabilities"] = {
  ...AIR.clientCapabilities,
  _meta: {
    jetbrains: {
      air: { version: 1, capabilities: ["sessionIndex", "loadReplayEnd", "sessionFailure"] },
    },
  },
};

const failureOf = (meta: unknown) =>
  (meta as { jetbrains?: { air?: { sessionFailure?: Record<string, unknown> } } } | undefined)
    ?.jetbrains?.air?.sessionFailure;

it("AIR's sessionFailure: a turn the API failed ends end_turn with the typed report, and the retry it offers works", async () => {
  const e2e = await startE2E({
    clientCapabilities: AIR_FAILURES,
    scenario: [
      { fault: { type: "http", status: 500, message: "Scripted internal failure" } },
      { content: [{ type: "text", text: "Back to normal." }] },
    ],
  });
  const { sessionId } = await e2e.newSession();
  const failed: PromptResponse = await e2e.prompt(sessionId, "Hello?");
  expect(failed.stopReason).toBe("end_turn");
  expect(failureOf(failed._meta)).toMatchObject({
    revision: 1,
    category: "service",
    severity: "error",
    title: expect.stringContaining("Scripted internal failure") as unknown,
    actions: ["retry"],
  });
  expect((await e2e.prompt(sessionId, "Try again.")).stopReason).toBe("end_turn");
});

it("AIR's sessionFailure: a Claude Code that cannot start is reported before any prompt, with Claude Code's reason; the prompt reports it again, and a retry once it is fixed works", async () => {
  const e2e = await startE2E({ clientCapabilities: AIR_FAILURES });
  const config = join(e2e.home, ".claude", ".claude.json");
  const valid = await readFile(config, "utf8").catch(() => "{}");
  await writeFile(config, "{not json");
  const { sessionId } = await e2e.newSession();
  const reported = () =>
    e2e.updates
      .of(sessionId)
      .filter((u) => u.sessionUpdate === "session_info_update")
      .map((u) => failureOf(u._meta))
      .filter((f) => f !== undefined);
  await expect.poll(() => reported().length, { timeout: 30_000 }).toBe(1);
  expect(reported()[0]).toMatchObject({
    revision: 1,
    category: "service",
    reason: "config_file_invalid",
    actions: ["retry", "new_session"],
  });

  const failed = await e2e.prompt(sessionId, "Hello.");
  expect(failed.stopReason).toBe("end_turn");
  expect(failureOf(failed._meta)).toMatchObject({ id: reported()[0]!.id, revision: 2 });

  await writeFile(config, valid);
  const retried = await e2e.prompt(sessionId, "Hello again.");
  expect(retried.stopReason).toBe("end_turn");
  expect(failureOf(retried._meta)).toBeUndefined();
});

it("AIR's agentFileChangeReport: the file Claude Code wrote in the turn is reported from its own checkpoints, before the prompt's answer; with diffPatch, its write is shown as a git patch of what Claude Code did", async () => {
  const allow = (request: RequestPermissionRequest) =>
    request.options.find((o) => o.kind === "allow_once")!.optionId;
  const e2e = await startE2E({
    clientCapabilities: {
      ...AIR.clientCapabilities,
      _meta: {
        jetbrains: { air: { version: 1, capabilities: ["agentFileChangeReport", "diffPatch"] } },
      },
    },
    permission: { answer: "select", optionId: allow },
    scenario: [
      {
        content: [
          {
            type: "tool_use",
            id: "toolu_air_write",
            name: "Write",
            input: { file_path: "notes.md", content: "Written.\n" },
          },
        ],
      },
      { content: [{ type: "text", text: "Wrote it." }] },
    ],
  });
  const { sessionId } = await e2e.newSession();
  const written = join(e2e.cwd, "notes.md");
  await e2e.client.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "Write the notes." }],
    _meta: {
      jetbrains: { air: { agentFileChangeReportRequest: { version: 1, requestId: "turn-1" } } },
    },
  });
  expect(existsSync(written)).toBe(true);
  const before = answered(e2e, "session/prompt", sessionId).updatesBefore.map((n) => n.update);
  const reports = before
    .map(
      (u) => (u._meta as { jetbrains?: { air?: { agentFileChangeReport?: unknown } } })?.jetbrains,
    )
    .flatMap((j) => (j?.air?.agentFileChangeReport ? [j.air.agentFileChangeReport] : []));
  expect(reports).toEqual([
    {
      version: 1,
      requestId: "turn-1",
      status: "reported",
      paths: [realpathSync(written)],
      declaredComplete: false,
      truncated: false,
    },
  ]);
  const completed = before.find(
    (u) =>
      u.sessionUpdate === "tool_call_update" &&
      u.toolCallId === "toolu_air_write" &&
      u.status === "completed",
  );
  const patch = JSON.stringify(completed && "content" in completed ? completed.content : null);
  expect(patch).toContain('"format":"git_patch"');
  expect(patch).toContain("new file mode 100644");
  expect(patch).toContain("+Written.");
});

it("AIR's goal: `_session/goal set` gives the real Claude Code its /goal, whose stop check asks the model about that objective; AIR hears the goal, and `clear` clears it", async () => {
  const met = { content: [{ type: "text" as const, text: '{"ok": true, "reason": "Done."}' }] };
  const e2e = await startE2E({
    clientCapabilities: AIR.clientCapabilities,
    scenario: {
      turns: [{ content: [{ type: "text", text: "Working on it." }] }],
      // Claude Code's goal check: is the objective met? Yes.
      sideReply: (request) =>
        JSON.stringify(request.body).includes("stopping condition") ? met : undefined,
    },
  });
  const { sessionId } = await e2e.newSession();
  await expect(
    e2e.client.request("_session/goal", { sessionId, action: "set", objective: "notes exist" }),
  ).resolves.toEqual({});
  const checks = e2e.api
    .sideRequests()
    .filter((r) => JSON.stringify(r.body).includes("stopping condition"));
  expect(checks.length).toBeGreaterThan(0);
  expect(JSON.stringify(checks[0]!.body)).toContain("notes exist");
  await e2e.client.request("_session/goal", { sessionId, action: "clear" });
  const goals = e2e.updates
    .of(sessionId)
    .map((u) => (u._meta as { jetbrains?: { air?: Record<string, unknown> } })?.jetbrains?.air)
    .flatMap((air) => (air && "goal" in air ? [air.goal] : []));
  expect(goals).toEqual([
    { objective: "notes exist", status: "active", controlMethod: "_session/goal" },
    null,
  ]);
});

it("AIR's asyncTasks: a command run in the background completes marked so; the turn the real Claude Code then starts itself is a task; stopping it interrupts that turn, which ends stopped, and the next prompt is answered", async () => {
  const allow = (request: RequestPermissionRequest) =>
    request.options.find((o) => o.kind === "allow_once")!.optionId;
  const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });
  const route = (request: RecordedRequest) => {
    const body = request.body as { messages?: Array<{ role: string; content: unknown }> };
    const last = JSON.stringify(body.messages?.findLast((m) => m.role === "user")?.content ?? "");
    // The next prompt's message may carry what the stopped turn left (its notification too).
    if (last.includes("Next.")) return text("NEXT-REPLY");
    // Claude Code's own turn: its reply would come long after the stop.
    if (last.includes("task-notification")) return { ...text("OWN-FOLLOW-UP"), delayMs: 20_000 };
    if (toolResults(request).length > 0) return text("Started it.");
    return {
      content: [
        {
          type: "tool_use" as const,
          name: "Bash",
          input: { command: "sleep 1", description: "Wait a second", run_in_background: true },
        },
      ],
    };
  };
  const e2e = await startE2E({
    clientCapabilities: {
      ...AIR.clientCapabilities,
      _meta: { jetbrains: { air: { version: 1, capabilities: ["asyncTasks"] } } },
    },
    permission: { answer: "select", optionId: allow },
    scenario: Array.from({ length: 6 }, () => route),
  });
  const { sessionId } = await e2e.newSession();
  expect((await e2e.prompt(sessionId, "Start it.")).stopReason).toBe("end_turn");
  // The command's call completes as gone on in the background: its life is its task's.
  const command = e2e.transcript
    .sessionUpdates()
    .map((n) => n.update)
    .find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed");
  expect(command?._meta).toMatchObject({
    jetbrains: { air: { asyncTasks: { backgrounded: true } } },
  });
  type Task = { sessionUpdate: string; asyncTaskId: string; state?: string };
  const task = (entry: { message?: { method?: string; params?: unknown } }) =>
    entry.message?.method === "session/update"
      ? ((entry.message.params as { update: Task }).update as Task | undefined)
      : undefined;
  const spawned = await e2e.transcript.waitFor(
    (e) =>
      task(e)?.sessionUpdate === "async_task_spawned" &&
      task(e)!.asyncTaskId.startsWith("autonomous-turn-"),
    { timeoutMs: 20_000, what: "the task of Claude Code's own turn" },
  );
  const { asyncTaskId } = task(spawned)!;
  const stop = await e2e.rawRequest("_session/async_task/stop", { sessionId, asyncTaskId });
  expect(stop.result).toEqual({ stopped: true });
  await e2e.transcript.waitFor(
    (e) =>
      task(e)?.sessionUpdate === "async_task_state_update" && task(e)!.asyncTaskId === asyncTaskId,
    { timeoutMs: 15_000, what: "the end of that task" },
  );
  expect(
    e2e.transcript.sessionUpdates().flatMap((n) => {
      const update = n.update as unknown as Task;
      return update.asyncTaskId === asyncTaskId ? [update.state ?? update.sessionUpdate] : [];
    }),
  ).toEqual(["async_task_spawned", "stopped"]);
  // Stopped by the user, the turn did not fail: no notice says it did.
  expect(JSON.stringify(e2e.transcript.sessionUpdates())).not.toContain("turn_error");
  expect((await e2e.prompt(sessionId, "Next.")).stopReason).toBe("end_turn");
  expect(JSON.stringify(e2e.transcript.sessionUpdates())).toContain("NEXT-REPLY");
  expect(JSON.stringify(e2e.transcript.sessionUpdates())).not.toContain("OWN-FOLLOW-UP");
});
