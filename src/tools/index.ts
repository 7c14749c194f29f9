import type { ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";
import { cleanSingleLine } from "../util/text.js";
import { familyOf } from "./families.js";
import { parsePartialInput } from "./partial-input.js";
import { SUBAGENT_TOOLS } from "./renderers/agent.js";
import { TERMINAL_TOOLS } from "./renderers/terminal.js";
import type { ToolContext, ToolInfo, ToolInput } from "./types.js";

export type { ToolContext, ToolInfo, ToolInput } from "./types.js";
export { parsePartialInput } from "./partial-input.js";

/**
 * The tools Claude Code runs as tasks it can stop one by one, the turn going on: commands
 * and subagents (session/background/tool-call-stops.ts; v2's per-call `cancel`).
 */
export const STOPPABLE_TOOLS: ReadonlySet<string> = new Set([...TERMINAL_TOOLS, ...SUBAGENT_TOOLS]);

/** The single source of a tool call's name, kind, title, content and locations. */
export function toolInfoFromToolUse(
  name: string,
  input: ToolInput,
  context: ToolContext,
): ToolInfo {
  const family = familyOf(name);
  const rendering = family.render(input, context, name);
  // Titles come from Claude's input: never shown raw, never empty.
  const title = cleanSingleLine(rendering.title);
  return { name, ...rendering, title: title.trim() ? title : cleanSingleLine(name) || "Tool" };
}

/**
 * A tool call refined while its input streams: title, kind and locations from the fields
 * complete so far, but no content, which would show a partial diff or prompt.
 * Takes the accumulated JSON text or the fields already parsed from it.
 */
export function partialToolInfo(
  name: string,
  partialInput: string | ToolInput,
  context: ToolContext,
): { title: string; kind: ToolKind; locations: ToolCallLocation[] } {
  const input = typeof partialInput === "string" ? parsePartialInput(partialInput) : partialInput;
  const { title, kind, locations } = toolInfoFromToolUse(name, input, context);
  return { title, kind, locations };
}
