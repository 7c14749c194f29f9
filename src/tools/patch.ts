import type { ToolCallContent, ToolCallLocation } from "@agentclientprotocol/sdk";
import { diffContent } from "./content.js";
import { isRecord } from "./input.js";

/** One hunk of the `structuredPatch` that Edit and Write report. */
export interface PatchHunk {
  oldStart: number;
  newStart: number;
  lines: string[];
}

/** The well-formed hunks of an untrusted `structuredPatch`. */
export function patchHunks(value: unknown): PatchHunk[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (hunk): hunk is PatchHunk =>
      isRecord(hunk) &&
      typeof hunk.oldStart === "number" &&
      typeof hunk.newStart === "number" &&
      Array.isArray(hunk.lines) &&
      hunk.lines.every((line) => typeof line === "string"),
  );
}

/**
 * One diff per hunk: old text is the context and removed lines, new text the context and
 * added lines. Hunks are not joined, since text between them is not in the patch.
 */
export function diffsFromPatch(
  path: string,
  hunks: readonly PatchHunk[],
): { content: ToolCallContent[]; locations: ToolCallLocation[] } {
  const content: ToolCallContent[] = [];
  const locations: ToolCallLocation[] = [];
  for (const hunk of hunks) {
    const oldLines: string[] = [];
    const newLines: string[] = [];
    for (const line of hunk.lines) {
      const body = line.slice(1);
      if (line.startsWith("-")) oldLines.push(body);
      else if (line.startsWith("+")) newLines.push(body);
      else if (line.startsWith(" ")) {
        oldLines.push(body);
        newLines.push(body);
      }
      // "\ No newline at end of file" and anything else is not file text.
    }
    if (!oldLines.length && !newLines.length) continue;
    content.push(diffContent(path, oldLines.join("\n"), newLines.join("\n")));
    locations.push({ path, line: hunk.newStart });
  }
  return { content, locations };
}
