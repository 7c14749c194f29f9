// Claude Code sends a tool's permission request as a control message, which the SDK hands
// to the agent at once, while the messages before it (the end of Claude's sentence, the
// tool use) wait in the SDK's queue until the stream reads them. The client must still see
// them in the order Claude Code sent them.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { fakeClaude, result, streamEvent, streamedText } from "../../support/fake-claude.js";
import { connectInProcess } from "../../support/in-process.js";

const cwd = mkdtempSync(join(tmpdir(), "permission-order-"));
let cleanup: Array<() => void> = [];
afterEach(() => {
  cleanup.forEach((fn) => fn());
  cleanup = [];
});

async function asking() {
  const claude = fakeClaude();
  const harness = await connectInProcess({
    startQuery: claude.startQuery,
    onPermission: () => ({ outcome: { outcome: "selected", optionId: "allow-once" } }),
  });
  cleanup.push(() => harness.close());
  const sessionId = await harness.newSession(cwd);
  const query = claude.started.at(-1)!;
  const prompt = harness.agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "x" }],
  });
  await query.waitForSent(1);
  return { ...harness, query, prompt };
}

/** What the client saw, in order: text as it came, then a line per tool call and request. */
function transcript(events: Awaited<ReturnType<typeof asking>>["events"]): string[] {
  const lines: string[] = [];
  for (const event of events) {
    if (event.kind === "permission") {
      lines.push(`ask ${event.request.toolCall.toolCallId}`);
      continue;
    }
    const update = event.update.update;
    if (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text") {
      if (lines.at(-1)?.startsWith("text ")) lines[lines.length - 1] += update.content.text;
      else lines.push(`text ${update.content.text}`);
    } else if (update.sessionUpdate === "tool_call") {
      lines.push(`tool ${update.toolCallId}`);
    }
  }
  return lines;
}

const toolStart = (id: string, name: string, index: number) =>
  streamEvent({
    type: "content_block_start",
    index,
    content_block: { type: "tool_use", id, name, input: {} },
  });

describe("a permission request that overtakes the stream", () => {
  it("waits until the stream has shown what Claude said before the tool: the sentence stays whole", async () => {
    const { query, events, prompt } = await asking();
    // Everything Claude Code wrote before its control request is queued at once, and the
    // request arrives in the same tick, as the SDK delivers them.
    query.emit(
      ...streamedText("msg_1", "The plan is ready", " for your ", "review."),
      toolStart("toolu_plan", "Bash", 1),
    );
    const decision = await query.canUseTool("Bash", { command: "ls" }, { toolUseID: "toolu_plan" });
    expect(decision).toMatchObject({ behavior: "allow" });
    expect(transcript(events)).toEqual([
      "text The plan is ready for your review.",
      "tool toolu_plan",
      "ask toolu_plan",
    ]);
    query.emit(result());
    await prompt;
  });

  it("a tool use the stream never shows (its messages are not streamed) is asked about without waiting for it", async () => {
    const { query, events, prompt } = await asking();
    const started = Date.now();
    const decision = await query.canUseTool("Bash", { command: "ls" }, { toolUseID: "toolu_bg" });
    expect(decision).toMatchObject({ behavior: "allow" });
    // Far under the bound the ask waits at most for a stream that is busy.
    expect(Date.now() - started).toBeLessThan(500);
    expect(transcript(events)).toEqual(["tool toolu_bg", "ask toolu_bg"]);
    query.emit(result());
    await prompt;
  });

  it("a later tool streaming after the one asked about does not hold the ask", async () => {
    const { query, events, prompt } = await asking();
    query.emit(
      ...streamedText("msg_2", "Two commands."),
      toolStart("toolu_a", "Bash", 1),
      toolStart("toolu_b", "Bash", 2),
    );
    const started = Date.now();
    const decision = await query.canUseTool("Bash", { command: "ls" }, { toolUseID: "toolu_a" });
    expect(decision).toMatchObject({ behavior: "allow" });
    expect(Date.now() - started).toBeLessThan(500);
    const seen = transcript(events);
    expect(seen[0]).toBe("text Two commands.");
    expect(seen.indexOf("tool toolu_a")).toBeLessThan(seen.indexOf("ask toolu_a"));
    query.emit(result());
    await prompt;
  });
});
