// Claude Code's saved conversations as a listing reads them: which transcripts there are
// and when each last changed (names and file metadata only), and the row of each, read
// from the transcript's ends (transcript-rows.ts) once per change of the file, so a page
// reads only the rows it shows and a changed transcript is read again alone.
import { statSync, type Stats } from "node:fs";
import { readdir, realpath } from "node:fs/promises";
import { join } from "node:path";
import { archiveMark } from "./archive-marks.js";
import { isSessionId } from "./session-id.js";
import { readEnds, rowOf, type ClaudeSessionRow } from "./transcript-rows.js";
import type { SDKSessionInfo as ClaudeSessionInfo } from "@anthropic-ai/claude-agent-sdk";

/** A saved conversation in a listing, before its row is read. */
export interface SavedSession {
  sessionId: string;
  /** Milliseconds since the epoch, as the listing reports it. */
  lastModified: number;
  /** Its transcript. */
  path: string;
  /** Whether Claude Code's listing shows it archived. */
  archived: boolean;
}

/** Claude Code names a project directory after the cwd, every other character a dash. */
const projectName = (dir: string) => dir.replace(/[^a-zA-Z0-9]/g, "-");
/** A longer name is cut here and given a hash of the path, which only Claude Code knows. */
const NAME_LIMIT = 200;

/** Whether a project directory's name can hold sessions of `dir`. */
export function holds(name: string, dir: string): boolean {
  const wanted = projectName(dir);
  return wanted.length <= NAME_LIMIT
    ? name === wanted
    : name.startsWith(`${wanted.slice(0, NAME_LIMIT)}-`);
}

/** Newest first, then by id descending (Claude Code's order). */
export function newestFirst(
  a: Pick<SavedSession, "lastModified" | "sessionId">,
  b: Pick<SavedSession, "lastModified" | "sessionId">,
): number {
  return (
    b.lastModified - a.lastModified ||
    (a.sessionId < b.sessionId ? 1 : a.sessionId > b.sessionId ? -1 : 0)
  );
}

interface CachedRow {
  mtime: number;
  size: number;
  row: ClaudeSessionRow | undefined;
}

/** Stats between two turns of the event loop while listing. */
const STATS_PER_TURN = 2_000;

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/**
 * A cached row as things are now: archived or not, and in a worktree Claude Code made only
 * while that worktree is still there (a linked worktree has a `.git` file, not a directory).
 */
function now(row: ClaudeSessionRow, archived: boolean): ClaudeSessionRow {
  const { agentWorktree, ...rest } = row;
  const linked = agentWorktree === true && !!row.cwd && statOf(join(row.cwd, ".git"))?.isFile();
  return { ...rest, archived, ...(linked ? { agentWorktree: true } : {}) };
}

/** Rows kept in memory: about a few hundred bytes each. */
const ROWS_KEPT = 100_000;

export class SessionIndex {
  private readonly cache = new Map<string, CachedRow>();

  constructor(
    private readonly projectsDir: () => string,
    /** The SDK's own row of a session, for a transcript whose title needs its first prompt. */
    private readonly sdkRow: (sessionId: string) => Promise<ClaudeSessionInfo | undefined>,
  ) {}

  /** The conversations kept for `dirs` (every project's when none), newest first. */
  async sessions(dirs?: readonly string[]): Promise<SavedSession[]> {
    const projects = this.projectsDir();
    const names = await readdir(projects).catch((): string[] => []);
    const wanted = dirs ? names.filter((name) => dirs.some((dir) => holds(name, dir))) : names;
    const found: SavedSession[] = [];
    for (const name of wanted) {
      const project = join(projects, name);
      const files = await readdir(project).catch((): string[] => []);
      // Only a session with a directory beside its transcript can have an archive mark.
      const names = new Set(files);
      for (const [i, file] of files.entries()) {
        if (!file.endsWith(".jsonl")) continue;
        // Synchronous stats (a few µs each, against a thread-pool round trip each), with a
        // turn of the event loop every so often so other sessions' streams go on.
        if (i % STATS_PER_TURN === STATS_PER_TURN - 1) await new Promise(setImmediate);
        const path = join(project, file);
        const stats = statOf(path);
        if (!stats?.isFile() || stats.size === 0) continue;
        const sessionId = file.slice(0, -6);
        const lastModified = stats.mtime.getTime();
        const archived =
          names.has(sessionId) && (await this.archived(sessionId, path, lastModified));
        found.push({ sessionId, lastModified, path, archived });
      }
    }
    return found.sort(newestFirst);
  }

