import type { ToolCallUpdate } from "@agentclientprotocol/sdk";
import { cleanJson, isCleanPath } from "../util/text.js";

/**
 * A tool call as the client is shown it: the raw input and output with every string cleaned,
 * and no location whose path holds control characters (cleaned, it would name another file,
 * which a client may open). A copy: the input Claude Code runs is never changed.
 */
export function shownToolCall<T extends ToolCallUpdate>(fields: T): T {
  const shown = { ...fields };
  if (fields.rawInput !== undefined) shown.rawInput = cleanJson(fields.rawInput);
  if (fields.rawOutput !== undefined) shown.rawOutput = cleanJson(fields.rawOutput);
  if (fields.locations) shown.locations = fields.locations.filter((l) => isCleanPath(l.path));
  return shown;
}
