// End-to-end: when the Claude Code process behind a session dies (SIGKILL), the running
// prompt fails at once with a clear JSON-RPC error and the next prompt resumes the
// conversation from Claude Code's transcript, on the same session id.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { lastUserText, type TurnSpec } from "../../../scripted-api/index.js";
import { methods } from "@agentclientprotocol/sdk";
import {
  type E2E,
  poll,
  shareAgents,
  startE2E,
  stopAllE2E,
  timed,
} from "../../support/e2e/index.js";
import {
  answered,
  claudeProcessOf,
  conversation,
  inOrder,
  INTERNAL_ERROR,
  failure,
  processEnds,
  signalClaude,
  transcriptHas,
} from "../../support/e2e-sessions/index.js";

afterEach(stopAllE2E);
shareAgents({ sessions: true });

/** The prompt has this long after the kill to fail (the brief's bound). */
const FAILS_WITHIN_MS = 2_000;

const echo: TurnSpec = (request) => ({
  content: [{ type: "text", text: `reply to: ${lastUserText(request)}` }],
});

/** Claude asks to run a command; the client waits for the user (answers only when withdrawn). */
const ASKED_ID = "toolu_e2e_asked";
const ASKING: TurnSpec[] = [
  {
    content: [
      { type: "text", text: "Writing the file." },
      { type: "tool_use", id: ASKED_ID, name: "Bash", input: { command: "echo hi > out.txt" } },
    ],
  },
  echo,
];

