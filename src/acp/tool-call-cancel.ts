import { z } from "zod";

/**
 * Stopping one tool call (a command, a subagent) without cancelling the turn, for ACP v1
 * clients: an extension (hence the `_`) with the shape of ACP v2's `tool_call/cancel`,
 * advertised as `agentCapabilities._meta.cancelToolCall.supported`.
 */
export const CANCEL_TOOL_CALL_METHOD = "_session/cancel_tool_call";

/** What `agentCapabilities._meta` says of it. */
export const CANCEL_TOOL_CALL_META = { cancelToolCall: { supported: true } } as const;

const params = z.looseObject({ sessionId: z.string(), toolCallId: z.string() });

/** Validates `_session/cancel_tool_call` params. */
export const cancelToolCallParams = {
  parse: (value: unknown): z.infer<typeof params> => params.parse(value),
};
