import { isAbsolute } from "node:path";
import type { ToolCall, ToolCallContent, ToolCallUpdate } from "@agentclientprotocol/sdk";
import { shellTitle } from "../tools/renderers/shell.js";
import { fencedContent } from "../tools/content.js";
import { cleanJson, cleanMultiline, cleanSingleLine, isCleanPath } from "../util/text.js";
import { COMPUTER_USE_PREFIX } from "./options/index.js";

/** Presentation text longer than this is invalid: replaced by a fallback or omitted, never cut. */
export const PRESENTATION_TEXT_LIMIT = 4_000;
/** A blockedPath longer than this is not shown. */
export const BLOCKED_PATH_LIMIT = 4_096;
export const PRESENTATION_VERSION = 1;
/** ExitPlanMode's action-oriented heading instead of its tool-call title. */
export const EXIT_PLAN_TITLE = "Ready to code?";
export const REASON_PREFIX = "Reason: ";

const SHELL_TOOLS = new Set(["Bash", "PowerShell"]);

/** The `_meta.permission` record of a request (permission-extension.md, "Request presentation"). */
export interface PermissionPresentation {
  version: typeof PRESENTATION_VERSION;
  title: string;
  description?: string;
}

function validText(text: string): string | undefined {
  return text !== "" && text.length <= PRESENTATION_TEXT_LIMIT ? text : undefined;
}

/**
 * The request heading: the tool call's title, compacted to one line. A shell title is
 * a command: a multi-line one stays visibly multi-line (`echo ok … (+2 lines)`), never
 * silently joined. An empty or oversized title becomes the tool's display name, never
 * a truncated string.
 */
export function permissionTitle(
  toolName: string,
  toolCallTitle: string,
  displayName?: string,
): string {
  if (toolName === "ExitPlanMode") return EXIT_PLAN_TITLE;
  const compact = SHELL_TOOLS.has(toolName)
    ? shellTitle(toolCallTitle)
    : cleanSingleLine(toolCallTitle);
  return (
    validText(compact) ??
    validText(cleanSingleLine(displayName ?? "")) ??
    validText(cleanSingleLine(toolName)) ??
    "Tool"
  );
}

/**
 * `Reason: ` + the SDK's non-blank decisionReason, multi-line kept; else absent. The
 * limit applies to the cleaned reason (design.md), as it does to reject feedback.
 */
export function permissionDescription(decisionReason: unknown): string | undefined {
  if (typeof decisionReason !== "string") return undefined;
  const reason = validText(cleanMultiline(decisionReason).trim());
  return reason ? `${REASON_PREFIX}${reason}` : undefined;
}

export function presentation(
  toolName: string,
  toolCallTitle: string,
  sdk: { displayName?: string; decisionReason?: string },
): PermissionPresentation {
  const description = permissionDescription(sdk.decisionReason);
  return {
    version: PRESENTATION_VERSION,
    title: permissionTitle(toolName, toolCallTitle, sdk.displayName),
    ...(description ? { description } : {}),
  };
}

function validBlockedPath(path: unknown): path is string {
  return (
    typeof path === "string" &&
    path.length <= BLOCKED_PATH_LIMIT &&
    isAbsolute(path) &&
    isCleanPath(path)
  );
}

function needsSynthesizedContent(toolName: string): boolean {
  return toolName === "SandboxNetworkAccess" || toolName.startsWith(COMPUTER_USE_PREFIX);
}

/** JSON of the raw input, for requests whose renderer shows nothing else. */
function jsonContent(input: unknown): ToolCallContent[] {
  return [fencedContent(JSON.stringify(cleanJson(input), null, 2) ?? "{}", "json")];
}

/**
 * The request's toolCall: the same rendering as normal updates, status pending, the
 * original input, a valid blockedPath added to locations, and JSON content for
 * Sandbox Network and Computer Use asks that would otherwise show nothing.
 */
export function requestToolCall(
  toolCall: ToolCall,
  toolName: string,
  input: unknown,
  blockedPath: unknown,
): ToolCallUpdate {
  const locations = [...(toolCall.locations ?? [])];
  if (validBlockedPath(blockedPath) && !locations.some((l) => l.path === blockedPath)) {
    locations.push({ path: blockedPath });
  }
  const content =
    toolCall.content?.length || !needsSynthesizedContent(toolName)
      ? toolCall.content
      : jsonContent(input);
  return {
    ...toolCall,
    status: "pending",
    rawInput: input,
    content: content ?? [],
    locations,
  };
}
