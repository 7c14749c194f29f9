// End-to-end: `_session/steering` on the real Claude Code. A steer sent while a turn runs
// reaches the model within that turn, the turn's prompt is answered once (after the steer is
// answered), and an open permission request is neither cancelled nor overtaken by it. A steer's
// embedded context is data as in a prompt: Claude Code reads no file it mentions.
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { STEERING_METHOD, type SteeringResponse } from "../../../acp/steering.js";
import { MAX_PENDING_STEERS } from "../../../session/turns/steering.js";
import {
  lastToolResults,
  lastUserText,
  type RecordedRequest,
} from "../../../scripted-api/index.js";
import { echo, STEER, waitingTurn } from "../../support/e2e-turns/steering.js";
import { type E2E, shareAgents, startE2E, stopAllE2E } from "../../support/e2e/index.js";

afterEach(stopAllE2E);
shareAgents({ sessions: true });

function steer(
  e2e: E2E,
  sessionId: string,
  prompt: string | ContentBlock[],
): Promise<SteeringResponse> {
  return e2e.client.request<SteeringResponse>(STEERING_METHOD, {
    sessionId,
    prompt: typeof prompt === "string" ? [{ type: "text", text: prompt }] : prompt,
  });
}

/** Two files beside the project, each holding a marker, and a resource that mentions them. */
async function mentioningResource(e2e: E2E) {
  const outside = join(dirname(e2e.cwd), "outside");
  await mkdir(outside, { recursive: true });
  const markers: string[] = [];
  const lines = ["notes"];
  for (const name of ["line-start", "mid-line"]) {
    const marker = `SECRET-${name}-${randomUUID()}`;
    await writeFile(join(outside, name), `${marker}\n`);
    markers.push(marker);
  }
  lines.push(`@${join(outside, "line-start")}`, `see @${join(outside, "mid-line")} too`);
  const resource: ContentBlock = {
    type: "resource",
    resource: { uri: "file:///notes.md", text: lines.join("\n") },
  };
  /** The markers that reached the model, and how many files Claude Code read for mentions. */
  const leaks = () => {
    const sent = JSON.stringify(e2e.api.requests.map((r) => r.body));
    return {
      leaked: markers.filter((m) => sent.includes(m)),
      reads: sent.split("Called the Read tool").length - 1,
    };
  };
  return { resource, leaks };
}

const mentionsSteer = (request: RecordedRequest) => JSON.stringify(request.body).includes(STEER);

/** Index in the wire transcript of the first agent message chunk containing `text`. */
function chunkIndex(e2e: E2E, text: string): number {
  return e2e.transcript.entries.findIndex(
    (entry) =>
      entry.direction === "from-agent" &&
      entry.message?.method === "session/update" &&
      JSON.stringify(entry.message.params).includes(text),
  );
}

/** Index in the wire transcript of the answer to the (only) session/prompt. */
function promptAnswerIndex(e2e: E2E): number {
  const [request] = e2e.transcript.calls("session/prompt", "to-agent");
  const answer = request && e2e.transcript.responseTo(request);
  return answer ? e2e.transcript.entries.indexOf(answer) : -1;
}

