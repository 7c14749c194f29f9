// Claude Code goes on between prompts: a background subagent's result, a task notification
// or a wake-up start a turn of its own. What it says then reaches the client as ordinary
// session updates, its result never answers a user's prompt, and a prompt sent meanwhile
// waits for that turn and gets its own reply.
import { methods, type SessionNotification } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { ownTurnResult, result, streamedText } from "../../support/fake-claude.js";
import { fakeSession } from "../../support/fake-session.js";

const setup = () => fakeSession();

const text = (t: string) => [{ type: "text" as const, text: t }];
const tick = (ms = 20) => new Promise((resolve) => setTimeout(resolve, ms));
/** The result that answers the user message with this id. */
const answer = (uuid: string | undefined) =>
  result({ extra: { user_message_uuid: uuid, user_message_uuids: [uuid] } });

function agentText(updates: SessionNotification[]): string {
  return updates
    .map((n) => n.update)
    .filter((u) => u.sessionUpdate === "agent_message_chunk")
    .map((u) => (u.content.type === "text" ? u.content.text : ""))
    .join("");
}

describe("a turn Claude Code starts itself", () => {
  it("streams its messages to the client after the prompt's response", async () => {
    const { agent, query, sessionId, updates } = await setup();
    const prompt = agent.request(methods.agent.session.prompt, { sessionId, prompt: text("go") });
    const sent = await query.waitForSent(1);
    query.emit(...streamedText("m1", "Launched."), answer(sent.uuid));
    expect(await prompt).toMatchObject({ stopReason: "end_turn" });

    query.emit(...streamedText("m2", "The subagent found 42."), ownTurnResult());
    await tick();

    expect(agentText(updates)).toBe("Launched.The subagent found 42.");
  });

  it("reaches a v1 client as its updates only: v1 has no state of a turn, so none is sent", async () => {
    const { query, updates } = await setup();
    const before = updates.length;
    query.emit(...streamedText("own", "On my own."), ownTurnResult());
    await tick();
    const kinds = new Set(updates.slice(before).map((n) => n.update.sessionUpdate as string));
    expect([...kinds]).toEqual(["agent_message_chunk"]);
  });

  it("never settles a user's prompt: only the result that names the prompt's message does", async () => {
    const { agent, query, sessionId } = await setup();
    let settled = false;
    const prompt = agent.request(methods.agent.session.prompt, { sessionId, prompt: text("go") });
    void prompt.then(() => (settled = true));
    const sent = await query.waitForSent(1);

    query.emit(ownTurnResult());
    query.emit(result({ extra: { user_message_uuid: "someone-else", user_message_uuids: ["x"] } }));
    await tick();
    expect(settled).toBe(false);

    query.emit(answer(sent.uuid));
    expect(await prompt).toMatchObject({ stopReason: "end_turn" });
  });

  it("runs to its end before a prompt sent meanwhile, which then gets its own turn and reply", async () => {
    const { agent, query, sessionId, updates } = await setup();
    query.emit(...streamedText("own", "Background result."));
    await tick();

    const prompt = agent.request(methods.agent.session.prompt, { sessionId, prompt: text("next") });
    await tick();
    expect(query.sent).toHaveLength(0);

    query.emit(ownTurnResult());
    const sent = await query.waitForSent(1);
    query.emit(...streamedText("mine", "Your answer."), answer(sent.uuid));

    expect(await prompt).toMatchObject({ stopReason: "end_turn" });
    expect(agentText(updates)).toBe("Background result.Your answer.");
  });

  it("is not interrupted by session/cancel, which cancels the user's prompt waiting behind it", async () => {
    const { agent, query, sessionId } = await setup();
    query.emit(...streamedText("own", "Working on my own."));
    await tick();
    const prompt = agent.request(methods.agent.session.prompt, { sessionId, prompt: text("next") });
    await tick();

    await agent.notify(methods.agent.session.cancel, { sessionId });

    expect(await prompt).toMatchObject({ stopReason: "cancelled" });
    expect(query.interrupts).toBe(0);
    expect(query.sent).toHaveLength(0);
  });

  it("is heard no more after session/close", async () => {
    const { agent, query, sessionId, updates } = await setup();
    query.emit(...streamedText("own", "Before the close."));
    await tick();
    const before = updates.length;

    await agent.request(methods.agent.session.close, { sessionId });
    query.emit(...streamedText("own2", "After the close."), ownTurnResult());
    await tick();

    expect(updates.length).toBe(before);
    expect(agentText(updates)).toBe("Before the close.");
  });
});
