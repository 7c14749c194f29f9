// A cancel reaches only the turns it names: session/cancel the ones that existed when it
// arrived, a request's own cancellation ($/cancel_request) only that request's turn.
import { methods } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { result } from "../../support/fake-claude.js";
import { fakeSession } from "../../support/fake-session.js";

const setup = () => fakeSession();

const text = (t: string) => [{ type: "text" as const, text: t }];

describe("a prompt's own cancellation ($/cancel_request)", () => {
  it("cancels that queued prompt only: the running prompt goes on to end_turn", async () => {
    const { agent, query, sessionId } = await setup();
    const running = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: text("first"),
    });
    await query.waitForSent(1);
    const abort = new AbortController();
    const queued = agent.request(
      methods.agent.session.prompt,
      { sessionId, prompt: text("second") },
      { cancellationSignal: abort.signal },
    );
    await new Promise((resolve) => setTimeout(resolve, 20));

    abort.abort();
    await new Promise((resolve) => setTimeout(resolve, 20));
    query.emit(result());

    expect(await running).toMatchObject({ stopReason: "end_turn" });
    expect(await queued).toMatchObject({ stopReason: "cancelled" });
    expect(query.interrupts).toBe(0);
    expect(query.sent).toHaveLength(1);
  });

  it("of the running prompt interrupts it, and the prompt queued behind it still runs", async () => {
    const { agent, query, sessionId } = await setup();
    const abort = new AbortController();
    const running = agent.request(
      methods.agent.session.prompt,
      { sessionId, prompt: text("first") },
      { cancellationSignal: abort.signal },
    );
    await query.waitForSent(1);
    const queued = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: text("second"),
    });
    await new Promise((resolve) => setTimeout(resolve, 20));

    abort.abort();

    expect(await running).toMatchObject({ stopReason: "cancelled" });
    await query.waitForSent(2);
    query.emit(result());
    expect(await queued).toMatchObject({ stopReason: "end_turn" });
    expect(query.interrupts).toBe(1);
  });
});
