// End-to-end: sessions and the spare against hostile clients — one id is one Claude Code
// process, the spare is one process whatever initialize says, sessions stay in the
// directory they were recorded in, and closing mid-turn or echoing huge input stays quiet.
import { execFileSync } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { methods } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import {
  type E2E,
  poll,
  shareAgents,
  sleep,
  startE2E,
  stopAllE2E,
} from "../../support/e2e/index.js";
import {
  claudeProcesses,
  claudeProcessOf,
  INVALID_PARAMS,
  processEnds,
  rawError,
} from "../../support/e2e-sessions/index.js";

afterEach(stopAllE2E);
shareAgents();

/** A saved session of `cwd` (one prompt answered), closed again; its Claude Code process gone. */
async function savedSession(e2e: E2E, cwd = e2e.cwd): Promise<string> {
  const { sessionId } = await e2e.newSession({ cwd });
  await e2e.prompt(sessionId, `Hello from ${cwd}.`);
  const claude = await claudeProcessOf(e2e, sessionId);
  await e2e.client.request(methods.agent.session.close, { sessionId });
  if (claude) expect(await processEnds(e2e, claude.pid)).toBe(true);
  return sessionId;
}

/** Samples the run's Claude Code processes while `work` runs; resolves with the most seen at once. */
async function mostAtOnce<T>(
  e2e: E2E,
  work: Promise<T>,
  filter: (command: string) => boolean = () => true,
): Promise<{ result: T; most: number }> {
  let done = false;
  let most = 0;
  const sampling = (async () => {
    while (!done) {
      const live = (await claudeProcesses(e2e)).filter((p) => filter(p.command));
      most = Math.max(most, live.length);
      await sleep(50);
    }
  })();
  try {
    return { result: await work, most };
  } finally {
    done = true;
    await sampling;
  }
}

async function listed(e2e: E2E, cwd: string, meta?: Record<string, unknown>): Promise<string[]> {
  const response = await e2e.client.request(methods.agent.session.list, {
    cwd,
    ...(meta ? { _meta: meta } : {}),
  });
  return response.sessions.map((s) => s.sessionId).sort();
}

describe("one session id is one Claude Code process", () => {
  it("concurrent loads and resumes of one id each succeed or fail clearly, never run two processes at once, and close leaves none", async () => {
    const e2e = await startE2E();
    const sessionId = await savedSession(e2e);
    const at = { sessionId, cwd: e2e.cwd, mcpServers: [] };

    const opens = Promise.allSettled([
      ...Array.from({ length: 3 }, () => e2e.client.request(methods.agent.session.load, at)),
      ...Array.from({ length: 2 }, () => e2e.client.request(methods.agent.session.resume, at)),
    ]);
    const { result, most } = await mostAtOnce(e2e, opens, (c) => c.includes(sessionId));

    for (const outcome of result) {
      if (outcome.status === "rejected") {
        expect(outcome.reason).toMatchObject({ code: expect.any(Number) as number });
        expect(String((outcome.reason as { message?: unknown }).message)).not.toBe("");
      }
    }
    expect(result.some((o) => o.status === "fulfilled")).toBe(true);
    expect(most).toBeLessThanOrEqual(1);
    await e2e.client.request(methods.agent.session.close, { sessionId });
    expect(await claudeProcessesGone(e2e)).toEqual([]);
  });

  it("a close or delete sent while a load of the same id is starting is not undone by it", async () => {
    const e2e = await startE2E();
    const closedId = await savedSession(e2e);
    const deletedId = await savedSession(e2e);
    const open = (sessionId: string) =>
      e2e.client
        .request(methods.agent.session.load, { sessionId, cwd: e2e.cwd, mcpServers: [] })
        .then(
          () => "loaded",
          () => "failed",
        );

    const outcomes = await Promise.all([
      open(closedId),
      e2e.client.request(methods.agent.session.close, { sessionId: closedId }).then(() => "closed"),
      open(deletedId),
      e2e.client.request(methods.agent.session.delete, { sessionId: deletedId }).then(
        () => "deleted",
        () => "delete failed",
      ),
    ]);

    expect(outcomes).toEqual(["loaded", "closed", "loaded", "deleted"]);
    expect(await claudeProcessesGone(e2e)).toEqual([]);
    expect(await listed(e2e, e2e.cwd)).toEqual([closedId]);
  });
});

/** Waits up to 5 s for the run's Claude Code processes to end; returns those still there. */
async function claudeProcessesGone(e2e: E2E) {
  let left = await claudeProcesses(e2e);
  await poll(async () => {
    left = await claudeProcesses(e2e);
    return left.length === 0 ? true : undefined;
  }, 5_000);
  return left;
}

describe("the prewarmed spare is one process", () => {
  it("30 initialize calls with changing capabilities never hold more than one spare Claude Code process", async () => {
    const e2e = await startE2E({ env: { CLAUDE_AGENT_ACP_PREWARM: "1" } });
    const initializing = Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        e2e.initialize(i % 2 ? { elicitation: { form: {} } } : {}),
      ),
    );
    // The last capabilities win: a spare for them gets ready. Watched until then, and a while
    // after, for a second one started late.
    const ready = () =>
      poll(
        () =>
          Promise.resolve(
            e2e.log().includes("spare: a prewarmed Claude Code process is ready") || undefined,
          ),
        20_000,
      );
    const { most } = await mostAtOnce(
      e2e,
      initializing.then(ready).then(() => sleep(2_000)),
    );
    expect(most).toBeLessThanOrEqual(1);
  });
});

