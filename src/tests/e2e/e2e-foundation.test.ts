// End-to-end: the built agent over stdio, the real Claude Code binary the SDK ships, and the
// scripted Anthropic API. Each test has its own harness (temp HOME, config dir and cwd).
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { lastToolResults, lastUserText, type TurnSpec } from "../../scripted-api/index.js";
import {
  type E2E,
  type PermissionPolicy,
  shareAgents,
  sleep,
  startE2E,
  stopAllE2E,
  timed,
  type WireEntry,
} from "../support/e2e/index.js";

afterEach(stopAllE2E);
shareAgents({ sessions: true });

const ECHO_ID = "toolu_e2e_echo";

/** Claude asks to run `echo hi > out.txt` in the cwd, then says it is done. */
const ECHO_TO_FILE: TurnSpec[] = [
  {
    content: [
      { type: "text", text: "I'll write the file." },
      {
        type: "tool_use",
        id: ECHO_ID,
        name: "Bash",
        input: { command: "echo hi > out.txt", description: "Write hi to out.txt" },
      },
    ],
  },
  { content: [{ type: "text", text: "Finished." }] },
];

function textOf(content: ContentBlock): string {
  return content.type === "text" ? content.text : "";
}

/** The JSON-RPC response to the session's last prompt, on the wire. */
function promptResponse(e2e: E2E): WireEntry {
  const request = e2e.transcript.calls("session/prompt", "to-agent").at(-1);
  const response = request && e2e.transcript.responseTo(request);
  if (!response) throw new Error("no session/prompt response on the wire");
  return response;
}

describe("a turn", () => {
  it("streams the scripted text as agent_message_chunk updates, then answers end_turn", async () => {
    const text = "Hello from the scripted model, streamed in several chunks.";
    // Deltas apart in time reach the agent in separate reads, so they go as separate chunks.
    const e2e = await startE2E({
      scenario: [{ content: [{ type: "text", text, chunks: 5 }], delayMs: 50 }],
    });
    const { sessionId } = await e2e.newSession();

    const response = await e2e.prompt(sessionId, "Say hello.");

    expect(response.stopReason).toBe("end_turn");
    const chunks = e2e.updates.of(sessionId, "agent_message_chunk");
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.map((c) => textOf(c.content)).join("")).toBe(text);
    // One scripted message: every chunk carries its id.
    expect(new Set(chunks.map((c) => c.messageId)).size).toBe(1);
    expect(chunks[0]?.messageId).toEqual(expect.any(String));
    // On the wire, all of them before the prompt's answer.
    const answered = promptResponse(e2e).seq;
    const onWire = e2e.transcript
      .sessionUpdates()
      .filter((n) => n.update.sessionUpdate === "agent_message_chunk");
    expect(onWire).toHaveLength(chunks.length);
    expect(onWire.every((n) => n.entry.seq < answered)).toBe(true);
    expect(lastUserText(e2e.api.lastMainRequest()!)).toBe("Say hello.");
  });
});

describe("a Bash tool call that needs permission", () => {
  it("runs the command when the client selects allow-once, announcing the tool call before asking", async () => {
    const e2e = await startE2E({
      scenario: ECHO_TO_FILE,
      permission: { answer: "select", optionId: "allow-once" },
    });
    const { sessionId } = await e2e.newSession();

    const response = await e2e.prompt(sessionId, "Write hi into out.txt.");

    expect(response.stopReason).toBe("end_turn");
    expect(await readFile(join(e2e.cwd, "out.txt"), "utf8")).toBe("hi\n");
    const [asked] = e2e.permissions.records;
    expect(asked?.request.toolCall.toolCallId).toBe(ECHO_ID);
    expect(asked?.request.options.map((o) => o.optionId)).toEqual(
      expect.arrayContaining(["allow-once", "reject"]),
    );
    const announced = e2e.transcript
      .sessionUpdates()
      .find((n) => n.update.sessionUpdate === "tool_call" && n.update.toolCallId === ECHO_ID);
    const request = e2e.transcript.calls("session/request_permission", "from-agent")[0];
    expect(announced).toBeDefined();
    expect(request).toBeDefined();
    expect(announced!.entry.seq).toBeLessThan(request!.seq);
    const statuses = e2e.updates
      .of(sessionId, "tool_call_update")
      .filter((u) => u.toolCallId === ECHO_ID && u.status)
      .map((u) => u.status);
    expect(statuses.at(-1)).toBe("completed");
  });

  it("does not run the command when the client selects reject, and tells the model it was refused", async () => {
    const e2e = await startE2E({
      scenario: ECHO_TO_FILE,
      permission: { answer: "select", optionId: "reject" },
    });
    // A session of its own: the scenario repeats the tool use id of the test before.
    const { sessionId } = await e2e.freshSession();

    const response = await e2e.prompt(sessionId, "Write hi into out.txt.");

    expect(response.stopReason).toBe("end_turn");
    expect(e2e.permissions.records).toHaveLength(1);
    expect(existsSync(join(e2e.cwd, "out.txt"))).toBe(false);
    const next = e2e.api.mainRequests()[1];
    expect(next).toBeDefined();
    expect(lastToolResults(next!)).toContainEqual(
      expect.objectContaining({ tool_use_id: ECHO_ID, is_error: true }),
    );
  });
});

