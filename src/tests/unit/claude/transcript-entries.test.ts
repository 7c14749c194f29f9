// session/load reads a transcript itself (claude/transcript-entries.ts) and lets the SDK take
// the conversation from those entries: the messages agree with the SDK's own reading of the
// file, whatever the file's lines are like: lines longer than a read chunk, records skipped
// unparsed, attachments read without their content, a torn last line, blank and foreign
// lines, a rewound branch, a sidechain.
import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getSessionMessages } from "@anthropic-ai/claude-agent-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readTranscriptEntries } from "../../../claude/transcript-entries.js";
import { sdkTranscripts } from "../../../claude/transcripts.js";

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

  it("reads an attachment's type and links, not its content, except a queued command's: the SDK's messages are the same", async () => {
    const id = randomUUID();
    const next = chain(id);
    const text = (t: string) => [{ type: "text", text: t }];
    let parent: string | null = null;
    let minute = 30;
    /** An attachment as Claude Code writes it: links, the value, then its type and uuid. */
    const attachment = (value: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
      const uuid = randomUUID();
      const line = JSON.stringify({
        parentUuid: parent,
        isSidechain: false,
        attachment: value,
        type: "attachment",
        uuid,
        timestamp: new Date(Date.UTC(2026, 11, 4, 1, minute++)).toISOString(),
        cwd: CWD,
        sessionId: id,
        ...extra,
      });
      parent = uuid;
      return line;
    };
    const link = <T extends { uuid: string }>(entry: T): T => {
      const linked = { ...entry, ...(parent ? { parentUuid: parent } : {}) };
      parent = entry.uuid;
      return linked;
    };
    const prompt = link(next("user", text("Start")));
    const snapshot = attachment(
      {
        type: "prompt_snapshot",
        // Content that nests what the value's end looks like, strings with quotes and braces,
        // and text outside latin1.
        messages: [
          { attachment: { type: "x" }, type: "attachment", uuid: "nested" },
          '},"type":"attachment","uuid":"not-the-end',
          "ünïcødé ✓",
        ],
      },
      { rendered: [{ content: "<system-reminder>a</system-reminder>" }] },
    );
    const listing = attachment({ type: "skill_listing", skills: ["a", "b"] });
    const call = link(
      next("assistant", [{ type: "tool_use", id: "toolu_q", name: "Bash", input: {} }]),
    );
    const queued = attachment({
      type: "queued_command",
      prompt: "and also this",
      commandMode: "prompt",
    });
    const result = link(
      next("user", [{ type: "tool_result", tool_use_id: "toolu_q", content: "ok" }]),
    );
    const answer = link(next("assistant", text("Done.")));
    await write(id, [
      JSON.stringify(prompt),
      snapshot,
      listing,
      JSON.stringify(call),
      queued,
      JSON.stringify(result),
      JSON.stringify(answer),
    ]);
    const ours = await sdkTranscripts.messages(id, CWD);
    expect(ours).toEqual(await getSessionMessages(id, { dir: CWD }));
    expect(JSON.stringify(ours)).toContain("and also this");
    const entries = await readTranscriptEntries(join(project, `${id}.jsonl`));
    const attachments = entries.filter((e) => e.type === "attachment");
    expect(attachments.map((e) => e.attachment)).toEqual([
      { type: "prompt_snapshot" },
      { type: "skill_listing" },
      { type: "queued_command", prompt: "and also this", commandMode: "prompt" },
    ]);
    // Everything but the value is read: links, time, and the fields after it.
    expect(attachments[0]).toMatchObject({
      ...(JSON.parse(snapshot) as object),
      attachment: { type: "prompt_snapshot" },
    });
  });

  it("an attachment in another layout than Claude Code's, or an attachment's shape inside another entry, is read whole", async () => {
    const id = randomUUID();
    const next = chain(id);
    const first = next("user", [{ type: "text", text: "Hi" }]);
    // The type before the value, and a value that is not an object of a type first.
    const typeFirst = {
      type: "attachment",
      parentUuid: first.uuid,
      isSidechain: false,
      attachment: { type: "date", date: "2026-12-04" },
      uuid: randomUUID(),
      sessionId: id,
    };
    const otherOrder = {
      parentUuid: typeFirst.uuid,
      isSidechain: false,
      attachment: { date: "2026-12-04", type: "date" },
      type: "attachment",
      uuid: randomUUID(),
      sessionId: id,
    };
    // Another key between the value and the entry's type: it is read, not cut with the value.
    const keyBetween = {
      parentUuid: otherOrder.uuid,
      isSidechain: false,
      attachment: { type: "date", date: "2026-12-04" },
      origin: { kind: "human" },
      type: "attachment",
      uuid: randomUUID(),
      sessionId: id,
    };
    // A user entry with an attachment-shaped value inside it: nothing of it is cut.
    const nested = {
      ...next("user", [{ type: "text", text: "Look" }]),
      parentUuid: keyBetween.uuid,
    };
    const { parentUuid, ...rest } = nested;
    const holding = {
      parentUuid,
      x: { attachment: { type: "date", date: "2026-12-04" }, type: "attachment", uuid: "u" },
      ...rest,
    };
    await write(
      id,
      [first, typeFirst, otherOrder, keyBetween, holding].map((entry) => JSON.stringify(entry)),
    );
    const entries = await readTranscriptEntries(join(project, `${id}.jsonl`));
    expect(entries.slice(1)).toEqual([typeFirst, otherOrder, keyBetween, holding]);
  });

  it("an id that is not a session id names no file, and a session in no project of the cwd is looked up as the SDK does", async () => {
    expect(await sdkTranscripts.messages("../../etc/passwd", CWD)).toEqual([]);
    expect(await sdkTranscripts.messages(randomUUID(), "/elsewhere")).toEqual([]);
  });
});