  /**
   * The saved conversations of these ids, wherever Claude Code keeps them (in the projects of
   * `dirs` only, when given), in the order asked; an id with no transcript (or that cannot be
   * a session id) is left out. Of two copies of one conversation (in two projects), the newer.
   */
  async find(sessionIds: readonly string[], dirs?: readonly string[]): Promise<SavedSession[]> {
    const ids = sessionIds.filter(isSessionId);
    if (!ids.length) return [];
    const projects = this.projectsDir();
    const found = new Map<string, { path: string; lastModified: number }>();
    for (const name of await readdir(projects).catch((): string[] => [])) {
      if (dirs && !dirs.some((dir) => holds(name, dir))) continue;
      for (const sessionId of ids) {
        const path = join(projects, name, `${sessionId}.jsonl`);
        const stats = statOf(path);
        if (!stats?.isFile() || stats.size === 0) continue;
        const lastModified = stats.mtime.getTime();
        if ((found.get(sessionId)?.lastModified ?? -Infinity) < lastModified) {
          found.set(sessionId, { path, lastModified });
        }
      }
    }
    const saved: SavedSession[] = [];
    for (const sessionId of ids) {
      const copy = found.get(sessionId);
      if (!copy) continue;
      const archived = await this.archived(sessionId, copy.path, copy.lastModified);
      saved.push({ sessionId, ...copy, archived });
    }
    return saved;
  }

  /**
   * The transcript of a session of `dir` (as spelt, or its real path) in the project Claude
   * Code names after it; undefined when it is not there (the SDK also looks in the git
   * worktrees of `dir`). Only a session id that can be one names a file.
   */
  async transcript(sessionId: string, dir: string): Promise<string | undefined> {
    if (!isSessionId(sessionId)) return undefined;
    const projects = this.projectsDir();
    const dirs = [dir, await realpath(dir).catch(() => dir)];
    for (const name of await readdir(projects).catch((): string[] => [])) {
      if (!dirs.some((spelling) => holds(name, spelling))) continue;
      const path = join(projects, name, `${sessionId}.jsonl`);
      const stats = statOf(path);
      if (stats?.isFile() && stats.size > 0) return path;
    }
    return undefined;
  }

  /**
   * Each session's row as its transcript is now (its `lastModified` too); undefined for a
   * session that is gone or that Claude Code's listing leaves out.
   */
  rows(sessions: readonly SavedSession[]): Promise<(ClaudeSessionRow | undefined)[]> {
    return Promise.all(sessions.map((session) => this.row(session)));
  }

  private async row(session: SavedSession): Promise<ClaudeSessionRow | undefined> {
    const stats = statOf(session.path);
    if (!stats) return undefined;
    const cached = this.cache.get(session.path);
    const archived = await this.archived(session.sessionId, session.path, stats.mtime.getTime());
    if (cached && cached.mtime === stats.mtime.getTime() && cached.size === stats.size) {
      return cached.row && now(cached.row, archived);
    }
    const ends = readEnds(session.path);
    if (!ends) return undefined;
    const read = rowOf(session.sessionId, ends);
    const row =
      read === "first-prompt" ? await this.sdkRow(session.sessionId) : (read ?? undefined);
    if (this.cache.size >= ROWS_KEPT) this.cache.clear();
    this.cache.set(session.path, { mtime: ends.mtime, size: ends.size, row });
    return row && now(row, archived);
  }

  /**
   * Whether Claude Code's listing shows a session archived: its mark says so and no prompt
   * was sent since. A transcript not written to since the mark has none; one that was is
   * asked of the SDK, whose rules say what a prompt is.
   */
  private async archived(sessionId: string, path: string, lastModified: number): Promise<boolean> {
    const mark = archiveMark(path, sessionId);
    if (!mark?.archived) return false;
    if (lastModified <= mark.atMs) return true;
    return (await this.sdkRow(sessionId))?.archived === true;
  }
}
