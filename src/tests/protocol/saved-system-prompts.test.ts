// A system prompt a client gives is kept for a later load, which reads the saved file back
// up to a size: a prompt accepted at session/new is always one a load can read back, and a
// prompt whose saved form (JSON, with its escapes) would not be is refused before a session
// opens.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, RequestError } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { SavedPrompts } from "../../session/lifecycle/saved-prompts.js";
import { fakeClaude } from "../support/fake-claude.js";
import { FakeTranscripts } from "../support/fake-transcripts.js";
import { connectInProcess, isolatedEnv } from "../support/in-process.js";

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const step of cleanup.splice(0)) step();
});

/** The longest RFD prompt a client may give (client-setup.ts), in characters. */
const LONGEST = 200_000;
const override = (text: string) => ({ mode: "override", content: [{ type: "text", text }] });

async function setup() {
  const cwd = mkdtempSync(join(tmpdir(), "acp-saved-prompts-"));
  const transcripts = new FakeTranscripts();
  const claude = fakeClaude();
  const harness = await connectInProcess({ startQuery: claude.startQuery, transcripts });
  cleanup.push(() => harness.close());
  return { ...harness, claude, transcripts, cwd };
}

describe("a system prompt kept for a later load", () => {
  it.each([
    [
      "control characters, six bytes each once escaped",
      { systemPrompt: override("\u0001".repeat(LONGEST)) },
    ],
    [
      "lone surrogates, six bytes each once escaped",
      { systemPrompt: override("\ud800".repeat(LONGEST)) },
    ],
    ["an override with no text, which a load would not take", { systemPrompt: override("") }],
    [
      "Claude Code's own form: many long strings",
      { _meta: { claudeCode: { options: { systemPrompt: Array(10).fill("x".repeat(LONGEST)) } } } },
    ],
  ])(
    "one whose saved form would pass what a load reads back (%s) is -32602 at session/new, and no session opens",
    async (_, request) => {
      const { agent, claude, cwd } = await setup();
      const error = await agent
        .request("session/new", { cwd, mcpServers: [], ...request })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestError);
      expect((error as RequestError).code).toBe(-32602);
      expect((error as RequestError).message).toMatch(/systemPrompt .* to keep for a later load/);
      expect(claude.started).toEqual([]);
    },
  );

  it("the longest prompt of characters JSON escapes in two bytes is accepted, and a load that gives none gets it back whole", async () => {
    const { agent, claude, transcripts, cwd } = await setup();
    const text = '"\\'.repeat(LONGEST / 2);
    const { sessionId } = await agent.request<{ sessionId: string }>("session/new", {
      cwd,
      mcpServers: [],
      systemPrompt: override(text),
    });
    transcripts.add({ sessionId, cwd, summary: "kept" });
    await agent.request(methods.agent.session.close, { sessionId });
    await agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    expect(claude.started.at(-1)!.options.systemPrompt).toBe(text);
  });

  it("what the agent saves, it reads back: the largest forms accepted round-trip through the file", async () => {
    const prompts = new SavedPrompts(isolatedEnv());
    const forms = [
      "\u00e9\u{1f600}".repeat(Math.floor(LONGEST / 3)),
      { type: "preset" as const, preset: "claude_code" as const, append: "\u2028".repeat(LONGEST) },
    ];
    for (const [i, prompt] of forms.entries()) {
      const id = `00000000-0000-4000-8000-00000000000${i}`;
      await prompts.set(id, prompt);
      expect(await prompts.get(id)).toEqual(prompt);
    }
  });
});
