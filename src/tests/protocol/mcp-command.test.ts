import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { fakeClaude, result } from "../support/fake-claude.js";
import { FakeTranscripts } from "../support/fake-transcripts.js";
import { connectInProcess } from "../support/in-process.js";

let cleanup: Array<() => void> = [];
afterEach(() => {
  cleanup.forEach((fn) => fn());
  cleanup = [];
});

describe("/mcp", () => {
  it("sent while a turn runs, is answered after that turn, never inside it, and never reaches Claude", async () => {
    const claude = fakeClaude();
    const harness = await connectInProcess({
      startQuery: claude.startQuery,
      transcripts: new FakeTranscripts(),
    });
    cleanup.push(() => harness.close());
    const { agent, updates } = harness;
    const cwd = mkdtempSync(join(tmpdir(), "acp-mcp-"));
    const { sessionId } = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    const query = claude.started.at(-1)!;
    query.mcpServers = [{ name: "echo", status: "connected", tools: [{ name: "echo" }] }];
    const order: string[] = [];

    const turn = agent
      .request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "x" }] })
      .then(() => order.push("turn"));
    await query.waitForSent(1);
    const mcp = agent
      .request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "/mcp" }],
      })
      .then((response) => order.push(`mcp ${response.stopReason}`));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(order).toEqual([]);

    query.emit(result());
    await Promise.all([turn, mcp]);
    expect(order).toEqual(["turn", "mcp end_turn"]);
    expect(query.sent).toHaveLength(1);
    const texts = updates
      .map((n) => n.update)
      .flatMap((u) =>
        u.sessionUpdate === "agent_message_chunk" && u.content.type === "text"
          ? [u.content.text]
          : [],
      );
    expect(texts).toEqual(["MCP servers:\n- **echo**: connected, 1 tool"]);
  });
});
