// The agent's own listing rows agree with the SDK's `listSessions` on the same transcripts:
// titles (a custom title, an AI title, the last prompt, a summary, the first prompt), the
// cwd (recorded or relocated), the time, and which transcripts are left out. The
// transcripts are written in Claude Code's line shapes, in a temp CLAUDE_CONFIG_DIR.
import { randomUUID } from "node:crypto";
import { appendFile, mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  archiveSession,
  getSessionInfo,
  listSessions,
  unarchiveSession,
} from "@anthropic-ai/claude-agent-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SessionIndex } from "../../../claude/session-index.js";
import {
  END_BYTES,
  firstPrompt,
  lastTurnFailed,
  lastValue,
} from "../../../claude/transcript-rows.js";

const CWD = "/work/project-a";
let root: string;
let projects: string;
const savedConfig = process.env.CLAUDE_CONFIG_DIR;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "transcript-rows-"));
  projects = join(root, "projects");
  await mkdir(join(projects, CWD.replace(/[^a-zA-Z0-9]/g, "-")), { recursive: true });
  process.env.CLAUDE_CONFIG_DIR = root;
});
afterAll(async () => {
  if (savedConfig === undefined) delete process.env.CLAUDE_CONFIG_DIR;
  else process.env.CLAUDE_CONFIG_DIR = savedConfig;
  await rm(root, { recursive: true, force: true });
});

const user = (content: unknown, extra: Record<string, unknown> = {}) => ({
  parentUuid: null,
  isSidechain: false,
  type: "user",
  message: { role: "user", content },
  uuid: randomUUID(),
  timestamp: "2026-12-04T01:46:55.002Z",
  cwd: CWD,
  gitBranch: "main",
  ...extra,
});
const assistant = (text: string) => ({
  type: "assistant",
  message: { role: "assistant", content: [{ type: "text", text }] },
  uuid: randomUUID(),
  timestamp: "2026-12-04T01:46:56.002Z",
  cwd: CWD,
});
const filler = (bytes: number) => assistant("x".repeat(bytes));

/** Writes a transcript of these entries, `minutesAgo` old; returns its id. */
async function transcript(entries: unknown[], minutesAgo: number): Promise<string> {
  const id = randomUUID();
  const file = join(projects, CWD.replace(/[^a-zA-Z0-9]/g, "-"), `${id}.jsonl`);
  const lines = entries.map((e) => JSON.stringify({ ...(e as object), sessionId: id }));
  await writeFile(file, `${lines.join("\n")}\n`);
  const at = Date.now() / 1000 - minutesAgo * 60;
  await utimes(file, at, at);
  return id;
}

