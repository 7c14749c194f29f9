import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods } from "@agentclientprotocol/sdk";
import { onTestFinished } from "vitest";
import type { ClaudeInitialization } from "../../claude/query.js";
import { fakeClaude, type FakeClaudeQuery } from "./fake-claude.js";
import { connectInProcess, type InProcessOptions } from "./in-process.js";

let cwd: string | undefined;

/**
 * One session of the in-process agent on a scripted fake Claude Code, closed when the test
 * ends: the client side, the fake's query and the session id. `prompt` sends a text prompt,
 * waits until Claude Code got it, then plays `messages` as Claude's answer.
 */
export async function fakeSession(
  options: Partial<InProcessOptions> = {},
  claudeInit: Partial<ClaudeInitialization> = {},
) {
  cwd ??= mkdtempSync(join(tmpdir(), "fake-session-"));
  const claude = fakeClaude(claudeInit);
  const harness = await connectInProcess({ startQuery: claude.startQuery, ...options });
  onTestFinished(() => harness.close());
  // Started: what Claude Code reported at its start is in before the test goes on.
  const { sessionId } = await harness.newStartedSession(cwd);
  const query: FakeClaudeQuery = claude.started.at(-1)!;
  const prompt = async (text: string, ...messages: Parameters<FakeClaudeQuery["emit"]>) => {
    const sent = query.sent.length;
    const response = harness.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text }],
    });
    await query.waitForSent(sent + 1);
    query.emit(...messages);
    return response;
  };
  return { ...harness, claude, query, sessionId, prompt };
}
