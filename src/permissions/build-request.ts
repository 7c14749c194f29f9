import type { RequestPermissionRequest, ToolCall } from "@agentclientprotocol/sdk";
import type { CanUseToolContext } from "../claude/types.js";
import type { ToolInput } from "../tools/index.js";
import { persistentChoicesAllowed, type PermissionAsk, type PermissionChoice } from "./choices.js";
import { buildChoices } from "./options/index.js";
import { presentation, requestToolCall } from "./presentation.js";
import { snapshotSuggestions } from "./suggestions.js";

/** What an ask is built from besides the tool use and the SDK's context. */
export type AskSetting = Pick<PermissionAsk, "cwd" | "homeDir" | "workingDirectories" | "plan">;

/** A built request: its options, each paired with its effect, and what goes to the client. */
export interface BuiltRequest {
  choices: PermissionChoice[];
  params: Omit<RequestPermissionRequest, "sessionId">;
}

/**
 * Steps 3 and 4 of the request lifecycle (session/turns/permission-request.ts), and the
 * request step 5 sends: pure. The suggestions are validated and snapshotted once, so label
 * and effect come from one copy.
 */
export function buildRequest(
  toolName: string,
  input: ToolInput,
  sdk: CanUseToolContext,
  toolCall: ToolCall,
  setting: AskSetting,
): BuiltRequest {
  const choices = buildChoices({
    toolName,
    input,
    suggestions: snapshotSuggestions(sdk.suggestions),
    persistentChoicesAllowed: persistentChoicesAllowed(sdk),
    ...setting,
  });
  return {
    choices,
    params: {
      toolCall: requestToolCall(toolCall, toolName, input, sdk.blockedPath),
      options: choices.map((c) => c.option),
      _meta: { permission: presentation(toolName, toolCall.title, sdk) },
    },
  };
}