describe("_session/steering on the real Claude Code", { timeout: 90_000 }, () => {
  it("a steer sent while a tool runs reaches the model with the tool's result, in the same turn; the prompt is answered once, after the reply to it", async () => {
    const e2e = await startE2E({
      scenario: [waitingTurn("Waiting first."), echo],
      permission: { answer: "select", optionId: "allow-once" },
    });
    const { sessionId } = await e2e.newSession();

    const answer = e2e.prompt(sessionId, "Wait a bit.");
    await e2e.updates.waitFor(sessionId, "tool_call", () => true);
    expect(await steer(e2e, sessionId, STEER)).toEqual({ outcome: "injected" });
    expect(await answer).toMatchObject({ stopReason: "end_turn" });

    const main = e2e.api.mainRequests();
    expect(main).toHaveLength(2);
    expect(mentionsSteer(main[0]!)).toBe(false);
    // The second request of the same turn carries both the tool's result and the steer.
    expect(lastToolResults(main[1]!)).toEqual([expect.objectContaining({ text: "slept" })]);
    expect(lastUserText(main[1]!)).toContain(STEER);
    const reply = chunkIndex(e2e, `I read: `);
    expect(reply).toBeGreaterThan(-1);
    expect(promptAnswerIndex(e2e)).toBeGreaterThan(reply);
    // Nothing is left for the queue: the next prompt gets a turn and an answer of its own.
    expect(await e2e.prompt(sessionId, "Next.")).toMatchObject({ stopReason: "end_turn" });
    expect(e2e.api.mainRequests()).toHaveLength(3);
    expect(e2e.transcript.calls("session/prompt", "to-agent")).toHaveLength(2);
  });

  it("a steer sent while the model writes its last answer is answered right after, and the prompt settles only then", async () => {
    const e2e = await startE2E({
      scenario: [
        {
          content: [{ type: "text", text: "one two three four five six", chunks: 6 }],
          delayMs: 400,
        },
        echo,
      ],
    });
    const { sessionId } = await e2e.newSession();

    const answer = e2e.prompt(sessionId, "Count.");
    await e2e.updates.waitFor(sessionId, "agent_message_chunk", () => true);
    expect(await steer(e2e, sessionId, STEER)).toEqual({ outcome: "injected" });
    expect(await answer).toMatchObject({ stopReason: "end_turn" });

    const main = e2e.api.mainRequests();
    expect(main).toHaveLength(2);
    expect(lastUserText(main[1]!)).toContain(STEER);
    const reply = chunkIndex(e2e, `I read: `);
    expect(reply).toBeGreaterThan(chunkIndex(e2e, "six"));
    expect(promptAnswerIndex(e2e)).toBeGreaterThan(reply);
  });

  it("a steer while a permission request is open does not cancel it: the permission is answered, the tool runs, then the steer reaches the model", async () => {
    const e2e = await startE2E({
      scenario: [
        {
          content: [
            {
              type: "tool_use",
              name: "Bash",
              input: { command: "echo hi > out.txt", description: "Write out.txt" },
            },
          ],
        },
        echo,
      ],
      // The user takes a while to answer: the steer comes while the request is open.
      permission: { answer: "late", optionId: "allow-once", delayMs: 2_000 },
    });
    const { sessionId } = await e2e.newSession();

    const answer = e2e.prompt(sessionId, "Write the file.");
    const ask = await e2e.permissions.waitForRequest(1);
    expect(await steer(e2e, sessionId, STEER)).toEqual({ outcome: "injected" });
    expect(ask.answer).toBeUndefined();

    expect(await answer).toMatchObject({ stopReason: "end_turn" });
    // Never cancelled: the answer the user gave is the one that counted.
    expect(ask.cancelled).toBe(false);
    expect(ask.answer).toEqual({ outcome: { outcome: "selected", optionId: "allow-once" } });
    expect(existsSync(join(e2e.cwd, "out.txt"))).toBe(true);
    const main = e2e.api.mainRequests();
    expect(main).toHaveLength(2);
    expect(lastToolResults(main[1]!)).toEqual([expect.objectContaining({ is_error: false })]);
    expect(lastUserText(main[1]!)).toContain(STEER);
    expect(e2e.permissions.records).toHaveLength(1);
  });

  it("a steer's embedded context is data, as in a prompt: mid-tool, Claude Code reads no file it mentions", async () => {
    const e2e = await startE2E({
      scenario: [waitingTurn(), echo],
      permission: { answer: "select", optionId: "allow-once" },
    });
    const { resource, leaks } = await mentioningResource(e2e);
    const { sessionId } = await e2e.newSession();

    const answer = e2e.prompt(sessionId, "Wait a bit.");
    await e2e.updates.waitFor(sessionId, "tool_call", () => true);
    const steered = [resource, { type: "text", text: STEER }] as ContentBlock[];
    expect(await steer(e2e, sessionId, steered)).toEqual({ outcome: "injected" });
    expect(await answer).toMatchObject({ stopReason: "end_turn" });

    expect(lastUserText(e2e.api.mainRequests().at(-1)!)).toContain(
      '<context ref="file:///notes.md">',
    );
    expect(leaks()).toEqual({ leaked: [], reads: 0 });
  });

  it("a steer of embedded context alone, answered after the last answer, is inert too: no file it mentions is read", async () => {
    const e2e = await startE2E({
      scenario: [
        {
          content: [{ type: "text", text: "one two three four five six", chunks: 6 }],
          delayMs: 400,
        },
        echo,
      ],
    });
    const { resource, leaks } = await mentioningResource(e2e);
    const { sessionId } = await e2e.newSession();

    const answer = e2e.prompt(sessionId, "Count.");
    await e2e.updates.waitFor(sessionId, "agent_message_chunk", () => true);
    expect(await steer(e2e, sessionId, [resource])).toEqual({ outcome: "injected" });
    expect(await answer).toMatchObject({ stopReason: "end_turn" });

    expect(e2e.api.mainRequests()).toHaveLength(2);
    expect(lastUserText(e2e.api.mainRequests()[1]!)).toContain('<context ref="file:///notes.md">');
    expect(leaks()).toEqual({ leaked: [], reads: 0 });
    expect(e2e.permissions.records).toEqual([]);
  });
  it("a flood of steers into one turn: past the limit each is refused with a clear error, and the prompt is answered after the accepted ones", async () => {
    const e2e = await startE2E({
      scenario: [waitingTurn(), echo, echo, echo],
      permission: { answer: "select", optionId: "allow-once" },
    });
    const { sessionId } = await e2e.newSession();

    const answer = e2e.prompt(sessionId, "Wait a bit.");
    await e2e.updates.waitFor(sessionId, "tool_call", () => true);
    const sent = 80;
    const outcomes = await Promise.allSettled(
      Array.from({ length: sent }, (_, i) => steer(e2e, sessionId, `Steer number ${i}.`)),
    );
    expect(await answer).toMatchObject({ stopReason: "end_turn" });

    const injected = outcomes.filter(
      (o) => o.status === "fulfilled" && o.value.outcome === "injected",
    );
    const refused = outcomes.flatMap((o): unknown[] => (o.status === "rejected" ? [o.reason] : []));
    expect(injected).toHaveLength(MAX_PENDING_STEERS);
    expect(refused).toHaveLength(sent - MAX_PENDING_STEERS);
    for (const error of refused) {
      expect(error).toMatchObject({ code: -32602 });
      expect(String((error as { message?: unknown }).message)).toContain(
        `${MAX_PENDING_STEERS} steering messages`,
      );
    }
    // Every accepted steer reached the model, and none that was refused.
    const told = JSON.stringify(e2e.api.mainRequests().map((r) => r.body));
    for (let i = 0; i < sent; i++) {
      expect(told.includes(`Steer number ${i}.`), `steer ${i}`).toBe(i < MAX_PENDING_STEERS);
    }
  });
});
