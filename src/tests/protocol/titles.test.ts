// A conversation Claude Code does not title gets a title generated the way Claude Code does
// it (its title generation request, from the first prompt), sent as session_info_update:
// after a turn, and when a session is loaded or resumed.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, type SessionNotification } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { fakeClaude, result } from "../support/fake-claude.js";
import { fakeTranscripts } from "../support/fake-transcripts.js";
import { connectInProcess, isolatedEnv } from "../support/in-process.js";
import {
  clientTitle,
  PROMPT_TITLE_MAX_CHARS,
  promptTitle,
  TITLED_FIRST_LOOK_MS,
  TitleWatcher,
  type TitleSource,
} from "../../session/stream/titles.js";

const cwd = mkdtempSync(join(tmpdir(), "titles-test-"));
const SAVED = "7c1f7a52-64e0-4b2f-8d7e-3a8a5e0f1b11";
let cleanup: Array<() => void> = [];
afterEach(() => {
  cleanup.forEach((fn) => fn());
  cleanup = [];
});

async function setup(env: NodeJS.ProcessEnv = {}) {
  const claude = fakeClaude();
  const transcripts = fakeTranscripts();
  const harness = await connectInProcess({
    startQuery: claude.startQuery,
    transcripts,
    env: isolatedEnv(env),
  });
  cleanup.push(() => harness.close());
  return { ...harness, claude, transcripts, newSession: () => harness.newSession(cwd) };
}

const tick = (ms = 30) => new Promise((resolve) => setTimeout(resolve, ms));
const titles = (updates: SessionNotification[]) =>
  updates.flatMap((n) =>
    n.update.sessionUpdate === "session_info_update" ? [n.update.title] : [],
  );

describe("generated titles", () => {
  it("when Claude Code does not title (non-essential traffic off), the first turn's end generates one from the first prompt", async () => {
    const { agent, claude, transcripts, updates, newSession } = await setup({
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    });
    const sessionId = await newSession();
    const query = claude.started.at(-1)!;
    query.generatedTitle = "Login\u0007 bug\tfix";
    transcripts.add({ sessionId, cwd, firstPrompt: "Fix the login bug." });
    const response = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "Fix the login bug." }],
    });
    await query.waitForSent(1);
    query.emit(result());
    await response;
    await tick();
    expect(query.titleRequests).toEqual(["Fix the login bug."]);
    expect(titles(updates)).toEqual(["Login bug fix"]);
  });

  it("when Claude Code's title generation gives no title, the first turn's end sends one made from the first prompt", async () => {
    const { agent, claude, transcripts, updates, newSession } = await setup({
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    });
    const sessionId = await newSession();
    const query = claude.started.at(-1)!;
    query.generatedTitle = undefined;
    transcripts.add({ sessionId, cwd, firstPrompt: "Fix the login bug.\nIt fails on Safari." });
    const response = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "Fix the login bug.\nIt fails on Safari." }],
    });
    await query.waitForSent(1);
    query.emit(result());
    await response;
    await tick();
    expect(query.titleRequests).toEqual(["Fix the login bug.\nIt fails on Safari."]);
    expect(titles(updates)).toEqual(["Fix the login bug."]);
  });

  it("when Claude Code titles by itself, the end of a turn does not ask for a title at once", async () => {
    const { agent, claude, transcripts, newSession } = await setup();
    const sessionId = await newSession();
    const query = claude.started.at(-1)!;
    transcripts.add({ sessionId, cwd, firstPrompt: "Fix the login bug." });
    const response = agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "Fix the login bug." }],
    });
    await query.waitForSent(1);
    query.emit(result());
    await response;
    await tick();
    expect(query.titleRequests).toEqual([]);
  });

  for (const method of ["load", "resume"] as const) {
    it(`session/${method} of a conversation without a title generates one and sends it`, async () => {
      const { agent, claude, transcripts, updates } = await setup();
      transcripts.add({ sessionId: SAVED, cwd, firstPrompt: "Run the tests." });
      await agent.request(methods.agent.session[method], { sessionId: SAVED, cwd, mcpServers: [] });
      await tick();
      expect(claude.started.at(-1)!.titleRequests).toEqual(["Run the tests."]);
      expect(titles(updates)).toEqual(["Generated title"]);
    });

    it(`session/${method} of a titled conversation sends its title and generates none`, async () => {
      const { agent, claude, transcripts, updates } = await setup();
      transcripts.add({ sessionId: SAVED, cwd, customTitle: "Flaky tests", firstPrompt: "Run." });
      await agent.request(methods.agent.session[method], { sessionId: SAVED, cwd, mcpServers: [] });
      await tick();
      expect(claude.started.at(-1)!.titleRequests).toEqual([]);
      expect(titles(updates)).toEqual(["Flaky tests"]);
    });
  }
});

describe("the looks for a title after a turn", () => {
  /** A watcher over a transcript that counts its reads. */
  function watcher(title?: string) {
    const reads = { count: 0 };
    const published: string[] = [];
    const source = {
      info: () => {
        reads.count++;
        return Promise.resolve({
          sessionId: SAVED,
          summary: "",
          lastModified: 0,
          ...(title ? { customTitle: title } : {}),
        });
      },
      generate: () => Promise.resolve(undefined),
      titlesItself: true,
    };
    const titles = new TitleWatcher(source, (t) => {
      published.push(t);
      return Promise.resolve();
    });
    return { reads, published, titles };
  }

  it("before a title is out, the transcript is read at once when a turn ends", async () => {
    const { reads, titles } = watcher();
    titles.afterTurn();
    await tick(20);
    expect(reads.count).toBe(1);
    titles.stop();
  });

  it(`once a title is out, the first read waits ${TITLED_FIRST_LOOK_MS} ms, and a turn started meanwhile clears it`, async () => {
    const { reads, published, titles } = watcher("Flaky tests");
    await titles.afterOpen();
    expect(published).toEqual(["Flaky tests"]);
    reads.count = 0;
    titles.afterTurn();
    await tick(50);
    expect(reads.count).toBe(0);
    titles.stop(); // the next turn
    await tick(TITLED_FIRST_LOOK_MS);
    expect(reads.count).toBe(0);
    titles.afterTurn();
    await tick(TITLED_FIRST_LOOK_MS + 100);
    expect(reads.count).toBe(1);
    titles.stop();
  });
});

