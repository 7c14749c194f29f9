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
 * after it; `offset` (the listing position after it) only says where to start reading.
 */
export interface ListCursor {
  offset: number;
  after?: { lastModified: number; sessionId: string };
}

/** How far before the cursor's offset the next page starts reading: room for deletions. */
const CURSOR_SLACK = LIST_PAGE_SIZE;

export function encodeCursor(cursor: ListCursor): string {
  return Buffer.from(JSON.stringify(cursor), "utf8").toString("base64url");
}

const cursorSchema = z.object({
  offset: z.number().int().nonnegative(),
  after: z.object({ lastModified: z.number(), sessionId: z.string() }).optional(),
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

/** One `session/list` page: the saved sessions of `cwd` (or of every directory), newest first. */
export async function listPage(
  transcripts: ClaudeTranscripts,
  request: { cwd?: string | null; cursor?: string | null; includeWorktrees: boolean },
): Promise<ListSessionsResponse> {
  const cursor = decodeCursor(request.cursor);
  const { cwd, includeWorktrees } = request;
  const belongs = cwd ? await recordedIn(cwd, includeWorktrees) : () => true;
  // Claude's pages hold other directories' sessions too: read on until a page is full.
  const kept: ClaudeSessionInfo[] = [];
  let at = cursor.after ? Math.max(0, cursor.offset - CURSOR_SLACK) : cursor.offset;
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
  // A plan handoff's conversation is part of the session it continues, not one of its own.
  const continuations = new Set(kept.map((info) => continuationId(info.sessionId)));
  const sessions = kept
    .filter((info) => !continuations.has(info.sessionId))
    .flatMap((info) => sessionInfo(info) ?? []);
  return { sessions, ...(next !== undefined ? { nextCursor: encodeCursor(next) } : {}) };
}
