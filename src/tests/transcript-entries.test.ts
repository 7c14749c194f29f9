// session/load reads a transcript itself (claude/transcript-entries.ts) and lets the SDK take
// the conversation from those entries: the messages agree with the SDK's own reading of the
// file, whatever the file's lines are like: lines longer than a read chunk, records skipped
// unparsed, a torn last line, blank and foreign lines, a rewound branch, a sidechain.
import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getSessionMessages } from "@anthropic-ai/claude-agent-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readTranscriptEntries } from "../claude/transcript-entries.js";
import { sdkTranscripts } from "../claude/transcripts.js";

const CWD = "/work/project-entries";
let root: string;
let project: string;
const savedConfig = process.env.CLAUDE_CONFIG_DIR;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "transcript-entries-"));
  project = join(root, "projects", CWD.replace(/[^a-zA-Z0-9]/g, "-"));
  await mkdir(project, { recursive: true });
  process.env.CLAUDE_CONFIG_DIR = root;
});
afterAll(async () => {
  if (savedConfig === undefined) delete process.env.CLAUDE_CONFIG_DIR;
  else process.env.CLAUDE_CONFIG_DIR = savedConfig;
  await rm(root, { recursive: true, force: true });
});

/** A chain of entries in Claude Code's shapes; each names the one before as its parent. */
function chain(sessionId: string) {
  let parent: string | null = null;
  let minute = 0;
  return (type: "user" | "assistant", content: unknown, extra: Record<string, unknown> = {}) => {
    const uuid = randomUUID();
    const entry = {
      parentUuid: parent,
      isSidechain: false,
      type,
      message:
        type === "user"
          ? { role: "user", content }
          : { id: `msg_${uuid.slice(0, 8)}`, role: "assistant", content },
      uuid,
      timestamp: new Date(Date.UTC(2026, 11, 4, 1, minute++)).toISOString(),
      cwd: CWD,
      sessionId,
      ...extra,
    };
    parent = uuid;
    return entry;
  };
}

async function write(sessionId: string, lines: string[]): Promise<void> {
  await writeFile(join(project, `${sessionId}.jsonl`), lines.join("\n"));
}

describe("a transcript read for session/load", () => {
  it("gives the SDK's messages: long lines across chunks, skipped records, torn, blank and foreign lines", async () => {
    const id = randomUUID();
    const next = chain(id);
    const text = (t: string) => [{ type: "text", text: t }];
    const big = "é".repeat(1_300_000); // 2.6 MB: a line that spans read chunks
    const lines = [
      JSON.stringify({ type: "queue-operation", operation: "enqueue", sessionId: id }),
      JSON.stringify(next("user", text("Read the big file"))),
      JSON.stringify({ type: "api-request-shape", sessionId: id, shape: { a: 1 } }),
      JSON.stringify(
        next("assistant", [{ type: "tool_use", id: "toolu_1", name: "Read", input: {} }]),
      ),
      JSON.stringify(next("user", [{ type: "tool_result", tool_use_id: "toolu_1", content: big }])),
      "",
      `   ${JSON.stringify(next("assistant", text("Read it.")))}`,
      "[1, 2, 3]",
      "not json at all",
      JSON.stringify({ type: "last-prompt", lastPrompt: "Read the big file", sessionId: id }),
      JSON.stringify({ type: "custom-title", customTitle: "Big", sessionId: id }),
      JSON.stringify(next("user", text("And now?"))),
      JSON.stringify(next("assistant", text("Done."))),
      '{"parentUuid":"torn',
    ];
    await write(id, lines);
    const ours = await sdkTranscripts.messages(id, CWD);
    expect(ours).toEqual(await getSessionMessages(id, { dir: CWD }));
    expect(ours.map((m) => m.type)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    // Only the records the chain can use were parsed.
    const entries = await readTranscriptEntries(join(project, `${id}.jsonl`));
    expect(entries.map((e) => e.type)).toEqual([
      "queue-operation",
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
  });

  it("gives the SDK's messages for a rewound conversation and a sidechain", async () => {
    const id = randomUUID();
    const next = chain(id);
    const text = (t: string) => [{ type: "text", text: t }];
    const first = next("user", text("First try"));
    const abandoned = next("assistant", text("Abandoned answer"));
    // The user went back to before the first prompt: a second root continues.
    const again = {
      ...chain(id)("user", text("Second try")),
      timestamp: "2026-12-04T02:00:00.000Z",
    };
    const answer = {
      ...next("assistant", text("Kept answer")),
      parentUuid: again.uuid,
      timestamp: "2026-12-04T02:01:00.000Z",
    };
    const side = { ...next("user", text("A subagent's prompt")), isSidechain: true };
    await write(
      id,
      [first, abandoned, again, answer, side].map((entry) => JSON.stringify(entry)),
    );
    const ours = await sdkTranscripts.messages(id, CWD);
    expect(ours).toEqual(await getSessionMessages(id, { dir: CWD }));
  });

  it("an id that is not a session id names no file, and a session in no project of the cwd is looked up as the SDK does", async () => {
    expect(await sdkTranscripts.messages("../../etc/passwd", CWD)).toEqual([]);
    expect(await sdkTranscripts.messages(randomUUID(), "/elsewhere")).toEqual([]);
  });
});