describe("listing rows", () => {
  it("agree with the SDK's listSessions for every way a title, cwd and time are found", async () => {
    const ids = [
      // The last prompt.
      await transcript(
        [
          user("Fix the tests"),
          assistant("ok"),
          { type: "last-prompt", lastPrompt: "And the docs" },
        ],
        1,
      ),
      // A title the user gave wins over an AI title and the prompts; the last one counts.
      await transcript(
        [
          user("One"),
          { type: "ai-title", aiTitle: "AI title" },
          { type: "custom-title", customTitle: "Old name" },
          { type: "custom-title", customTitle: "New name" },
          { type: "last-prompt", lastPrompt: "One" },
        ],
        2,
      ),
      // An AI title alone.
      await transcript([user("Two"), { type: "ai-title", aiTitle: "Refactor the parser" }], 3),
      // A custom title only near the start of a long transcript, an AI title at its end.
      await transcript(
        [
          user("Three"),
          { type: "custom-title", customTitle: "Named early" },
          filler(END_BYTES + 1000),
          { type: "ai-title", aiTitle: "AI late" },
        ],
        4,
      ),
      // Moved to another directory.
      await transcript(
        [
          user("Four"),
          { type: "last-prompt", lastPrompt: "Four" },
          { type: "relocated", relocatedCwd: "/work/project-b" },
        ],
        5,
      ),
      // No last prompt: the first prompt, on one line; an interruption marker is skipped.
      await transcript(
        [user("[Request interrupted by user]"), user("Line one\nline two"), assistant("ok")],
        6,
      ),
      // A first prompt longer than a title may be.
      await transcript([user([{ type: "text", text: "word ".repeat(80) }]), assistant("ok")], 7),
      // A last prompt beyond the tail of a long transcript: the first prompt.
      await transcript(
        [
          user("Started here"),
          { type: "last-prompt", lastPrompt: "Lost in the middle" },
          filler(END_BYTES + 1000),
        ],
        8,
      ),
      // A first prompt with markup (a command): the SDK's own row.
      await transcript(
        [
          user("<command-name>/review</command-name>"),
          user("<b>bold</b> request"),
          assistant("ok"),
        ],
        9,
      ),
      // A subagent's transcript (sidechain) and one with no prompt at all are left out.
      await transcript(
        [
          { ...user("Sub"), isSidechain: true },
          { type: "last-prompt", lastPrompt: "Sub" },
        ],
        10,
      ),
      await transcript([assistant("only me")], 11),
    ];
    const sdk = await listSessions({
      dir: CWD,
      includeWorktrees: false,
      includeProgrammatic: true,
    });
    const index = new SessionIndex(
      () => projects,
      (sessionId) => getSessionInfo(sessionId),
    );
    const saved = await index.sessions([CWD]);
    expect(saved.map((s) => s.sessionId)).toEqual(ids);
    const ours = (await index.rows(saved)).filter((row) => row !== undefined);
    const fields = (rows: typeof ours) =>
      rows.map(({ sessionId, summary, customTitle, cwd, lastModified }) => ({
        sessionId,
        summary,
        customTitle,
        cwd,
        lastModified,
      }));
    // The SDK lists sessions moved elsewhere under their project too; so do we.
    expect(fields(ours)).toEqual(fields(sdk));
    expect(ours).toHaveLength(ids.length - 2);
  });

  it("say archived as the SDK does: the mark holds until a prompt comes after it, and what else is written does not lift it", async () => {
    const later = new Date(Date.now() + 60_000).toISOString();
    const ids = {
      never: await transcript([user("Never archived")], 20),
      archived: await transcript([user("Archived")], 21),
      unarchived: await transcript([user("Unarchived")], 22),
      prompted: await transcript([user("Prompted after")], 23),
      answered: await transcript([user("Answered after")], 24),
    };
    for (const id of [ids.archived, ids.unarchived, ids.prompted, ids.answered]) {
      await archiveSession(id);
    }
    await unarchiveSession(ids.unarchived);
    const file = (id: string) => join(projects, CWD.replace(/[^a-zA-Z0-9]/g, "-"), `${id}.jsonl`);
    const append = async (id: string, entry: object) => {
      await appendFile(file(id), `${JSON.stringify({ ...entry, sessionId: id })}\n`);
      const at = Date.now() / 1000 + 120;
      await utimes(file(id), at, at);
    };
    await append(ids.prompted, user("Back to work", { timestamp: later }));
    await append(ids.answered, { ...assistant("Still here"), timestamp: later });

    const sdk = await listSessions({ dir: CWD, includeWorktrees: false });
    const index = new SessionIndex(
      () => projects,
      (sessionId) => getSessionInfo(sessionId),
    );
    const saved = await index.sessions([CWD]);
    const rows = (await index.rows(saved)).filter((row) => row !== undefined);
    const expected = Object.fromEntries(
      Object.values(ids).map((id) => [id, sdk.find((s) => s.sessionId === id)?.archived === true]),
    );
    expect(expected).toEqual({
      [ids.never]: false,
      [ids.archived]: true,
      [ids.unarchived]: false,
      [ids.prompted]: false,
      [ids.answered]: true,
    });
    const archivedOf = (list: { sessionId: string; archived?: boolean }[]) =>
      Object.fromEntries(
        list.filter((s) => s.sessionId in expected).map((s) => [s.sessionId, s.archived]),
      );
    expect(archivedOf(saved)).toEqual(expected);
    expect(archivedOf(rows)).toEqual(expected);
  });

  it("a line that does not parse is skipped; two entries run together are read from the last", () => {
    const text = [
      JSON.stringify({ type: "custom-title", customTitle: "Good" }),
      `{"type":"custom-title","customTitle":"Cut`,
    ].join("\n");
    expect(lastValue(text, "customTitle", "custom-title", true)).toBe("Good");
    const joined = `{"type":"x","a":1}{"type":"custom-title","customTitle":"Joined"}`;
    expect(lastValue(joined, "customTitle", "custom-title", true)).toBe("Joined");
  });

  it("a transcript whose last assistant entry is Claude Code's record of an API error failed its last turn", () => {
    const failed = JSON.stringify({
      type: "assistant",
      message: { model: "<synthetic>", content: [{ type: "text", text: "API Error: 500" }] },
      error: "server_error",
      isApiErrorMessage: true,
    });
    expect(lastTurnFailed([JSON.stringify(user("Hi")), failed].join("\n"))).toBe(true);
    expect(lastTurnFailed([failed, JSON.stringify(assistant("Back."))].join("\n"))).toBe(false);
    expect(lastTurnFailed(JSON.stringify(user("Hi")))).toBe(false);
  });

  it("the first prompt skips tool results, meta and compaction messages", () => {
    const head = [
      JSON.stringify(user([{ type: "tool_result", content: "x" }])),
      JSON.stringify(user("meta", { isMeta: true })),
      JSON.stringify(user("summary", { isCompactSummary: true })),
      JSON.stringify(user("The real one")),
    ].join("\n");
    expect(firstPrompt(head)).toBe("The real one");
  });
});
