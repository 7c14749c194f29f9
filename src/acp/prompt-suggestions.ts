import type { SessionInfoUpdate } from "@agentclientprotocol/sdk";
import { isRecord } from "../util/records.js";
import { isAirClient } from "./air/extension.js";
import type { AgentClientCapabilities } from "./unstable-capabilities.js";

/**
 * Claude Code's prediction of the user's next prompt, on the wire as the published adapter
 * sends it: ACP has no field for it, so it rides `session_info_update._meta.promptSuggestions`,
 * which a client that does not read it ignores.
 */
export const PROMPT_SUGGESTIONS_META_KEY = "promptSuggestions";

/**
 * Whether the client asked for prompt suggestions: JetBrains AIR (`_meta.jetbrains.air`, the
 * published adapter's only reader) or `_meta.claudeCode.promptSuggestions: true`. Off for every
 * other client: the prediction is one more model request per turn.
 */
export function wantsPromptSuggestions(capabilities: AgentClientCapabilities): boolean {
  const meta = capabilities._meta;
  if (!isRecord(meta)) return false;
  const claudeCode = isRecord(meta.claudeCode) ? meta.claudeCode : undefined;
  return isAirClient(capabilities) || claudeCode?.[PROMPT_SUGGESTIONS_META_KEY] === true;
}

/** The update that publishes `text` as the prompt to suggest; `null` clears the one shown. */
export function promptSuggestionUpdate(text: string | null): SessionInfoUpdate {
  return {
    _meta: { [PROMPT_SUGGESTIONS_META_KEY]: { suggestions: text === null ? [] : [{ text }] } },
  };
}
