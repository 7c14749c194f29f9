// The ACP v2 draft in process: `_session/steering` with v1's rules. A steer joins the running
// turn (its idle comes once, after the steer is answered too), leaves an open permission
// request open, and with no turn running is promptRequired when asked, else starts a turn
// the client hears as a prompt's (user message, running, idle), in order with the others.
import * as v2 from "@agentclientprotocol/sdk/experimental/v2/unstable";
import { describe, expect, it } from "vitest";
import { STEERING_METHOD, type SteeringResponse } from "../../acp/steering.js";
import type { SDKUserMessage } from "../../claude/types.js";
import {
  ownTurnResult,
  result,
  streamedText,
  toolResult,
  toolUse,
} from "../support/fake-claude.js";
import { foregroundWords, v2Session, type V2Options, rpcError } from "../support/in-process-v2.js";
import { settle } from "../support/settle.js";

const text = (t: string): v2.ContentBlock[] => [{ type: "text", text: t }];

const PROMPT_REQUIRED = { steering: { idleBehavior: "promptRequired" } };

/** A result that names the user messages it answers, as current Claude Code does. */
const answering = (...messages: SDKUserMessage[]) =>
  result({ extra: { user_message_uuids: messages.map((m) => m.uuid) } });

async function steeringSession(options: V2Options = {}) {
  const session = await v2Session(options);
  const steer = (prompt: unknown, meta?: unknown, sessionId: string = session.sessionId) =>
    session.agent.request<SteeringResponse>(STEERING_METHOD, {
      sessionId,
      prompt,
      ...(meta === undefined ? {} : { _meta: meta }),
    });
  return { ...session, steer };
}

describe("steering advertised on v2", () => {
  it("the initialize answer carries _meta.steering.supported at its top level, as on v1", async () => {
    const { initialized } = await v2Session();
    expect(initialized._meta).toEqual({ steering: { supported: true } });
  });
});

describe("_session/steering params on v2", () => {
  it("an empty prompt is invalid params (-32602) and nothing reaches Claude Code", async () => {
    const { steer, query } = await steeringSession();
    expect(rpcError(await steer([]).catch((e: unknown) => e)).code).toBe(-32602);
    expect(query.sent).toEqual([]);
  });

  it("an unknown session is resource not found (-32002)", async () => {
    const { steer } = await steeringSession();
    expect(rpcError(await steer(text("hi"), undefined, "nope").catch((e: unknown) => e)).code).toBe(
      -32002,
    );
  });
});

describe("_session/steering on v2 with a turn running", () => {
  it("the message joins the turn (injected): one user message and running for the turn, and its idle comes once, after the result naming both", async () => {
    const { prompt, steer, query, sessionId, updates, idle } = await steeringSession();
    await Promise.all([prompt("do the work"), query.waitForSent(1)]);
    expect(await steer(text("also this"))).toEqual({ outcome: "injected" });
    const steerMessage = await query.waitForSent(2);
    expect(steerMessage.message.content).toEqual([{ type: "text", text: "also this" }]);

    query.emit(...streamedText("m1", "Work done. "), answering(query.sent[0]!));
    await settle();
    expect(foregroundWords(updates(sessionId))).not.toContain("idle end_turn");
    query.emit(...streamedText("m2", "This too."), answering(steerMessage));
    await idle(sessionId);
    expect(foregroundWords(updates(sessionId))).toEqual([
      "user_message",
      "running",
      "text m1",
      "text m2",
      "idle end_turn",
    ]);
  });

  it("a steer while a permission request is open leaves it open: the turn still requires action, and the request's answer counts", async () => {
    let allow: () => void = () => undefined;
    const { prompt, steer, query, sessionId, states, idle } = await steeringSession({
      onPermission: () =>
        new Promise((resolve) => {
          allow = () => resolve({ outcome: { outcome: "selected", optionId: "allow-once" } });
        }),
    });
    await Promise.all([prompt("test"), query.waitForSent(1)]);
    query.emit(toolUse("toolu_1", "Bash", { command: "npm test" }));
    await settle();
    const decision = query.canUseTool("Bash", { command: "npm test" }, { toolUseID: "toolu_1" });
    await expect.poll(() => states(sessionId).at(-1)?.state).toBe("requires_action");

    expect(await steer(text("careful"))).toEqual({ outcome: "injected" });
    await settle();
    expect(states(sessionId).at(-1)?.state).toBe("requires_action");
    allow();
    expect(await decision).toMatchObject({ behavior: "allow" });
    query.emit(toolResult("toolu_1", "ok"), answering(query.sent[0]!, query.sent[1]!));
    await idle(sessionId);
    expect(states(sessionId).map((s) => s.state)).toEqual([
      "running",
      "requires_action",
      "running",
      "idle",
    ]);
  });
});

