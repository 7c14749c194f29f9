import type { SessionInfo } from "@agentclientprotocol/sdk";
import type { ClaudeSessionInfo } from "../claude/transcripts.js";
import { InvalidParamsError } from "../errors.js";
import { cleanSingleLine } from "../util/text.js";

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

/** Cursors are opaque to clients: the offset of the next page. */
export function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ offset }), "utf8").toString("base64url");
}

export function decodeCursor(cursor: string | null | undefined): number {
  if (!cursor) return 0;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as {
      offset?: unknown;
    };
    if (
      typeof parsed.offset === "number" &&
      Number.isInteger(parsed.offset) &&
      parsed.offset >= 0
    ) {
      return parsed.offset;
    }
  } catch {
    // reported below
  }
  throw new InvalidParamsError("Invalid cursor.", { cursor });
}

/** The title Claude Code gave a conversation (an AI title or a /rename), if any. */
export function producedTitle(info: ClaudeSessionInfo | undefined): string | undefined {
  const title = info?.customTitle ? cleanSingleLine(info.customTitle) : "";
  return title || undefined;
}
