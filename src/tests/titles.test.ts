// A conversation Claude Code does not title gets a title generated the way Claude Code does
// it (its title generation request, from the first prompt), sent as session_info_update:
// after a turn, and when a session is loaded or resumed.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, type SessionNotification } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { fakeClaude, result } from "./support/fake-claude.js";
import { fakeTranscripts } from "./support/fake-transcripts.js";
import { connectInProcess, isolatedEnv } from "./support/in-process.js";
import { TITLED_FIRST_LOOK_MS, TitleWatcher } from "../session/titles.js";

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
