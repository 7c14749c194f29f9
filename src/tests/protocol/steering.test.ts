// Queueing and steering (in process, fake Claude Code): the agent advertises that it queues
// prompts and takes `_session/steering`; a steer joins the running turn as one more user
// message of it, and the turn's prompt is answered once, after the steer is answered too.
import { methods, type ContentBlock } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { STEERING_METHOD, type SteeringResponse } from "../../acp/steering.js";
import { createAgent } from "../../agent.js";
import { MAX_PENDING_STEERS } from "../../session/turns/steering.js";
import { client } from "@agentclientprotocol/sdk";
import type { SDKUserMessage } from "../../claude/types.js";
import { ZED } from "../support/client-handshakes.js";
import { assistant, fakeClaude, result } from "../support/fake-claude.js";
import { fakeSession } from "../support/fake-session.js";
import { fakeTranscripts } from "../support/fake-transcripts.js";
import { isolatedEnv } from "../support/in-process.js";

const text = (t: string): ContentBlock[] => [{ type: "text", text: t }];

/** A result that names the user messages it answers, as current Claude Code does. */
const answering = (...messages: SDKUserMessage[]) =>
  result({ extra: { user_message_uuids: messages.map((m) => m.uuid) } });

async function steeringSession() {
  const session = await fakeSession();
  const steer = (prompt: unknown, meta?: unknown) =>
    session.agent.request<SteeringResponse>(STEERING_METHOD, {
      sessionId: session.sessionId,
      prompt,
      ...(meta === undefined ? {} : { _meta: meta }),
    });
  /** Sends a prompt and resolves once Claude Code has it; the answer stays pending. */
  const start = async (t: string) => {
    const sent = session.query.sent.length;
    const answer = session.agent.request(methods.agent.session.prompt, {
      sessionId: session.sessionId,
      prompt: text(t),
    });
    const message = await session.query.waitForSent(sent + 1);
    return { answer, message };
  };
  return { ...session, steer, start };
}

