// AIR's patch view of a file edit (`diffPatch`, advertised; used once declared), as AIR and the
// published adapter speak it: an Edit or Write's permission request shows the change as one git
// patch of the whole file (in a diff item's `_meta.jetbrains.air.diffPatch`), computed with
// jsdiff from the file as it is and the edit the tool would make; its completed call shows the
// change Claude Code made, from the hunks of its own result. Where no exact patch can be
// made (a file too big, binary, with a CR or a control character, an edit that does not match
// exactly once, a file outside the session's folders), the request keeps the diff it has.
import { readFileSync, statSync } from "node:fs";
import { isAbsolute } from "node:path";
import type { ToolCallContent, ToolCallUpdate } from "@agentclientprotocol/sdk";
import { z } from "zod";
import { canonicalPath, isInside } from "../../util/paths.js";
import { isRecord } from "../../util/records.js";
import { cleanMultiline, isCleanPath } from "../../util/text.js";
import { AIR_CAPABILITIES, airDeclares, withAirMeta } from "./extension.js";

/** A file over this is shown as the diff the request has. */
const MAX_BYTES = 1024 * 1024;
/** A line diff that takes longer is given up. */
const DIFF_TIMEOUT_MS = 100;

/** The text of a file a patch can show as it is: null when there is none, undefined when it cannot. */
function fileText(path: string): string | null | undefined {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    return null;
  }
  if (size > MAX_BYTES) return undefined;
  try {
    const text = readFileSync(path, "utf8");
    return shownAsIs(text) ? text : undefined;
  } catch {
    return undefined;
  }
}

/** Text with nothing a terminal or a bidi override would show otherwise, and no CR or NUL. */
const shownAsIs = (text: string) => !/[\r\0]/.test(text) && cleanMultiline(text) === text;

/** What the file would hold after the edit, or undefined when that is not exactly known. */
function afterEdit(
  tool: string,
  input: Record<string, unknown>,
  before: string | null,
): string | undefined {
  if (tool === "Write") return typeof input.content === "string" ? input.content : undefined;
  const { old_string: from, new_string: to, replace_all: all } = input;
  if (before === null || typeof from !== "string" || typeof to !== "string") return undefined;
  if (!from || from === to) return undefined;
  const count = before.split(from).length - 1;
  if (all === true) return count > 0 ? before.replaceAll(from, to) : undefined;
  return count === 1 ? before.replace(from, () => to) : undefined;
}

/** A path as a git patch names it: `/` for `\\`, no leading `/`. */
const gitName = (path: string) => path.replace(/\\/g, "/").replace(/^\//, "");

/**
 * The git patch of `before` (null: no file yet) becoming `after`, or undefined. jsdiff loads
 * the first time (only an AIR client that declared `diffPatch` gets here).
 */
export async function gitPatch(
  path: string,
  before: string | null,
  after: string,
): Promise<string | undefined> {
  if (!shownAsIs(after)) return undefined;
  const { formatPatch, structuredPatch } = await import("diff");
  const name = gitName(path);
  const patch = structuredPatch(
    `a/${name}`,
    `b/${name}`,
    before ?? "",
    after,
    undefined,
    undefined,
    {
      context: 3,
      timeout: DIFF_TIMEOUT_MS,
    },
  );
  if (!patch) return undefined;
  const created =
    before === null ? { isCreate: true, newMode: "100644", oldFileName: "/dev/null" } : {};
  return formatPatch({ ...patch, isGit: true, ...created });
}

/** The patch item of a diff's content. */
function patchItem(path: string, text: string): ToolCallContent[] {
  const patch = { version: 1, format: "git_patch", text };
  return [
    {
      type: "diff",
      path,
      oldText: null,
      newText: "",
      _meta: withAirMeta(undefined, AIR_CAPABILITIES.diffPatch, patch),
    },
  ];
}

/** What an Edit or Write's result says it did, as Claude Code's structured result has it. */
const editResult = z.looseObject({
  filePath: z.string(),
  type: z.enum(["create", "update"]).optional(),
  content: z.string().optional(),
  structuredPatch: z
    .array(
      z.looseObject({
        oldStart: z.number(),
        oldLines: z.number(),
        newStart: z.number(),
        newLines: z.number(),
        lines: z.array(z.string()),
      }),
    )
    .optional(),
});

/**
 * The content of an Edit or Write's completed call for a client that declared `diffPatch`:
 * the change Claude Code made, from its own result (no file is read), as one git patch; or
 * undefined to keep the call's own diffs. Undefined at once for any other update, so those
 * are sent without waiting.
 */
export function airResultPatch(
  update: ToolCallUpdate,
  tool: string | undefined,
  capabilities: { _meta?: unknown },
): Promise<ToolCallContent[] | undefined> | undefined {
  if (tool !== "Edit" && tool !== "Write") return undefined;
  if (update.status !== "completed") return undefined;
  if (!airDeclares(capabilities, AIR_CAPABILITIES.diffPatch)) return undefined;
  const parsed = editResult.safeParse(update.rawOutput);
  if (!parsed.success) return undefined;
  const { filePath: path, type, content, structuredPatch: hunks } = parsed.data;
  // The path is only the patch's label here, as in the call's own diffs: as Claude Code has it.
  if (!path || !isCleanPath(path)) return undefined;
  if (type === "create" && content !== undefined) {
    return gitPatch(path, null, content).then((text) =>
      text === undefined ? undefined : patchItem(path, text),
    );
  }
  const lineShown = (line: string) => shownAsIs(line) && !line.includes("\n");
  if (!hunks?.length || !hunks.every((hunk) => hunk.lines.every(lineShown))) return undefined;
  return hunksPatch(path, hunks);
}

/** The git patch of Claude Code's hunks of a file. */
async function hunksPatch(
  path: string,
  hunks: z.infer<typeof editResult>["structuredPatch"] & object,
): Promise<ToolCallContent[]> {
  const { formatPatch } = await import("diff");
  const name = gitName(path);
  const text = formatPatch({
    oldFileName: `a/${name}`,
    newFileName: `b/${name}`,
    oldHeader: undefined,
    newHeader: undefined,
    hunks,
    isGit: true,
  });
  return patchItem(path, text);
}

/**
 * The content of an Edit or Write's permission request for a client that declared `diffPatch`:
 * the patch item, or undefined to keep the request's own content. Only a file inside one of
 * `folders` (the session's) is read: a patch shows the lines around an edit, or all of a file
 * a Write replaces, and an edit Claude asks to make elsewhere must not show the user's other
 * files (a key, a credential) to a client, which may be on another machine.
 */
export async function airPatchContent(
  tool: string | undefined,
  input: unknown,
  capabilities: { _meta?: unknown },
  folders: readonly string[],
): Promise<ToolCallContent[] | undefined> {
  if (tool !== "Edit" && tool !== "Write") return undefined;
  if (!airDeclares(capabilities, AIR_CAPABILITIES.diffPatch) || !isRecord(input)) return undefined;
  const path = input.file_path;
  // The path is in the patch's headers: one a cleaning would change is not shown as it is.
  if (typeof path !== "string" || !isAbsolute(path) || !isCleanPath(path)) return undefined;
  const real = canonicalPath(path);
  if (!isInside(real, folders.map(canonicalPath))) return undefined;
  const before = fileText(real);
  if (before === undefined) return undefined;
  const after = afterEdit(tool, input, before);
  const text = after === undefined ? undefined : await gitPatch(path, before, after);
  return text === undefined ? undefined : patchItem(path, text);
}