describe("a Claude Code process that dies", () => {
  it("mid-turn ends the prompt with a clear JSON-RPC error within 2 s, and the next prompt resumes the conversation", async () => {
    const e2e = await startE2E({
      scenario: [
        echo,
        { content: [{ type: "text", text: "slow ".repeat(40), chunks: 40 }], delayMs: 250 },
        echo,
      ],
    });
    const { sessionId } = await e2e.newSession();
    await e2e.prompt(sessionId, "Remember the word PAPAYA.");
    const prompt = e2e.prompt(sessionId, "Talk slowly.");
    await e2e.updates.waitFor(sessionId, "agent_message_chunk", (u) =>
      JSON.stringify(u.content).includes("slow"),
    );

    const killed = await signalClaude(e2e, sessionId, "SIGKILL");
    const { value: error, ms } = await timed(failure(prompt));

    expect(ms).toBeLessThan(FAILS_WITHIN_MS);
    expect(error.code).toBe(INTERNAL_ERROR);
    expect(error.message).toMatch(/Claude Code exited unexpectedly/);
    expect(error.message).toMatch(/next prompt resumes the conversation/);
    expect(await processEnds(e2e, killed)).toBe(true);
    const failedAt = answered(e2e, "session/prompt", sessionId).response.seq;

    const next = await e2e.prompt(sessionId, "Are you back?");

    expect(next.stopReason).toBe("end_turn");
    // Nothing of the dead turn reached the client after its error: the only text after it
    // is the new turn's.
    const after = e2e.transcript
      .sessionUpdates()
      .filter((n) => n.sessionId === sessionId && n.entry.seq > failedAt);
    const nextAsked = e2e.transcript.calls("session/prompt", "to-agent").at(-1)!.seq;
    expect(after.filter((n) => n.entry.seq < nextAsked)).toEqual([]);
    const text = after.flatMap((n) =>
      n.update.sessionUpdate === "agent_message_chunk" && n.update.content.type === "text"
        ? [n.update.content.text]
        : [],
    );
    expect(text.join("")).toBe("reply to: Are you back?");
    // A new Claude Code process resumed the same conversation from its transcript.
    expect((await claudeProcessOf(e2e, sessionId))?.command).toContain(`--resume=${sessionId}`);
    const request = e2e.api.lastMainRequest()!;
    expect(request.sessionId).toBe(sessionId);
    const expected = [
      "user: Remember the word PAPAYA.",
      "assistant: reply to: Remember the word PAPAYA.",
      "user: Talk slowly.",
      "user: Are you back?",
    ];
    expect(inOrder(conversation(request), expected)).toEqual(expected);
  });

  it("while a permission request is open withdraws the request, fails the tool call and the prompt, and the next prompt resumes", async () => {
    const e2e = await startE2E({ scenario: ASKING, permission: { answer: "never" } });
    const { sessionId } = await e2e.newSession();
    const prompt = e2e.prompt(sessionId, "Write hi.");
    const asked = await e2e.permissions.waitForRequest(1);
    // Claude Code saves the tool use a moment after asking; kill it once it has.
    expect(await transcriptHas(e2e, sessionId, ASKED_ID)).toBe(true);

    await signalClaude(e2e, sessionId, "SIGKILL");
    const { value: error, ms } = await timed(failure(prompt));

    expect(ms).toBeLessThan(FAILS_WITHIN_MS);
    expect(error.code).toBe(INTERNAL_ERROR);
    expect(asked.cancelled).toBe(true);
    const statuses = e2e.updates
      .of(sessionId, "tool_call_update")
      .filter((u) => u.toolCallId === ASKED_ID && u.status)
      .map((u) => u.status);
    expect(statuses.at(-1)).toBe("failed");
    expect(existsSync(join(e2e.cwd, "out.txt"))).toBe(false);

    expect((await e2e.prompt(sessionId, "Are you back?")).stopReason).toBe("end_turn");
    const expected = [
      "user: Write hi.",
      `assistant tool_use Bash ${ASKED_ID}`,
      "user: Are you back?",
    ];
    expect(inOrder(conversation(e2e.api.lastMainRequest()!), expected)).toEqual(expected);
  });

  it("leaves a transcript that loads with the unanswered tool call closed as failed, never pending", async () => {
    const e2e = await startE2E({ scenario: ASKING, permission: { answer: "never" } });
    const { sessionId } = await e2e.newSession();
    const prompt = e2e.prompt(sessionId, "Write hi.");
    await e2e.permissions.waitForRequest(1);
    expect(await transcriptHas(e2e, sessionId, ASKED_ID)).toBe(true);
    await signalClaude(e2e, sessionId, "SIGKILL");
    await failure(prompt);
    await e2e.client.request(methods.agent.session.close, { sessionId });

    await e2e.client.request(methods.agent.session.load, {
      sessionId,
      cwd: e2e.cwd,
      mcpServers: [],
    });

    const replayed = answered(e2e, "session/load", sessionId).updatesBefore.map((n) => n.update);
    const calls = replayed.flatMap((u) =>
      (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") &&
      u.toolCallId === ASKED_ID
        ? [u.status ?? ""]
        : [],
    );
    expect(calls.filter((status) => status !== "")).toEqual(["pending", "failed"]);
    expect(replayed.map((u) => u.sessionUpdate)).toContain("user_message_chunk");
  });

  it("between turns is replaced transparently by the next prompt", async () => {
    const e2e = await startE2E({ scenario: [echo, echo] });
    const { sessionId } = await e2e.newSession();
    await e2e.prompt(sessionId, "Remember the word PAPAYA.");

    await signalClaude(e2e, sessionId, "SIGKILL");
    // Once the agent has seen it end (its log says so)...
    expect(await agentSawClaudeEnd(e2e, sessionId)).toBe(true);
    const next = await e2e.prompt(sessionId, "Which word?");

    expect(next.stopReason).toBe("end_turn");
    expectResumed(e2e, sessionId);
    expect((await claudeProcessOf(e2e, sessionId))?.command).toContain(`--resume=${sessionId}`);
  });

  it("between turns, even the very next moment, costs the next prompt nothing", async () => {
    const e2e = await startE2E({ scenario: [echo, echo] });
    const { sessionId } = await e2e.newSession();
    await e2e.prompt(sessionId, "Remember the word PAPAYA.");

    await signalClaude(e2e, sessionId, "SIGKILL");
    // The user sends the next prompt at once: nothing of the conversation was running.
    const next = await e2e.prompt(sessionId, "Which word?");

    expect(next.stopReason).toBe("end_turn");
    expectResumed(e2e, sessionId);
  });
});

/** The agent's log reports the end of the session's Claude Code process. */
async function agentSawClaudeEnd(e2e: E2E, sessionId: string): Promise<boolean> {
  const said = `session ${sessionId}: Claude Code ended`;
  const seen = await poll(() => Promise.resolve(e2e.log().includes(said) || undefined), 5_000);
  return seen === true;
}

/** The PAPAYA conversation went on: the client got the answer, the model saw both turns. */
function expectResumed(e2e: E2E, sessionId: string): void {
  const text = e2e.updates
    .of(sessionId, "agent_message_chunk")
    .map((c) => (c.content.type === "text" ? c.content.text : ""))
    .join("");
  expect(text).toBe("reply to: Remember the word PAPAYA.reply to: Which word?");
  const expected = [
    "user: Remember the word PAPAYA.",
    "assistant: reply to: Remember the word PAPAYA.",
    "user: Which word?",
  ];
  expect(inOrder(conversation(e2e.api.lastMainRequest()!), expected)).toEqual(expected);
}
