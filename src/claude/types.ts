/**
 * The Claude Agent SDK types the rest of the adapter works with. Only src/claude/
 * imports the SDK; everything else takes its Claude types from here.
 */
export type {
  CanUseTool,
  EffortLevel,
  ElicitationRequest as McpElicitationRequest,
  ElicitationResult as McpElicitationResult,
  McpServerConfig,
  McpServerStatus,
  ModelInfo,
  PermissionMode,
  RewindFilesResult,
  PermissionResult,
  PermissionUpdate,
  PermissionRuleValue,
  PermissionUpdateDestination,
  SDKActiveGoalMessage,
  SDKAssistantMessage,
  SDKMessage,
  SDKPartialAssistantMessage,
  SDKRateLimitInfo as RateLimitInfo,
  SDKResultMessage,
  SDKStartupFailureReason as StartupFailureReason,
  SDKSystemMessage,
  SDKToolProgressMessage,
  SDKUserMessage,
  SettingSource,
  SlashCommand,
} from "@anthropic-ai/claude-agent-sdk";

import type {
  CanUseTool,
  SDKActiveGoalMessage,
  SDKMessage,
  SDKUserMessage,
} from "@anthropic-ai/claude-agent-sdk";

/** A message of Claude Code's about itself or its work (init, status, tasks, hooks...). */
export type SystemMessage = Extract<SDKMessage, { type: "system" }>;

/** The model Claude Code names on messages it makes up itself (API errors, `/usage`). */
export const SYNTHETIC_MODEL = "<synthetic>";

/** The third argument of `canUseTool`: what Claude Code tells us about one permission ask. */
export type CanUseToolContext = Parameters<CanUseTool>[2];

/** One user message's content as the Messages API takes it. */
export type UserContent = Exclude<SDKUserMessage["message"]["content"], string>;
export type UserContentBlock = UserContent[number];

/** The states of a `task_updated` patch after which a task does nothing more. */
export const FINAL_TASK_STATES: ReadonlySet<string> = new Set(["completed", "failed", "killed"]);

/**
 * Claude Code's goal (`/goal <condition>`), as it reports it when it is set, checked or
 * cleared. Its iterator hands the report on although the SDK's message type does not name it.
 */
export function isActiveGoal(message: { type: string }): message is SDKActiveGoalMessage {
  return message.type === "active_goal";
}

/** The goal a report gives, or null once it is cleared (met, impossible, or `/goal clear`). */
export type ClaudeGoal = NonNullable<SDKActiveGoalMessage["value"]>;
