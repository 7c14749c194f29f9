import { randomUUID } from "node:crypto";
import type { ListSessionsResponse, SessionInfo } from "@agentclientprotocol/sdk";
import type { ClaudeSessionInfo, ClaudeTranscripts } from "../claude/transcripts.js";
import { z } from "zod";
import { InvalidParamsError } from "../errors.js";
import { cleanSingleLine } from "../util/text.js";
import { continuationId } from "./continuations.js";
import { gitWorktreeRoots, isOneOf, spellings } from "./directories.js";

/** Sessions per `session/list` page. */
export const LIST_PAGE_SIZE = 50;

/** A saved Claude conversation as an ACP session listing. Titles are cleaned. */
export function sessionInfo(
  info: Pick<ClaudeSessionInfo, "sessionId" | "cwd" | "customTitle" | "summary" | "lastModified">,
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
 * after it. `listing` names the listing the first page was cut from while the agent keeps it
 * (a later page then reads only its own rows); `offset` is the position after the last row
 * shown in Claude Code's listing, where reading starts again when that listing is gone.
 */
export interface ListCursor {
  offset: number;
  after?: { lastModified: number; sessionId: string };
  listing?: string;
}

/** How far before the cursor's offset the next page starts reading: room for deletions. */
const CURSOR_SLACK = LIST_PAGE_SIZE;

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
function comesAfter(info: ClaudeSessionInfo, after: ListCursor["after"]): boolean {
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
 * Whether a session recorded in a cwd belongs in the listing of `cwd`: recorded in exactly
 * that directory (Claude Code keeps sessions of several directories in one project
 * directory, e.g. `/p-a-b` and `/p/a/b`), or, with `includeWorktrees`, at the root of
 * another git worktree of its repository.
 */
async function recordedIn(
  cwd: string,
  includeWorktrees: boolean,
): Promise<(recorded: string | undefined) => boolean> {
  const accepted = await spellings(cwd);
  if (includeWorktrees) for (const root of await gitWorktreeRoots(cwd)) accepted.add(root);
  return (recorded) => isOneOf(recorded, accepted);
}

export interface ListRequest {
  cwd?: string | null;
  cursor?: string | null;
  includeWorktrees: boolean;
}

/** What a row needs of a listed session (a listing keeps only this). */
type Row = Pick<
  ClaudeSessionInfo,
  "sessionId" | "cwd" | "customTitle" | "summary" | "lastModified"
>;

/** Claude Code's whole listing of one request, as its first page found it. */
interface Listing {
  key: string;
  rows: Row[];
}

/** Listings kept for the cursors of their pages; a cursor of an older one reads again. */
const LISTINGS_KEPT = 4;

/**
 * `session/list`. Claude Code's listing reads every transcript whichever page is asked for,
 * so the first page reads it once and keeps it: each later page reads only its own rows'
 * modification times, leaving out a session deleted since and one written to since (it has
 * moved to the front, where the next listing from the top shows it).
 */
export class SessionHistory {
  private readonly listings = new Map<string, Listing>();

  constructor(private readonly transcripts: ClaudeTranscripts) {}

  async page(request: ListRequest): Promise<ListSessionsResponse> {
    const cursor = decodeCursor(request.cursor);
    const key = JSON.stringify([request.cwd ?? null, request.includeWorktrees]);
    const kept = cursor.listing ? this.listings.get(cursor.listing) : undefined;
    const belongs = request.cwd
      ? await recordedIn(request.cwd, request.includeWorktrees)
      : () => true;
    if (cursor.after && kept?.key !== key)
      return readPage(this.transcripts, request, cursor, belongs);
    const id = kept ? cursor.listing! : randomUUID();
    const listing = kept ?? (await this.read(id, key, request));
    return this.cut(id, listing, cursor.after ? cursor.offset : 0, belongs);
  }

  private async read(id: string, key: string, request: ListRequest): Promise<Listing> {
    const { cwd, includeWorktrees } = request;
    const infos = await this.transcripts.list({
      ...(cwd ? { dir: cwd, includeWorktrees } : {}),
      offset: 0,
    });
    const rows = infos.map(({ sessionId, cwd, customTitle, summary, lastModified }) => ({
      sessionId,
      cwd,
      customTitle,
      summary,
      lastModified,
    }));
    const listing = { key, rows };
    this.listings.set(id, listing);
    for (const old of this.listings.keys()) {
      if (this.listings.size <= LISTINGS_KEPT) break;
      this.listings.delete(old);
    }
    return listing;
  }

  /** The page of `listing` from `start`: rows still there and unchanged, as many as fit. */
  private async cut(
    id: string,
    listing: Listing,
    start: number,
    belongs: (recorded: string | undefined) => boolean,
  ): Promise<ListSessionsResponse> {
    const kept: Row[] = [];
    let at = start;
    let next: ListCursor | undefined;
    while (at < listing.rows.length && next === undefined) {
      const batch = listing.rows.slice(at, at + LIST_PAGE_SIZE + 1 - kept.length);
      const times = await this.transcripts.modifiedTimes(batch.map((row) => row.sessionId));
      for (const [i, row] of batch.entries()) {
        const now = times.get(row.sessionId);
        if (!belongs(row.cwd) || now === undefined || Math.abs(now - row.lastModified) >= 1) {
          continue;
        }
        if (kept.length === LIST_PAGE_SIZE) {
          const last = kept.at(-1)!;
          next = {
            listing: id,
            offset: at + i,
            after: { lastModified: last.lastModified, sessionId: last.sessionId },
          };
          break;
        }
        kept.push(row);
      }
      at += batch.length;
    }
    return response(kept, next);
  }
}

/** The page's rows (a plan handoff's conversation is part of the session it continues). */
function response(kept: Row[], next: ListCursor | undefined): ListSessionsResponse {
  const continuations = new Set(kept.map((info) => continuationId(info.sessionId)));
  const sessions = kept
    .filter((info) => !continuations.has(info.sessionId))
    .flatMap((info) => sessionInfo(info) ?? []);
  return { sessions, ...(next !== undefined ? { nextCursor: encodeCursor(next) } : {}) };
}

/**
 * A page after a cursor whose listing the agent no longer keeps (it restarted, or the
 * listing was dropped): Claude Code's listing is read from a little before the cursor's
 * offset, and only sessions after the cursor's last one are kept.
 */
async function readPage(
  transcripts: ClaudeTranscripts,
  request: ListRequest,
  cursor: ListCursor,
  belongs: (recorded: string | undefined) => boolean,
): Promise<ListSessionsResponse> {
  const { cwd, includeWorktrees } = request;
  // Claude's pages hold other directories' sessions too: read on until a page is full.
  const kept: ClaudeSessionInfo[] = [];
  let at = Math.max(0, cursor.offset - CURSOR_SLACK);
  let next: ListCursor | undefined;
  read: for (;;) {
    const batch = await transcripts.list({
      ...(cwd ? { dir: cwd, includeWorktrees } : {}),
      limit: LIST_PAGE_SIZE + 1,
      offset: at,
    });
    for (const [i, info] of batch.entries()) {
      if (!belongs(info.cwd) || !comesAfter(info, cursor.after)) continue;
      if (kept.length === LIST_PAGE_SIZE) {
        const last = kept.at(-1)!;
        next = {
          offset: at + i,
          after: { lastModified: last.lastModified, sessionId: last.sessionId },
        };
        break read;
      }
      kept.push(info);
    }
    if (batch.length <= LIST_PAGE_SIZE) break;
    at += batch.length;
  }
  return response(kept, next);
}
