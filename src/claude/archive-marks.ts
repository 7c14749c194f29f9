// Claude Code's archive mark of a session: `<project>/<sessionId>/archived.json` beside its
// transcript (`{archived, at}`), written by the SDK's archiveSession and unarchiveSession and
// read by Claude Code's listing. The mark holds until a prompt is sent in the session after
// it; whether one was takes the SDK's rules for what a prompt is (session-index.ts).
import { closeSync, openSync, readSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";

/** The SDK reads no more of a mark than this. */
const MARK_LIMIT = 4096;

const markSchema = z.object({ archived: z.boolean(), at: z.iso.datetime({ offset: true }) });

export interface ArchiveMark {
  archived: boolean;
  /** When it was set, in milliseconds since the epoch. */
  atMs: number;
}

/** The mark of the session whose transcript is `transcript`; undefined when it has none. */
export function archiveMark(transcript: string, sessionId: string): ArchiveMark | undefined {
  const text = readSmall(join(dirname(transcript), sessionId, "archived.json"));
  if (text === undefined) return undefined;
  try {
    const parsed = markSchema.safeParse(JSON.parse(text));
    return parsed.success
      ? { archived: parsed.data.archived, atMs: Date.parse(parsed.data.at) }
      : undefined;
  } catch {
    return undefined;
  }
}

/** A file of at most MARK_LIMIT bytes, synchronously (a page reads a few dozen). */
function readSmall(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return undefined;
  }
  try {
    const buffer = Buffer.alloc(MARK_LIMIT + 1);
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    return length > MARK_LIMIT ? undefined : buffer.toString("utf8", 0, length);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
