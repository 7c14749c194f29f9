// A served session's relay (acp/session-relay.ts): what a client on a new connection gets
// back, and requests a dropped connection left unanswered.
import type { RequestPermissionRequest, RequestPermissionResponse } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import type { ClientChannel, SessionNotificationOut } from "../../../acp/channel.js";
import { SessionRelay } from "../../../acp/session-relay.js";

const text = (t: string): SessionNotificationOut => ({
  sessionId: "s",
  update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: t } },
});

const ASK = {
  sessionId: "s",
  toolCall: { toolCallId: "t" },
  options: [],
} as RequestPermissionRequest;
const ALLOWED: RequestPermissionResponse = { outcome: { outcome: "selected", optionId: "allow" } };

/** A client channel recording updates; `answer` decides each permission request. */
function channel(answer: () => Promise<RequestPermissionResponse>) {
  const updates: SessionNotificationOut[] = [];
  const asked: RequestPermissionRequest[] = [];
  const client: ClientChannel = {
    update: (n) => {
      updates.push(n);
      return Promise.resolve();
    },
    requestPermission: (params) => {
      asked.push(params);
      return answer();
    },
    createElicitation: () => Promise.reject(new Error("unused")),
    completeElicitation: () => Promise.resolve(),
  };
  return { client, updates, asked };
}

describe("SessionRelay", () => {
  it("hands a new client the whole history, prompts included, then what is said live, each once", async () => {
    const first = channel(() => Promise.resolve(ALLOWED));
    const relay = new SessionRelay(first.client);
    relay.prompted("s", [{ type: "text", text: "Hi" }], "m1");
    await relay.update(text("one"));
    relay.detach();
    await relay.update(text("two"));
    expect(first.updates).toEqual([text("one")]);

    const second = channel(() => Promise.resolve(ALLOWED));
    await relay.attach(second.client, true);
    await relay.update(text("three"));
    expect(second.updates.map((n) => n.update.sessionUpdate)).toEqual([
      "user_message_chunk",
      "agent_message_chunk",
      "agent_message_chunk",
      "agent_message_chunk",
    ]);
    expect(second.updates.slice(1)).toEqual([text("one"), text("two"), text("three")]);
  });

  it("asks the next client a request the dropped connection left unanswered", async () => {
    let drop!: (error: Error) => void;
    const first = channel(() => new Promise((_, reject) => (drop = reject)));
    const relay = new SessionRelay(first.client);
    const answer = relay.requestPermission(ASK, {});
    await Promise.resolve();
    relay.detach();
    drop(new Error("ACP connection closed"));

    const second = channel(() => Promise.resolve(ALLOWED));
    await relay.attach(second.client, false);
    expect(await answer).toEqual(ALLOWED);
    expect(first.asked).toHaveLength(1);
    expect(second.asked).toHaveLength(1);
  });

  it("asks the new client a request the old one still holds when the session moves", async () => {
    const first = channel(() => new Promise<RequestPermissionResponse>(() => undefined));
    const relay = new SessionRelay(first.client);
    const answer = relay.requestPermission(ASK, {});
    await Promise.resolve();
    const second = channel(() => Promise.resolve(ALLOWED));
    relay.detach();
    await relay.attach(second.client, false);
    expect(await answer).toEqual(ALLOWED);
    expect([first.asked.length, second.asked.length]).toEqual([1, 1]);
  });

  it("fails a request whose client failed it while attached, as without a relay", async () => {
    const only = channel(() => Promise.reject(new Error("refused")));
    const relay = new SessionRelay(only.client);
    await expect(relay.requestPermission(ASK, {})).rejects.toThrow("refused");
  });

  it("fails a request waiting for a client when it is cancelled", async () => {
    const relay = new SessionRelay(undefined);
    const cancel = new AbortController();
    const answer = relay.requestPermission(ASK, { cancellationSignal: cancel.signal });
    cancel.abort();
    await expect(answer).rejects.toThrow(/cancelled/i);
  });

  it("keeps no history past its limit: such a session cannot be taken back", async () => {
    const relay = new SessionRelay(channel(() => Promise.resolve(ALLOWED)).client, 200);
    await relay.update(text("short"));
    expect(relay.keepsHistory).toBe(true);
    await relay.update(text("x".repeat(300)));
    expect(relay.keepsHistory).toBe(false);
  });

  it("knows while a prompt's turn runs", async () => {
    const relay = new SessionRelay(undefined);
    let end!: () => void;
    relay.track(new Promise<void>((resolve) => (end = resolve)));
    expect(relay.prompting).toBe(true);
    const idle = relay.idle();
    end();
    await idle;
    expect(relay.prompting).toBe(false);
  });
});
