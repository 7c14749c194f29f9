import { randomUUID } from "node:crypto";
import type { SessionInfo } from "@agentclientprotocol/sdk";
import type {
  ClaudeSessionInfo,
  ClaudeSessionRow,
  ClaudeTranscripts,
  SavedSession,
} from "../../claude/transcripts.js";
import { z } from "zod";
import { echoed, InvalidParamsError } from "../../errors.js";
import { cleanSingleLine } from "../../util/text.js";
import { continuationId } from "./continuations.js";
import { gitWorktreeRoots, isOneOf, spellings } from "../configuration/directories.js";

/** Sessions per `session/list` page. */
export const LIST_PAGE_SIZE = 50;

/** A saved Claude conversation as an ACP session listing. Titles are cleaned. */
export function sessionInfo(
  info: ClaudeSessionInfo,
  fallbackCwd?: string,
): SessionInfo | undefined {
  const cwd = info.cwd ?? fallbackCwd;
  if (!cwd) return undefined;
  const title = cleanSingleLine(info.customTitle ?? info.summary ?? "");
  return {
    sessionId: info.sessionId,
    cwd,
    ...(title ? { title } : {}),
    updatedAt: new Date(info.lastModified).toISOString(),
  };
}

/**
 * Where the next page starts. Cursors are opaque to clients. The listing is ordered newest
 * first (by last modification, then id, as Claude Code orders it), and it moves while a client
 * pages: a conversation written to in between jumps to the front, a deleted one leaves a gap.
 * So the cursor names the last session shown, and the next page holds only sessions that come
 * after it. `listing` names the listing the first page was cut from while the agent keeps it,
 * and `offset` the position in it where the next page starts; without that listing (the agent
 * restarted), a new listing is read and the page starts after the cursor's last session.
 */
export interface ListCursor {
  offset: number;
  after?: { lastModified: number; sessionId: string };
  listing?: string;
}

export function encodeCursor(cursor: ListCursor): string {
  return Buffer.from(JSON.stringify(cursor), "utf8").toString("base64url");
}

const cursorSchema = z.object({
  offset: z.number().int().nonnegative(),
  after: z.object({ lastModified: z.number(), sessionId: z.string() }).optional(),
  listing: z.string().max(64).optional(),
});

export function decodeCursor(cursor: string | null | undefined): ListCursor {
  if (!cursor) return { offset: 0 };
  try {
    const parsed = cursorSchema.safeParse(
      JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")),
    );
    if (parsed.success) return parsed.data;
  } catch {
    // reported below
  }
  throw new InvalidParamsError("Invalid cursor.", { cursor });
}

/** Whether `info` comes after the cursor's session in the newest-first order. */
function comesAfter(info: SavedSession, after: ListCursor["after"]): boolean {
  if (!after) return true;
  if (info.lastModified !== after.lastModified) return info.lastModified < after.lastModified;
  return info.sessionId < after.sessionId;
}

/** The title Claude Code gave a conversation (an AI title or a /rename), if any. */
export function producedTitle(info: ClaudeSessionInfo | undefined): string | undefined {
  const title = info?.customTitle ? cleanSingleLine(info.customTitle) : "";
  return title || undefined;
}

/**
 * The directories whose sessions a listing of `cwd` shows: recorded in exactly that
 * directory (Claude Code keeps sessions of several directories in one project directory,
 * e.g. `/p-a-b` and `/p/a/b`), or, with `includeWorktrees`, at the root of another git
 * worktree of its repository.
 */
export async function listedDirs(cwd: string, includeWorktrees: boolean): Promise<Set<string>> {
  const accepted = await spellings(cwd);
  if (includeWorktrees) for (const root of await gitWorktreeRoots(cwd)) accepted.add(root);
  return accepted;
}

/** `session/list`'s archive filters (ACP's unstable `archived`); none given is `exclude`. */
const ARCHIVE_FILTERS = ["exclude", "include", "only"] as const;
export type ArchiveFilter = (typeof ARCHIVE_FILTERS)[number];

/** The filter a request asks for; one this agent does not know is refused, never guessed. */
export function archiveFilter(value: string | null | undefined): ArchiveFilter {
  if (value === null || value === undefined) return "exclude";
  const known = ARCHIVE_FILTERS.find((filter) => filter === value);
  if (known) return known;
  throw new InvalidParamsError(
    `Unknown archived filter "${echoed(value)}": use ${ARCHIVE_FILTERS.join(", ")}.`,
    { archived: value },
  );
}

function shown(filter: ArchiveFilter, archived: boolean | undefined): boolean {
  return filter === "include" || (filter === "only") === (archived === true);
}

export interface ListRequest {
  cwd?: string | null;
  cursor?: string | null;
  includeWorktrees: boolean;
  archived: ArchiveFilter;
  /** Sessions per page (LIST_PAGE_SIZE unless the client asked for another). */
  limit?: number;
}

/** A saved conversation as a listing's row: its state too (`_meta.claudeCode.state`). */
export function listedRow(info: ClaudeSessionRow, openState: OpenState): ListedSession | undefined {
  const row = sessionInfo(info);
  if (!row) return undefined;
  const state = openState(info.sessionId) ?? (info.lastTurnFailed ? "failed" : "idle");
  return {
    ...row,
    archived: info.archived === true,
    _meta: { claudeCode: { state } },
    ...(info.agentWorktree ? { agentWorktree: true } : {}),
  };
}