describe("sessions stay in the directory they were recorded in", () => {
  /** `<sandbox>/p-a-b` and `<sandbox>/p/a/b`: two directories, one Claude project directory. */
  async function twoDirectoriesOneProject(e2e: E2E) {
    const dashed = join(e2e.home, "..", "p-a-b");
    const nested = join(e2e.home, "..", "p", "a", "b");
    await mkdir(dashed, { recursive: true });
    await mkdir(nested, { recursive: true });
    return { dashed, nested };
  }

  it("session/list returns only the sessions recorded in the cwd asked for", async () => {
    const e2e = await startE2E();
    const { dashed, nested } = await twoDirectoriesOneProject(e2e);
    const inDashed = await savedSession(e2e, dashed);
    const inNested = await savedSession(e2e, nested);

    expect(await listed(e2e, nested)).toEqual([inNested]);
    expect(await listed(e2e, dashed)).toEqual([inDashed]);
  });

  it("load and resume under another cwd are refused unless the client asks for it; fork to it is allowed and lists there", async () => {
    // An agent of its own: what it lists under a folder must be this test's sessions alone.
    const e2e = await startE2E({ ownAgent: true });
    const { dashed, nested } = await twoDirectoriesOneProject(e2e);
    const sessionId = await savedSession(e2e, dashed);
    const elsewhere = { sessionId, cwd: nested, mcpServers: [] };

    const load = await rawError(e2e, "session/load", elsewhere);
    const resume = await rawError(e2e, "session/resume", elsewhere);
    expect([load?.code, resume?.code]).toEqual([INVALID_PARAMS, INVALID_PARAMS]);
    expect(load?.message).toContain(dashed);
    expect(await claudeProcesses(e2e)).toEqual([]);
    expect(e2e.updates.of(sessionId, "user_message_chunk")).toEqual([]);

    // Asked for explicitly, it opens there.
    await e2e.client.request(methods.agent.session.resume, {
      ...elsewhere,
      _meta: { claudeAgentAcp: { allowCwdChange: true } },
    });
    await e2e.client.request(methods.agent.session.close, { sessionId });

    const fork = await e2e.client.request<{ sessionId: string }>("session/fork", elsewhere);
    expect((await e2e.prompt(fork.sessionId, "In the fork.")).stopReason).toBe("end_turn");
    expect(await listed(e2e, nested)).toEqual([fork.sessionId]);
    expect(await listed(e2e, dashed)).toEqual([sessionId]);
  });

  it("session/list of a directory in a git repository leaves out its parent and the other worktrees", async () => {
    const e2e = await startE2E();
    const repo = join(e2e.home, "..", "repo");
    const sub = join(repo, "sub");
    const worktree = join(e2e.home, "..", "repo-wt");
    await mkdir(sub, { recursive: true });
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
        cwd: repo,
        stdio: "ignore",
      });
    try {
      git("init", "-q");
      git("commit", "-q", "--allow-empty", "-m", "init");
      git("worktree", "add", "-q", worktree);
    } catch {
      return; // no git here: the two-directories test covers the rule
    }
    const inRepo = await savedSession(e2e, repo);
    const inSub = await savedSession(e2e, sub);
    const inWorktree = await savedSession(e2e, worktree);

    expect(await listed(e2e, sub)).toEqual([inSub]);
    expect(await listed(e2e, repo)).toEqual([inRepo]);
    expect(await listed(e2e, worktree)).toEqual([inWorktree]);
    // Opting in adds the sessions at the roots of the repository's other worktrees.
    expect(await listed(e2e, repo, { claudeAgentAcp: { includeWorktrees: true } })).toEqual(
      [inRepo, inWorktree].sort(),
    );
  });
});

describe("quiet failures", () => {
  it("closing or deleting a session mid-turn logs no stack trace", async () => {
    const e2e = await startE2E({
      scenario: [
        { content: [{ type: "tool_use", name: "Bash", input: { command: "touch a" } }] },
        { content: [{ type: "tool_use", name: "Bash", input: { command: "touch b" } }] },
      ],
      permission: { answer: "never" },
    });
    for (const method of [methods.agent.session.close, methods.agent.session.delete]) {
      const { sessionId } = await e2e.newSession();
      const before = e2e.permissions.records.length;
      const turn = e2e.prompt(sessionId, "Touch a file.").catch(() => undefined);
      const asked = await poll(
        () => Promise.resolve(e2e.permissions.records.length > before || undefined),
        20_000,
      );
      expect(asked, "the turn waits on a permission request").toBe(true);
      await e2e.client.request(method, { sessionId });
      await turn;
    }
    await sleep(1_000);
    const warnings = e2e
      .log()
      .split("\n")
      .filter((line) => /\] (warn|error):/.test(line) || /^\s+at /.test(line));
    expect(warnings).toEqual([]);
  });

  it("error data echoes a huge invalid cwd or id only in part", async () => {
    const e2e = await startE2E();
    const huge = `relative/${"x".repeat(1_000_000)}`;
    const responses = [
      await e2e.rawRequest("session/new", { cwd: huge, mcpServers: [] }),
      await e2e.rawRequest("session/new", {
        cwd: e2e.cwd,
        mcpServers: [],
        additionalDirectories: [huge],
      }),
      await e2e.rawRequest("session/load", { sessionId: huge, cwd: e2e.cwd, mcpServers: [] }),
      await e2e.rawRequest("session/list", { cwd: huge }),
    ];
    for (const response of responses) {
      expect(response.error?.code).toBeDefined();
      expect(JSON.stringify(response).length).toBeLessThan(2_000);
    }
  });
});