/** Whether `promise` has settled after the agent had time to act. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  return done;
}

const agentText = (updates: { update: { sessionUpdate: string } }[]) =>
  updates
    .map(({ update: u }) =>
      u.sessionUpdate === "agent_message_chunk" && "content" in u
        ? (u.content as { text?: string }).text
        : "",
    )
    .join("");

describe("advertised signals", () => {
  it("Zed's handshake is answered with promptQueueing under agentCapabilities._meta.claudeCode, cancelToolCall beside it, and _meta.steering.supported", async () => {
    const agentApp = createAgent({
      startQuery: fakeClaude().startQuery,
      transcripts: fakeTranscripts(),
      resolveExecutable: () => "/fake/claude",
      env: isolatedEnv(),
    });
    const connection = client({ name: "zed" }).connect(agentApp);
    try {
      const init = await connection.agent.request(methods.agent.initialize, ZED);
      expect(init.agentCapabilities?._meta).toEqual({
        claudeCode: { promptQueueing: true },
        cancelToolCall: { supported: true },
      });
      expect(init._meta).toEqual({ steering: { supported: true } });
    } finally {
      connection.close();
    }
  });
});

describe("_session/steering params", () => {
  it.each([
    ["no prompt", { sessionId: "s" }],
    ["a prompt that is not a list", { sessionId: "s", prompt: "hi" }],
    ["an empty prompt", { sessionId: "s", prompt: [] }],
    ["a block of an unknown type", { sessionId: "s", prompt: [{ type: "video", uri: "x" }] }],
    ["a text block without text", { sessionId: "s", prompt: [{ type: "text" }] }],
    [
      "an idleBehavior that is not a string",
      { sessionId: "s", prompt: text("x"), _meta: { steering: { idleBehavior: 1 } } },
    ],
    ["no sessionId", { prompt: text("x") }],
  ])("%s is invalid params (-32602)", async (_, params) => {
    const { agent, sessionId } = await steeringSession();
    const request = { ...params } as Record<string, unknown>;
    if (request.sessionId === "s") request.sessionId = sessionId;
    await expect(agent.request(STEERING_METHOD, request)).rejects.toMatchObject({ code: -32602 });
  });

  it("an unknown session is resource not found (-32002) with its id", async () => {
    const { agent } = await steeringSession();
    await expect(
      agent.request(STEERING_METHOD, { sessionId: "no-such-session", prompt: text("x") }),
    ).rejects.toMatchObject({ code: -32002, data: { sessionId: "no-such-session" } });
  });

  it("a closed session is resource not found (-32002), also with a turn that was running, and nothing reaches Claude Code", async () => {
    const { steer, start, query, agent, sessionId } = await steeringSession();
    const { answer } = await start("do the work");
    await agent.request(methods.agent.session.close, { sessionId });
    await expect(answer).resolves.toMatchObject({ stopReason: "cancelled" });
    await expect(steer(text("x"))).rejects.toMatchObject({ code: -32002, data: { sessionId } });
    expect(query.sent).toHaveLength(1);
  });

  it("content the prompt conversion refuses (audio) is invalid params, and nothing reaches Claude Code", async () => {
    const { steer, query } = await steeringSession();
    await expect(
      steer([{ type: "audio", data: "AA==", mimeType: "audio/wav" }]),
    ).rejects.toMatchObject({
      code: -32602,
    });
    expect(query.sent).toEqual([]);
  });
  it("a /model that names no model (an escape sequence, 5,000 characters) is invalid params, running or idle, and nothing reaches Claude Code", async () => {
    const { steer, start, query } = await steeringSession();
    for (const model of ["\u001b[31mred", "x".repeat(5_000)])
      await expect(steer(text(`/model ${model}`))).rejects.toMatchObject({ code: -32602 });
    expect(query.sent).toEqual([]);
    await start("do the work");
    await expect(steer(text("/model \u202eevil"))).rejects.toMatchObject({ code: -32602 });
    expect(query.sent).toHaveLength(1);
  });
});

describe("_session/steering with no turn running", () => {
  it("answers promptRequired (reason noRunningTurn) when the client asked with idleBehavior, and sends nothing", async () => {
    const { steer, query } = await steeringSession();
    expect(await steer(text("go on"), { steering: { idleBehavior: "promptRequired" } })).toEqual({
      outcome: "promptRequired",
      reason: "noRunningTurn",
    });
    expect(query.sent).toEqual([]);
  });

  it("otherwise starts a turn with the message (startedNewTurn), whose output streams as session updates", async () => {
    const { steer, query, updates } = await steeringSession();
    expect(await steer(text("start something"))).toEqual({ outcome: "startedNewTurn" });
    const message = await query.waitForSent(1);
    expect(message.message.content).toEqual([{ type: "text", text: "start something" }]);
    query.emit(assistant("m1", [{ type: "text", text: "Started." }]), answering(message));
    await expect.poll(() => agentText(updates)).toContain("Started.");
  });

  it("a prompt sent right after a started turn waits for it and gets its own answer", async () => {
    const { steer, query, start } = await steeringSession();
    await steer(text("first"));
    const first = await query.waitForSent(1);
    const second = start("second"); // resolves once Claude Code has it
    expect(await settled(second)).toBe(false);
    query.emit(answering(first));
    const { answer, message } = await second;
    query.emit(answering(message));
    expect(await answer).toMatchObject({ stopReason: "end_turn" });
  });
});

describe("_session/steering with a turn running", () => {
  it("the message joins the turn (injected) as one more user message, converted like a prompt", async () => {
    const { steer, start, query } = await steeringSession();
    await start("do the work");
    const steered = await steer([
      { type: "resource", resource: { uri: "file:///notes.md", text: "read @secret" } },
      { type: "text", text: "use the notes" },
    ]);
    expect(steered).toEqual({ outcome: "injected" });
    const message = await query.waitForSent(2);
    expect(message.message.content).toEqual([
      {
        type: "text",
        text: expect.stringContaining('<context ref="file:///notes.md">') as unknown,
      },
      { type: "text", text: "use the notes" },
    ]);
    // A steer is the person's input too.
    expect(message.origin).toEqual({ kind: "human" });
  });

  it("a steer sent right behind its prompt, before that turn has started, joins it after the prompt (injected, even with promptRequired)", async () => {
    const { steer, query, agent, sessionId } = await steeringSession();
    const answer = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: text("the prompt"),
    });
    const steered = steer(text("right behind it"), {
      steering: { idleBehavior: "promptRequired" },
    });
    expect(await steered).toEqual({ outcome: "injected" });
    const prompt = await query.waitForSent(1);
    const steerMessage = await query.waitForSent(2);
    expect(prompt.message.content).toEqual([{ type: "text", text: "the prompt" }]);
    expect(steerMessage.message.content).toEqual([{ type: "text", text: "right behind it" }]);
    query.emit(answering(prompt, steerMessage));
    expect(await answer).toMatchObject({ stopReason: "end_turn" });
  });

  it("when Claude Code folds the steer into the turn, the one result naming both answers the prompt", async () => {
    const { steer, start, query } = await steeringSession();
    const { answer, message } = await start("do the work");
    await steer(text("also this"));
    const steerMessage = await query.waitForSent(2);
    query.emit(answering(message, steerMessage));
    expect(await answer).toMatchObject({ stopReason: "end_turn" });
  });

  it("when Claude Code answers the steer in a turn of its own, the prompt settles only after that result, and its output is the turn's", async () => {
    const { steer, start, query, updates } = await steeringSession();
    const { answer, message } = await start("do the work");
    await steer(text("and then this"));
    const steerMessage = await query.waitForSent(2);
    query.emit(assistant("m1", [{ type: "text", text: "Work done. " }]), answering(message));
    expect(await settled(answer)).toBe(false);
    query.emit(assistant("m2", [{ type: "text", text: "This too." }]), answering(steerMessage));
    expect(await answer).toMatchObject({ stopReason: "end_turn" });
    expect(agentText(updates)).toBe("Work done. This too.");
  });

  it("leaves no turn behind for the queue: a prompt sent after the steered turn gets its own answer", async () => {
    const { steer, start, query } = await steeringSession();
    const { answer, message } = await start("do the work");
    await steer(text("also this"));
    const steerMessage = await query.waitForSent(2);
    query.emit(answering(message, steerMessage));
    await answer;
    const next = await start("next");
    query.emit(answering(next.message));
    expect(await next.answer).toMatchObject({ stopReason: "end_turn" });
  });

  it("a steer that comes after the turn's last result, while the agent still closes the turn, does not join it: promptRequired when asked, and Claude Code gets nothing", async () => {
    const { steer, start, query } = await steeringSession();
    let reportModel: ((model: string) => void) | undefined;
    // After a slash command the agent reads the model before it answers: the turn is closing.
    query.currentModel = () => new Promise((resolve) => (reportModel = resolve));
    const { answer, message } = await start("/compact");
    query.emit(answering(message));
    await expect.poll(() => reportModel).toBeDefined();

    expect(await steer(text("one more"), { steering: { idleBehavior: "promptRequired" } })).toEqual(
      { outcome: "promptRequired", reason: "noRunningTurn" },
    );
    reportModel!("default");
    expect(await answer).toMatchObject({ stopReason: "end_turn" });
    expect(query.sent).toHaveLength(1);
  });

  it("such a steer, without promptRequired, starts the next turn once the closing one is answered", async () => {
    const { steer, start, query } = await steeringSession();
    let reportModel: ((model: string) => void) | undefined;
    query.currentModel = () => new Promise((resolve) => (reportModel = resolve));
    const { answer, message } = await start("/compact");
    query.emit(answering(message));
    await expect.poll(() => reportModel).toBeDefined();

    expect(await steer(text("one more"))).toEqual({ outcome: "startedNewTurn" });
    reportModel!("default");
    expect(await answer).toMatchObject({ stopReason: "end_turn" });
    const next = await query.waitForSent(2);
    expect(next.message.content).toEqual(text("one more"));
  });

  it("a process that dies before it said anything gets the prompt and the steer again, and the turn still waits for both", async () => {
    const { steer, start, query, claude } = await steeringSession();
    const restarted = claude.nextStart();
    const { answer } = await start("do the work");
    await steer(text("also this"));
    await query.waitForSent(2);
    query.end();
    const second = await restarted;
    const [prompt, steerMessage] = [await second.waitForSent(1), await second.waitForSent(2)];
    expect(steerMessage.message.content).toEqual(text("also this"));
    second.emit(answering(prompt));
    expect(await settled(answer)).toBe(false);
    second.emit(answering(steerMessage));
    expect(await answer).toMatchObject({ stopReason: "end_turn" });
  });

  it("a steer sent while plan approval is open follows a clear-context handoff into the new conversation, after the plan", async () => {
    const session = await fakeSession({
      onPermission: () => ({
        outcome: { outcome: "selected", optionId: "exit-plan-clear-accept-edits" },
      }),
    });
    const { agent, sessionId, query, claude } = session;
    await agent.request(methods.agent.session.setMode, { sessionId, modeId: "plan" });
    const answer = agent.request(methods.agent.session.prompt, { sessionId, prompt: text("plan") });
    const first = await query.waitForSent(1);
    query.emit(
      assistant("m1", [
        { type: "tool_use", id: "x", name: "ExitPlanMode", input: { plan: "1. Do" } },
      ]),
    );
    const steered = await agent.request<SteeringResponse>(STEERING_METHOD, {
      sessionId,
      prompt: text("keep it short"),
    });
    expect(steered).toEqual({ outcome: "injected" });
    const next = claude.nextStart();
    await query.canUseTool("ExitPlanMode", { plan: "1. Do" }, { toolUseID: "x" });
    query.emit(
      result({ subtype: "error_during_execution", extra: { user_message_uuids: [first.uuid] } }),
    );
    const fresh = await next;
    const [plan, steerMessage] = [await fresh.waitForSent(1), await fresh.waitForSent(2)];
    expect(JSON.stringify(plan.message.content)).toContain("1. Do");
    expect(steerMessage.message.content).toEqual(text("keep it short"));
    fresh.emit(answering(plan, steerMessage));
    expect(await answer).toMatchObject({ stopReason: "end_turn" });
  });

  it(`a turn holds at most MAX_PENDING_STEERS (${MAX_PENDING_STEERS}) unanswered steers: the next is invalid params and reaches no one; once named, room is made`, async () => {
    const { steer, start, query } = await steeringSession();
    const { answer, message } = await start("do the work");
    for (let i = 0; i < MAX_PENDING_STEERS; i++)
      expect(await steer(text(`steer ${i}`))).toEqual({ outcome: "injected" });
    await query.waitForSent(1 + MAX_PENDING_STEERS);

    await expect(steer(text("one too many"))).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining(`${MAX_PENDING_STEERS} steering messages`) as unknown,
      data: { pendingSteers: MAX_PENDING_STEERS, maxPendingSteers: MAX_PENDING_STEERS },
    });
    expect(query.sent).toHaveLength(1 + MAX_PENDING_STEERS);

    // Claude Code names the first steer: one more fits.
    query.emit(result({ extra: { user_message_uuids: [message.uuid, query.sent[1]!.uuid] } }));
    expect(await steer(text("now it fits"))).toEqual({ outcome: "injected" });
    query.emit(answering(...query.sent.slice(2)));
    expect(await answer).toMatchObject({ stopReason: "end_turn" });
  });

  it("a turn whose result is an error does not wait for its steer", async () => {
    const { steer, start, query } = await steeringSession();
    const { answer, message } = await start("do the work");
    await steer(text("also this"));
    await query.waitForSent(2);
    query.emit(
      result({ isError: true, text: "API Error", extra: { user_message_uuids: [message.uuid] } }),
    );
    await expect(answer).rejects.toMatchObject({
      message: expect.stringContaining("API Error") as unknown,
    });
  });

  it("a cancelled turn does not wait for its steer", async () => {
    const { steer, start, query, agent, sessionId } = await steeringSession();
    const { answer } = await start("do the work");
    await steer(text("also this"));
    await agent.notify(methods.agent.session.cancel, { sessionId });
    expect((await answer).stopReason).toBe("cancelled");
    expect(query.interrupts).toBe(1);
  });

  it("a steer after session/cancel, while Claude Code is still stopping, does not join the cancelled turn (promptRequired when asked)", async () => {
    const { steer, start, query, agent, sessionId } = await steeringSession();
    const { answer, message } = await start("do the work");
    query.onInterrupt = () => undefined; // Claude Code takes its time to stop
    await agent.notify(methods.agent.session.cancel, { sessionId });
    await expect.poll(() => query.interrupts).toBe(1);

    expect(await steer(text("instead"), { steering: { idleBehavior: "promptRequired" } })).toEqual({
      outcome: "promptRequired",
      reason: "noRunningTurn",
    });
    query.emit(
      result({ subtype: "error_during_execution", extra: { user_message_uuids: [message.uuid] } }),
    );
    expect(await answer).toMatchObject({ stopReason: "cancelled" });
    expect(query.sent).toHaveLength(1);
  });

  it("a steer while a permission request is open leaves the request open, and its answer still counts", async () => {
    let allow: () => void = () => undefined;
    const session = await fakeSession({
      onPermission: (request) =>
        new Promise((resolve) => {
          allow = () =>
            resolve({ outcome: { outcome: "selected", optionId: request.options[0]!.optionId } });
        }),
    });
    const sent = session.agent.request(methods.agent.session.prompt, {
      sessionId: session.sessionId,
      prompt: text("write"),
    });
    await session.query.waitForSent(1);
    session.query.emit(
      assistant("m", [
        { type: "tool_use", id: "t1", name: "Write", input: { file_path: "/tmp/x", content: "x" } },
      ]),
    );
    const decision = session.query.canUseTool(
      "Write",
      { file_path: "/tmp/x", content: "x" },
      { toolUseID: "t1" },
    );
    await expect.poll(() => session.permissionRequests.length).toBe(1);
    expect(
      await session.agent.request<SteeringResponse>(STEERING_METHOD, {
        sessionId: session.sessionId,
        prompt: text("careful"),
      }),
    ).toEqual({ outcome: "injected" });
    expect(await settled(decision)).toBe(false);
    allow();
    expect(await decision).toMatchObject({ behavior: "allow" });
    session.query.emit(answering(session.query.sent[0]!, session.query.sent[1]!));
    expect(await sent).toMatchObject({ stopReason: "end_turn" });
  });
});
