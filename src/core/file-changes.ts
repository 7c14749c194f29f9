// The files a turn changed, as Claude Code's file checkpoints tell (a dry run of putting them
// back as they were when the turn's prompt was sent): a report a client reads after the turn
// (AIR's agentFileChangeReport). Checkpoints track the files Claude's edit tools touched, so a
// file only a command changed is missed: the list is never said to be complete.
import { resolve } from "node:path";
import type { Session } from "../session/session.js";
import { canonicalPath, isInside } from "../util/paths.js";
import { isCleanPath } from "../util/text.js";
import { TimeoutError, withTimeout } from "../util/timeout.js";

export type FileChanges =
  | { paths: string[]; truncated: boolean }
  | { unavailable: "timeout" | "invalidOutput" | "providerError" };

/** The most paths a report holds, and the most bytes of them. */
export const MAX_REPORTED_PATHS = 1024;
export const MAX_REPORTED_BYTES = 256 * 1024;
/** A path longer than this is left out. */
const PATH_LIMIT = 4096;
/** How long Claude Code has to say which files changed. */
const PREVIEW_TIMEOUT_MS = 2_000;

/**
 * The paths a client is told of: absolute and canonical, inside one of the session's folders
 * (not a folder itself), shown as they are (no control character, isCleanPath), each once, within the caps. `truncated`:
 * something was left out.
 */
export function reportedPaths(
  changed: readonly unknown[],
  folders: readonly string[],
): { paths: string[]; truncated: boolean } {
  const roots = folders.map((folder) => canonicalPath(resolve(folder)));
  const paths = new Set<string>();
  let bytes = 0;
  let truncated = false;
  for (const raw of changed) {
    const path =
      typeof raw === "string" && raw.trim() && raw.length <= PATH_LIMIT && isCleanPath(raw)
        ? canonicalPath(resolve(folders[0]!, raw))
        : undefined;
    if (!path || path.length > PATH_LIMIT || !isCleanPath(path) || !isInside(path, roots)) {
      truncated = true;
      continue;
    }
    if (paths.has(path)) continue;
    const size = Buffer.byteLength(path);
    if (paths.size >= MAX_REPORTED_PATHS || bytes + size > MAX_REPORTED_BYTES) {
      truncated = true;
      continue;
    }
    paths.add(path);
    bytes += size;
  }
  return { paths: [...paths], truncated };
}

/** The files changed since the prompt `userMessageId` was sent, as Claude Code's checkpoints tell. */
export async function filesChangedSince(
  session: Session,
  userMessageId: string,
): Promise<FileChanges> {
  let changed: unknown;
  try {
    await withTimeout(
      session.rewind({
        dryRun: true,
        // Where the comparison starts: the turn's own prompt, which its session holds.
        cut: () => Promise.resolve({ upTo: userMessageId }),
        files: async (query) => {
          const preview = await query.rewindFiles(userMessageId, true);
          changed = preview.canRewind ? preview.filesChanged : undefined;
        },
      }),
      PREVIEW_TIMEOUT_MS,
      "Claude Code's list of changed files",
    );
  } catch (error) {
    return { unavailable: error instanceof TimeoutError ? "timeout" : "providerError" };
  }
  if (!Array.isArray(changed)) return { unavailable: "invalidOutput" };
  return reportedPaths(changed as unknown[], session.folders);
}
