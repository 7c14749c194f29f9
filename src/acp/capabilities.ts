import {
  PROTOCOL_VERSION,
  type AgentCapabilities,
  type Implementation,
  type InitializeRequest,
  type InitializeResponse,
  type McpCapabilities,
  type PromptCapabilities,
} from "@agentclientprotocol/sdk";
import { authMethods } from "./auth.js";
import { STEERING_META } from "./steering.js";
import { CANCEL_TOOL_CALL_META } from "./tool-call-cancel.js";
import { PACKAGE_NAME, PACKAGE_VERSION } from "../version.js";
import { airInitializeMeta } from "./air/extension.js";

export const AGENT_INFO: Implementation = {
  name: PACKAGE_NAME,
  title: "Claude Code",
  version: PACKAGE_VERSION,
};

/**
 * What `session/prompt` accepts beyond text and resource links: the prompt's content becomes
 * Claude's (session/turns/prompt.ts).
 */
const PROMPT_CAPABILITIES: PromptCapabilities = {
  image: true,
  audio: false,
  embeddedContext: true,
};

/**
 * Which MCP transports from `session/new` reach Claude Code, stdio always
 * (session/configuration/mcp-servers.ts).
 */
const MCP_CAPABILITIES: McpCapabilities = { http: true, sse: true };

/** Only what this agent really supports; each entry is proven by a test. */
export const AGENT_CAPABILITIES: AgentCapabilities = {
  loadSession: true,
  // A prompt sent while one runs waits for it and gets its own answer
  // (session/turns/turn-queue.ts).
  // `_session/cancel_tool_call`: one command or subagent stops, the turn goes on
  // (session/background/tool-call-stops.ts).
  _meta: { claudeCode: { promptQueueing: true }, ...CANCEL_TOOL_CALL_META },
  promptCapabilities: PROMPT_CAPABILITIES,
  mcpCapabilities: MCP_CAPABILITIES,
  // The session-rewind RFD: session/rewind and session/edit_prompt (core/rewinds.ts).
  ...({ rewindSession: { supported: true, supportsEditPrompt: true } } as object),
  // `status`: auth/status and auth/status_update (core/auth-status.ts).
  auth: { logout: {}, ...({ status: {} } as object) },
  // Unstable: providers/list, set and disable (core/accounts.ts).
  ...({ providers: {} } as object),
  sessionCapabilities: {
    list: {},
    delete: {},
    resume: {},
    close: {},
    additionalDirectories: {},
    // Unstable in ACP; clients that do not know them ignore them. The system prompt RFD:
    // `append` always, `override` declared (session-params.ts,
    // session/configuration/client-setup.ts).
    // `title`: session/set_title, saved as Claude Code's /rename (core/saved-sessions.ts).
    // `archive`: session/archive and unarchive, and the list's `archived` filter, with
    // Claude Code's own mark (core/saved-sessions.ts).
    // `workspaceTrust`: the RFD's state on the responses that open a session, and
    // trust/apply (core/session-trust.ts).
    // `status`: session/status, open or saved (core/saved-sessions.ts).
    ...({
      status: {},
      fork: {},
      systemPrompt: { mode: { override: {} } },
      title: {},
      archive: {},
      workspaceTrust: {},
    } as object),
  },
};

/** We speak v1; a client asking for any other version gets our latest, per the spec. */
export function negotiateProtocolVersion(requested: number): number {
  return requested === PROTOCOL_VERSION ? requested : PROTOCOL_VERSION;
}

export function initializeResponse(request: InitializeRequest): InitializeResponse {
  return {
    protocolVersion: negotiateProtocolVersion(request.protocolVersion),
    agentCapabilities: AGENT_CAPABILITIES,
    authMethods: authMethods(request.clientCapabilities ?? {}),
    agentInfo: AGENT_INFO,
    _meta: { ...STEERING_META, ...airInitializeMeta(request.clientCapabilities ?? {}) },
  };
}
