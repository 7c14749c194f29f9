// Claude Code's prediction of the next prompt, for a client that asks for it: published as
// session_info_update._meta.promptSuggestions (the published adapter's shape) after the turn
// it answers, cleared by the next prompt; nothing of it for any other client.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type ClientCapabilities,
  methods,
  type SessionNotification,
} from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { fakeClaude, result, sdkMessage } from "../../support/fake-claude.js";
import { connectInProcess } from "../../support/in-process.js";
import { settle } from "../../support/settle.js";

const cwd = mkdtempSync(join(tmpdir(), "prompt-suggestions-"));
let cleanup: Array<() => void> = [];
afterEach(() => {
  cleanup.forEach((fn) => fn());
  cleanup = [];
});

const OPTED_IN: ClientCapabilities = { _meta: { claudeCode: { promptSuggestions: true } } };
const AIR: ClientCapabilities = { _meta: { jetbrains: { air: { version: 1, capabilities: [] } } } };

async function setup(clientCapabilities: ClientCapabilities) {
  const claude = fakeClaude();
  const harness = await connectInProcess({ startQuery: claude.startQuery, clientCapabilities });
  cleanup.push(() => harness.close());
  const sessionId = await harness.newSession(cwd);
  const query = claude.started.at(-1)!;
  let sent = 0;
  /** One prompt, answered; then Claude Code's prediction, if any. */
  const turn = async (suggestion?: string) => {
    const prompt = harness.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: `prompt ${sent + 1}` }],
    });
    await query.waitForSent(++sent);
    query.emit(result());
    await prompt;
    if (suggestion !== undefined) query.emit(sdkMessage({ type: "prompt_suggestion", suggestion }));
    await settle();
  };
  return { ...harness, query, turn };
}

/** Each promptSuggestions update, as the list of texts it carries. */
const published = (updates: SessionNotification[]) =>
  updates
    .map((n) => n.update)
    .filter((u) => u.sessionUpdate === "session_info_update" && u._meta?.promptSuggestions)
    .map((u) =>
      (u._meta!.promptSuggestions as { suggestions: Array<{ text: string }> }).suggestions.map(
        (s) => s.text,
      ),
    );

describe("prompt suggestions", () => {
  it("a client that asks gets the prediction after its turn, cleaned, and the next prompt clears it", async () => {
    const { query, turn, updates } = await setup(OPTED_IN);
    expect(query.options.promptSuggestions).toBe(true);
    await turn("Run the tests\u001b[2J now");
    expect(published(updates)).toEqual([["Run the tests now"]]);
    await turn();
    expect(published(updates)).toEqual([["Run the tests now"], []]);
  });

  it("JetBrains AIR, which the published adapter sends them to, gets them too", async () => {
    const { query, turn, updates } = await setup(AIR);
    expect(query.options.promptSuggestions).toBe(true);
    await turn("Commit it");
    expect(published(updates)).toEqual([["Commit it"]]);
  });

  it("whitespace is no prediction, and one that answers no turn of the user's is not shown", async () => {
    const { query, turn, updates } = await setup(OPTED_IN);
    await turn("   \n ");
    query.emit(sdkMessage({ type: "prompt_suggestion", suggestion: "Stray" }));
    await settle();
    expect(published(updates)).toEqual([]);
  });

  it("any other client asks Claude Code for none and sees none", async () => {
    const { query, turn, updates } = await setup({});
    expect(query.options.promptSuggestions).toBeUndefined();
    await turn("Run the tests");
    expect(published(updates)).toEqual([]);
  });
});