describe("session/cancel", () => {
  it("answers the prompt cancelled within 2 s while the model is still streaming, then serves the next prompt", async () => {
    const e2e = await startE2E({
      scenario: [
        { content: [{ type: "text", text: "word ".repeat(50), chunks: 50 }], delayMs: 100 },
        { content: [{ type: "text", text: "Back again." }] },
      ],
    });
    const { sessionId } = await e2e.newSession();
    const prompt = e2e.prompt(sessionId, "Talk slowly.");
    await e2e.updates.waitFor(sessionId, "agent_message_chunk");

    await e2e.cancel(sessionId);
    const { value: response, ms } = await timed(prompt);

    expect(response.stopReason).toBe("cancelled");
    expect(ms).toBeLessThan(2_000);
    // The stream was cut short (5 s of text were left), and nothing of the turn follows the
    // answer.
    expect(e2e.updates.of(sessionId, "agent_message_chunk").length).toBeLessThan(50);
    const answered = promptResponse(e2e).seq;
    await sleep(500);
    expect(e2e.transcript.updatesAfter(answered)).toEqual([]);

    expect(await e2e.prompt(sessionId, "Are you there?")).toMatchObject({ stopReason: "end_turn" });
    // Claude Code prefixes it with "[Request interrupted by user]".
    expect(lastUserText(e2e.api.lastMainRequest()!)).toContain("Are you there?");
    const last = e2e.updates.of(sessionId, "agent_message_chunk").at(-1);
    expect(last && textOf(last.content)).toBe("Back again.");
  });

  const unanswered: { client: string; policy: PermissionPolicy }[] = [
    { client: "waits for the user but honours $/cancel_request", policy: { answer: "never" } },
    { client: "ignores cancellation entirely", policy: { answer: "never-even-when-cancelled" } },
    {
      client: "answers allow-once 300 ms after the cancellation",
      policy: { answer: "late", optionId: "allow-once", delayMs: 300 },
    },
  ];
  for (const { client, policy } of unanswered) {
    it(`ends the turn cancelled within 2 s, without running the command, when a client that ${client} is asked`, async () => {
      const e2e = await startE2E({ scenario: ECHO_TO_FILE, permission: policy });
      const { sessionId } = await e2e.newSession();
      const prompt = e2e.prompt(sessionId, "Write hi into out.txt.");
      const asked = await e2e.permissions.waitForRequest();

      await e2e.cancel(sessionId);
      const { value: response, ms } = await timed(prompt);

      expect(response.stopReason).toBe("cancelled");
      expect(ms).toBeLessThan(2_000);
      expect(asked.request.toolCall.toolCallId).toBe(ECHO_ID);
      // The agent withdrew its question ($/cancel_request): a well-behaved client then answers.
      expect(asked.cancelled).toBe(true);
      expect(e2e.transcript.calls("$/cancel_request", "from-agent")).toHaveLength(1);
      // Time for a late answer to land, and for a wrongly allowed command to run.
      await sleep(500);
      expect(existsSync(join(e2e.cwd, "out.txt"))).toBe(false);
    });
  }
});
