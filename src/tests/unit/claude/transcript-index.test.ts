// What the session index of AIR reads of Claude Code's files: which saved conversations of a
// folder change, from file events alone (a transcript written, made or removed, an archive
// mark's directory, a project directory made after the watch began, even a projects directory
// that did not exist); sessions found by id in any project; and whether a row's worktree is one
// Claude Code made.
import { appendFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SessionIndex } from "../../../claude/session-index.js";
import { madeWorktree } from "../../../claude/transcript-rows.js";
import { watchTranscripts, type TranscriptWatch } from "../../../claude/transcript-watch.js";

const CWD = "/work/project-a";
const OTHER = "/work/project-b";
const project = (dir: string) => dir.replace(/[^a-zA-Z0-9]/g, "-");
const A = "a1111111-1111-4111-8111-111111111111";
const B = "b2222222-2222-4222-8222-222222222222";

const line = (entry: Record<string, unknown>) => `${JSON.stringify(entry)}\n`;
const userLine = (sessionId: string, cwd = CWD) =>
  line({ type: "user", sessionId, cwd, message: { role: "user", content: "Hi." } });

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});

function watching(root: string, dirs: string[]) {
  const seen: string[] = [];
  const watch: TranscriptWatch = watchTranscripts(join(root, "projects"), dirs, (ids) =>
    seen.push(...ids),
  );
  cleanup.push(() => watch.close());
  return { seen, watch };
}

async function tempRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "transcript-watch-"));
  cleanup.push(() => rm(root, { recursive: true, force: true }));
  return root;
}

describe("watchTranscripts", () => {
  it("reports a transcript of the folder's project made, written and removed, by its session id", async () => {
    const root = await tempRoot();
    const dir = join(root, "projects", project(CWD));
    await mkdir(dir, { recursive: true });
    const { seen } = watching(root, [CWD]);
    await writeFile(join(dir, `${A}.jsonl`), userLine(A));
    await expect.poll(() => seen).toContain(A);
    seen.length = 0;
    await appendFile(join(dir, `${A}.jsonl`), userLine(A));
    await expect.poll(() => seen).toContain(A);
    seen.length = 0;
    await mkdir(join(dir, A)); // where Claude Code keeps its archive mark
    await expect.poll(() => seen).toContain(A);
    seen.length = 0;
    await rm(join(dir, `${A}.jsonl`));
    await expect.poll(() => seen).toContain(A);
  });

  it("watches a project directory made after it began, and a projects directory that did not exist, and reports their sessions", async () => {
    const root = await tempRoot();
    const { seen } = watching(root, [CWD]);
    const dir = join(root, "projects", project(CWD));
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, `${A}.jsonl`), userLine(A));
    await expect.poll(() => seen).toContain(A);
  });

  it("reports nothing of another folder's project, of files that name no session, or after it is closed", async () => {
    const root = await tempRoot();
    const mine = join(root, "projects", project(CWD));
    const other = join(root, "projects", project(OTHER));
    await mkdir(mine, { recursive: true });
    await mkdir(other, { recursive: true });
    const { seen, watch } = watching(root, [CWD]);
    await writeFile(join(other, `${B}.jsonl`), userLine(B, OTHER));
    await writeFile(join(mine, "notes.txt"), "x");
    await writeFile(join(mine, `${A}.jsonl`), userLine(A));
    await expect.poll(() => seen).toContain(A);
    expect(seen.filter((id) => id !== A)).toEqual([]);
    watch.close();
    seen.length = 0;
    await appendFile(join(mine, `${A}.jsonl`), userLine(A));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen).toEqual([]);
  });
});

describe("SessionIndex.find", () => {
  it("finds sessions by id in any project (or a folder's only), in the order asked, leaving out unknown, empty and malformed ids", async () => {
    const root = await tempRoot();
    const mine = join(root, "projects", project(CWD));
    const other = join(root, "projects", project(OTHER));
    await mkdir(mine, { recursive: true });
    await mkdir(other, { recursive: true });
    await writeFile(join(mine, `${A}.jsonl`), userLine(A));
    await writeFile(join(other, `${B}.jsonl`), userLine(B, OTHER));
    await writeFile(join(other, "c3333333-3333-4333-8333-333333333333.jsonl"), "");
    const index = new SessionIndex(
      () => join(root, "projects"),
      () => Promise.resolve(undefined),
    );
    const found = await index.find([
      B,
      "../../etc/passwd",
      "c3333333-3333-4333-8333-333333333333",
      A,
    ]);
    expect(found.map((s) => [s.sessionId, s.path])).toEqual([
      [B, join(other, `${B}.jsonl`)],
      [A, join(mine, `${A}.jsonl`)],
    ]);
    // Asked within a folder's projects (a listing's subscription), another folder's is left out.
    expect((await index.find([B, A], [CWD])).map((s) => s.sessionId)).toEqual([A]);
  });
});

describe("madeWorktree", () => {
  const state = (worktreeSession: unknown) =>
    line({ type: "worktree-state", worktreeSession, sessionId: A });

  it("the last worktree-state record decides: a worktree Claude Code made, one it entered, or none", () => {
    const made = { worktreePath: "/r/.claude/worktrees/x", enteredExisting: false };
    expect(madeWorktree(userLine(A))).toBeUndefined();
    expect(madeWorktree(state(made))).toBe(true);
    expect(madeWorktree(state({ ...made, enteredExisting: true }))).toBe(false);
    expect(madeWorktree(state(made) + state(null))).toBe(false);
    expect(madeWorktree(state(null) + state(made) + '{"type":"worktree-state", torn')).toBe(true);
  });
});

describe("a row's agentWorktree", () => {
  it("is set while the session works in a linked worktree Claude Code made, and goes with the worktree", async () => {
    const root = await tempRoot();
    const worktree = join(root, "repo", ".claude", "worktrees", "x");
    await mkdir(worktree, { recursive: true });
    await writeFile(join(worktree, ".git"), "gitdir: /elsewhere\n");
    const dir = join(root, "projects", project(worktree));
    await mkdir(dir, { recursive: true });
    const made = { worktreePath: worktree, enteredExisting: false };
    await writeFile(
      join(dir, `${A}.jsonl`),
      userLine(A, worktree) + line({ type: "worktree-state", worktreeSession: made, sessionId: A }),
    );
    const index = new SessionIndex(
      () => join(root, "projects"),
      () => Promise.resolve(undefined),
    );
    const [saved] = await index.find([A]);
    expect((await index.rows([saved!]))[0]?.agentWorktree).toBe(true);
    await rm(join(worktree, ".git"));
    expect((await index.rows([saved!]))[0]?.agentWorktree).toBeUndefined();
  });
});