describe("when Claude Code gives no title, the first prompt makes one", () => {
  /** A conversation with no title yet, whose first prompt is `firstPrompt`. */
  function untitled(generate: TitleSource["generate"], firstPrompt = "Fix the login bug.") {
    const published: string[] = [];
    const source: TitleSource = {
      info: () =>
        Promise.resolve({ sessionId: SAVED, summary: firstPrompt, lastModified: 0, firstPrompt }),
      generate,
      titlesItself: false,
    };
    const watcher = new TitleWatcher(source, (title) => {
      published.push(title);
      return Promise.resolve();
    });
    return { published, watcher };
  }

  it.each([
    ["its request fails", () => Promise.reject(new Error("control request failed"))],
    ["it answers no title (the reply was not JSON)", () => Promise.resolve(undefined)],
    ["it answers an empty title", () => Promise.resolve("")],
    ["its title is only control characters", () => Promise.resolve("\u001b[0m\u0007 ")],
  ])("when %s, the prompt's title is published", async (_rule, generate) => {
    const { published, watcher } = untitled(generate);

    await watcher.afterOpen();

    expect(published).toEqual(["Fix the login bug."]);
  });

  it("when Claude Code gives a title, that title is published, not the prompt's", async () => {
    const { published, watcher } = untitled(() => Promise.resolve("Login bug"));

    await watcher.afterOpen();

    expect(published).toEqual(["Login bug"]);
  });

  it("Claude Code is asked once: a later look publishes nothing new and asks again for nothing", async () => {
    let asked = 0;
    const { published, watcher } = untitled(() => {
      asked++;
      return Promise.resolve(undefined);
    });

    await watcher.afterOpen();
    await watcher.afterOpen();

    expect(asked).toBe(1);
    expect(published).toEqual(["Fix the login bug."]);
  });
});

describe("the title made from a prompt", () => {
  const long = "Fix the login bug that only shows up on Safari when the session cookie expired";

  it.each([
    ["a short prompt is the title as it is", "Fix the login bug.", "Fix the login bug."],
    ["only the first line counts", "Fix the login bug.\nIt fails on Safari.", "Fix the login bug."],
    ["blank lines before it are skipped", "\n  \r\nFix it\nnow", "Fix it"],
    [
      "escape sequences and control characters go, runs of whitespace become one space",
      "  \u001b[31mFix\u001b[0m the\t login\u0007 bug\u202e ",
      "Fix the login bug",
    ],
    [
      "a longer line is cut after its last whole word that fits, with an ellipsis",
      long,
      "Fix the login bug that only shows up on Safari when the…",
    ],
    [
      "punctuation left at the cut goes before the ellipsis",
      "Fix these: the login bug, the logout bug, the signup bug; and the timeouts",
      "Fix these: the login bug, the logout bug, the signup bug…",
    ],
    [
      "a cut that would leave only punctuation is made inside the word instead",
      `${",".repeat(30)} ${"y".repeat(80)}`,
      `${",".repeat(30)} ${"y".repeat(PROMPT_TITLE_MAX_CHARS - 32)}…`,
    ],
    [
      "one word longer than the limit is cut inside it",
      "x".repeat(100),
      `${"x".repeat(PROMPT_TITLE_MAX_CHARS - 1)}…`,
    ],
  ])("%s", (_rule, prompt, title) => {
    expect(promptTitle(prompt)).toBe(title);
  });

  it(`a title is at most ${PROMPT_TITLE_MAX_CHARS} characters (code points), the ellipsis included`, () => {
    const emoji = "🙂".repeat(100);

    expect([...promptTitle(long)!].length).toBeLessThanOrEqual(PROMPT_TITLE_MAX_CHARS);
    expect(promptTitle(emoji)).toBe(`${"🙂".repeat(PROMPT_TITLE_MAX_CHARS - 1)}…`);
  });

  it("a prompt with nothing to show makes no title", () => {
    expect(promptTitle(" \n\t\u001b[0m\n")).toBeUndefined();
  });

  it("format characters show nothing: a line of only them and whitespace is skipped", () => {
    expect(promptTitle("\u200b\u2060 \ufeff\n\u200e\u2064")).toBeUndefined();
    expect(promptTitle("\u200b \u200f\nFix it")).toBe("Fix it");
  });
});

describe("the title a client sets", () => {
  it.each([
    ["controls, a space and a zero-width space", "\u0000\u0001 \u200b"],
    ["zero-width and direction marks", "\u200b\u200c\u200d\u200e\u200f"],
    [
      "word joiner and invisible operators, byte order mark",
      "\u2060\u2061\u2062\u2063\u2064\ufeff",
    ],
    ["whitespace of other scripts with format characters", "\u3000\u00a0\u200b\t"],
  ])("nothing visible (%s): no title", (_, title) => {
    expect(clientTitle(title)).toBeUndefined();
  });

  it("format characters beside visible ones are kept: a joined emoji stays whole", () => {
    expect(clientTitle("\u200bFix\u00a0it \u{1f468}\u200d\u{1f4bb}")).toBe(
      "\u200bFix it \u{1f468}\u200d\u{1f4bb}",
    );
  });
});