/** A page of a listing, and where the next starts. */
export interface ListedPage {
  sessions: ListedSession[];
  nextCursor?: string;
}

/** A listing's row: ACP's, and what a client's extension may show of it besides. */
export type ListedSession = SessionInfo & {
  archived: boolean;
  _meta: { claudeCode: { state: RowState } };
  /** The session works in a git worktree Claude Code made for it (not on the wire in v1). */
  agentWorktree?: true;
};

/** The saved conversations one request lists, in order, as its first page found them. */
interface Listing {
  key: string;
  /** The directories whose sessions it shows (none: every directory's). */
  dirs: ReadonlySet<string> | undefined;
  archived: ArchiveFilter;
  sessions: SavedSession[];
}

/**
 * A row's state (`_meta.claudeCode.state`): a turn (or Claude Code's own work) running in
 * this agent, or how the last turn ended: on an API error, or not.
 */
export type RowState = "running" | "failed" | "idle";

/** The state of a session open in this agent; undefined for one that is not. */
export type OpenState = (sessionId: string) => RowState | undefined;

/** Listings kept for the cursors of their pages; a cursor of an older one lists again. */
const LISTINGS_KEPT = 4;

/**
 * `session/list`. The first page lists the saved conversations from file metadata and keeps
 * that listing for its cursors; each page reads only the rows it shows (claude/session-index.ts),
 * leaving out a session deleted since and one written to since (it has moved to the front,
 * where the next listing from the top shows it).
 */
export class SessionHistory {
  private readonly listings = new Map<string, Listing>();

  constructor(
    private readonly transcripts: ClaudeTranscripts,
    private readonly openState: OpenState = () => undefined,
  ) {}

  async page(request: ListRequest): Promise<ListedPage> {
    const cursor = decodeCursor(request.cursor);
    const { archived } = request;
    const key = JSON.stringify([request.cwd ?? null, request.includeWorktrees, archived]);
    const kept = cursor.listing ? this.listings.get(cursor.listing) : undefined;
    const limit = request.limit ?? LIST_PAGE_SIZE;
    if (kept?.key === key) return this.cut(cursor.listing!, kept, cursor.offset, false, limit);
    // A first page, or a cursor of a listing no longer kept (the agent restarted): list
    // again, and go on after the cursor's last session.
    const id = randomUUID();
    const dirs = request.cwd ? await listedDirs(request.cwd, request.includeWorktrees) : undefined;
    // The filter applies before the pages are cut, as ACP asks.
    const saved = await this.transcripts.saved(dirs && [...dirs]);
    const sessions = saved.filter((session) => shown(archived, session.archived));
    const listing = { key, dirs, archived, sessions };
    this.listings.set(id, listing);
    for (const old of this.listings.keys()) {
      if (this.listings.size <= LISTINGS_KEPT) break;
      this.listings.delete(old);
    }
    const start = cursor.after
      ? listing.sessions.findIndex((session) => comesAfter(session, cursor.after))
      : 0;
    return this.cut(id, listing, start < 0 ? listing.sessions.length : start, true, limit);
  }

  /**
   * The page of `listing` from `start`: rows still there, as many as fit. A row written to
   * since the listing was read is left to the next listing's first page, which shows it
   * first; on a page read with its listing (`fresh`) it is shown as it is now, as no later
   * listing is asked for (a session that ends as the page is read writes its last lines).
   */
  private async cut(
    id: string,
    listing: Listing,
    start: number,
    fresh: boolean,
    limit: number,
  ): Promise<ListedPage> {
    const { dirs } = listing;
    const kept: ClaudeSessionRow[] = [];
    /** Where the last row kept stands in the listing, for the cursor. */
    let lastListed: SavedSession | undefined;
    let at = start;
    let next: ListCursor | undefined;
    while (at < listing.sessions.length && next === undefined) {
      const batch = listing.sessions.slice(at, at + limit + 1 - kept.length);
      const rows = await this.transcripts.rows(batch);
      for (const [i, row] of rows.entries()) {
        const listed = batch[i]!;
        if (!row || (!fresh && Math.abs(row.lastModified - listed.lastModified) >= 1)) continue;
        if (dirs && !isOneOf(row.cwd, dirs)) continue;
        // Archived or unarchived since the listing was read.
        if (!shown(listing.archived, row.archived)) continue;
        if (kept.length === limit) {
          const last = lastListed!;
          next = {
            listing: id,
            offset: at + i,
            after: { lastModified: last.lastModified, sessionId: last.sessionId },
          };
          break;
        }
        kept.push(row);
        lastListed = listed;
      }
      at += batch.length;
    }
    // A plan handoff's conversation is part of the session it continues, not one of its own.
    const continuations = new Set(kept.map((info) => continuationId(info.sessionId)));
    const sessions = kept
      .filter((info) => !continuations.has(info.sessionId))
      .flatMap((info) => listedRow(info, this.openState) ?? []);
    return { sessions, ...(next !== undefined ? { nextCursor: encodeCursor(next) } : {}) };
  }
}