describe("_session/steering on v2 with no turn running", () => {
  it("answers promptRequired (reason noRunningTurn) when the client asked with idleBehavior, and sends and reports nothing", async () => {
    const { steer, query, sessionId, updates } = await steeringSession();
    const before = foregroundWords(updates(sessionId));
    expect(await steer(text("go on"), PROMPT_REQUIRED)).toEqual({
      outcome: "promptRequired",
      reason: "noRunningTurn",
    });
    await settle();
    expect(query.sent).toEqual([]);
    expect(foregroundWords(updates(sessionId))).toEqual(before);
  });

  it("otherwise starts a turn (startedNewTurn) reported as a prompt's: its user message with the steer's content, running, then idle with the stop reason", async () => {
    const { steer, query, sessionId, updates, idle } = await steeringSession();
    expect(await steer(text("start something"))).toEqual({ outcome: "startedNewTurn" });
    const message = await query.waitForSent(1);
    expect(message.message.content).toEqual([{ type: "text", text: "start something" }]);
    query.emit(...streamedText("m1", "Started."), answering(message));
    await idle(sessionId);
    expect(foregroundWords(updates(sessionId))).toEqual([
      "user_message",
      "running",
      "text m1",
      "idle end_turn",
    ]);
    expect(updates(sessionId)).toContainEqual({
      sessionUpdate: "user_message",
      messageId: message.uuid,
      content: text("start something"),
    });
  });

  it("a steer while a turn of Claude Code's own runs starts the next turn, reported after that turn's idle", async () => {
    const { steer, query, sessionId, updates, idle } = await steeringSession();
    query.emit(...streamedText("own", "Working on my own."));
    await settle();
    expect(await steer(text("next"))).toEqual({ outcome: "startedNewTurn" });
    query.emit(ownTurnResult());
    const message = await query.waitForSent(1);
    query.emit(...streamedText("mine", "Your answer."), answering(message));
    await idle(sessionId, 2);
    expect(foregroundWords(updates(sessionId))).toEqual([
      "running",
      "text own",
      "idle end_turn",
      "user_message",
      "running",
      "text mine",
      "idle end_turn",
    ]);
  });

  it("a prompt sent right after a steered turn is inserted after that turn's idle", async () => {
    const { prompt, steer, query, sessionId, updates, idle } = await steeringSession();
    await steer(text("first"));
    const first = await query.waitForSent(1);
    let answered = false;
    const second = prompt("second").then(() => (answered = true));
    await settle();
    expect(answered).toBe(false);
    query.emit(...streamedText("m1", "One."), answering(first));
    await second;
    const next = await query.waitForSent(2);
    query.emit(...streamedText("m2", "Two."), answering(next));
    await idle(sessionId, 2);
    expect(foregroundWords(updates(sessionId))).toEqual([
      "user_message",
      "running",
      "text m1",
      "idle end_turn",
      "user_message",
      "running",
      "text m2",
      "idle end_turn",
    ]);
  });

  it("a steered turn that fails ends idle with stopReason error and the error", async () => {
    const { steer, query, sessionId, states, idle } = await steeringSession();
    await steer(text("try"));
    await query.waitForSent(1);
    query.emit(result({ isError: true, text: "Overloaded" }));
    await idle(sessionId);
    expect(states(sessionId).at(-1)).toMatchObject({
      state: "idle",
      stopReason: "error",
      error: { code: -32603 },
    });
  });

  it("a steered turn cancelled by session/cancel ends idle cancelled", async () => {
    const { agent, steer, query, sessionId, states, idle } = await steeringSession();
    await steer(text("long job"));
    await query.waitForSent(1);
    await agent.notify(v2.methods.agent.session.cancel, { sessionId });
    await idle(sessionId);
    expect(states(sessionId).at(-1)).toMatchObject({ state: "idle", stopReason: "cancelled" });
  });
});
