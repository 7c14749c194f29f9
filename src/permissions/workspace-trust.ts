// The ask for a folder's trust, for clients that do not know ACP's workspace-trust RFD: a
// standard `session/request_permission` before a session's first prompt, whose options say
// what each does. Pure: the request and what each option decides.
import type {
  PermissionOption,
  RequestPermissionRequest,
  ToolCall,
} from "@agentclientprotocol/sdk";
import { cleanSingleLine } from "../util/text.js";
import { PRESENTATION_TEXT_LIMIT, PRESENTATION_VERSION } from "./presentation.js";

/** What the user decides for the folder (the RFD's decisions this ask offers). */
export type TrustAnswer = "trust_cwd" | "trust_session" | "decline";

/** In the contract's order: allow once, allow always, then reject. */
export const TRUST_OPTIONS: ReadonlyArray<PermissionOption & { decision: TrustAnswer }> = [
  {
    optionId: "trust-session",
    name: "Only while the agent runs: load them now, and ask again after it restarts",
    kind: "allow_once",
    decision: "trust_session",
  },
  {
    optionId: "trust-folder",
    name: "Trust this folder: load its settings, hooks and MCP servers, now and in later sessions",
    kind: "allow_always",
    decision: "trust_cwd",
  },
  {
    optionId: "trust-decline",
    name: "Don't trust it: run without them, and don't ask again until the agent restarts",
    kind: "reject_always",
    decision: "decline",
  },
];

/** The heading of the ask. */
export function trustTitle(folder: string): string {
  return `Trust the files in ${cleanSingleLine(folder)}?`;
}

/** What the ask says of the files, within the presentation limit. */
export function trustDescription(paths: readonly string[]): string {
  const head =
    "Claude Code has not loaded these files of the folder, which can run commands (hooks), " +
    "skip permission asks, start MCP servers and change Claude's instructions:";
  let text = head;
  for (const [i, path] of paths.entries()) {
    const line = `\n- ${cleanSingleLine(path)}`;
    const rest = `\n(and ${paths.length - i} more)`;
    if (text.length + line.length + rest.length > PRESENTATION_TEXT_LIMIT) return text + rest;
    text += line;
  }
  return text;
}

/** The ask for `folder`, whose `paths` wait for trust: its tool call, then its request. */
export function trustRequest(
  toolCallId: string,
  folder: string,
  paths: readonly string[],
): { toolCall: ToolCall; request: Omit<RequestPermissionRequest, "sessionId"> } {
  const title = trustTitle(folder);
  const description = trustDescription(paths);
  const toolCall: ToolCall = {
    toolCallId,
    title,
    kind: "other",
    status: "pending",
    content: [{ type: "content", content: { type: "text", text: description } }],
    locations: paths.map((path) => ({ path })),
  };
  return {
    toolCall,
    request: {
      toolCall,
      options: TRUST_OPTIONS.map(({ optionId, name, kind }) => ({ optionId, name, kind })),
      _meta: { permission: { version: PRESENTATION_VERSION, title, description } },
    },
  };
}

/** The decision of a selected option id; undefined for one this ask did not offer. */
export function trustAnswerOf(optionId: string): TrustAnswer | undefined {
  return TRUST_OPTIONS.find((option) => option.optionId === optionId)?.decision;
}
