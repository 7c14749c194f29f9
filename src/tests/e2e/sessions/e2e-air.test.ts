// End-to-end with JetBrains AIR's handshake (issue 52): the agent answers AIR's extension in
// initialize, and a real session/load ends its replay with AIR's loadReplayEnd update.
import { methods } from "@agentclientprotocol/sdk";
import { afterEach, expect, it } from "vitest";
import { AIR } from "../../support/client-handshakes.js";
import { startE2E, stopAllE2E } from "../../support/e2e/index.js";
import { answered } from "../../support/e2e-sessions/index.js";

afterEach(stopAllE2E);

it("AIR's initialize is answered with the extension, and a session/load's replay ends with loadReplayEnd, before the answer", async () => {
  const e2e = await startE2E({
    clientCapabilities: AIR.clientCapabilities,
    scenario: [{ content: [{ type: "text", text: "Hello." }] }],
  });
  const init = answered(e2e, "initialize", "").response.message;
  expect(init?.result).toMatchObject({ _meta: { jetbrains: { air: { version: 1 } } } });
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
