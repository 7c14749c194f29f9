import type * as v2 from "@agentclientprotocol/sdk/experimental/v2/unstable";
import { authMethods } from "../auth.js";
import { AGENT_INFO } from "../capabilities.js";
import { STEERING_META } from "../steering.js";
import type { AgentClientCapabilities } from "../unstable-capabilities.js";

/** The ACP v2 draft's protocol version. */
export const PROTOCOL_V2 = 2;

/**
 * What this agent offers a v2 client: the baseline session methods (`capabilities.session`
 * itself), and what v1 advertises that v2 has a place for. v2 has no SSE MCP servers, no
 * `session/load` (resume replays) and no modes API (the mode is a config option).
 */
export const AGENT_CAPABILITIES_V2: v2.AgentCapabilities = {
  session: {
    prompt: { image: {}, embeddedContext: {} },
    mcp: { stdio: {}, http: {} },
    delete: {},
    additionalDirectories: {},
    fork: {},
    systemPrompt: { mode: { override: {} } },
    // Unstable: session/set_title, saved as Claude Code's /rename (core/saved-sessions.ts);
    // session/archive and unarchive, with Claude Code's own mark, and session/status
    // (core/saved-sessions.ts).
    ...({ title: {}, archive: {}, status: {} } as object),
  },
  // Unstable: auth/status and auth/status_update (core/auth-status.ts).
  ...({ auth: { status: {} } } as object),
  // Unstable: providers/list, set and disable (core/accounts.ts).
  providers: {},
};

/**
 * A v2 client's capabilities as the sessions read them (v1's names). What v2 makes
 * baseline, a v2 client gets without declaring it: notices, compaction updates, boolean
 * config options, subagents as child sessions, commands as display terminals.
 */
export function sessionCapabilities(client: v2.ClientCapabilities = {}): AgentClientCapabilities {
  return {
    ...(client.elicitation ? { elicitation: client.elicitation } : {}),
    auth: { terminal: client.auth?.terminal != null },
    _meta: { ...client._meta, terminal_output: true },
    session: { notices: {}, compaction: {}, configOptions: { boolean: {} } },
    subagents: {},
  };
}

/**
 * Claude Code's terminal logins, as v2 names them (`methodId`, a required `type`); offered
 * only to clients that declare `auth.terminal`. v1's `_meta["terminal-auth"]` methods have
 * no `type`, so v2 has no form for them; the legacy descriptor still rides along in `_meta`
 * of each terminal method when the client declares both.
 */
export function authMethodsV2(client: AgentClientCapabilities): v2.AuthMethod[] {
  return authMethods(client).flatMap((method) =>
    "type" in method && method.type === "terminal"
      ? [
          {
            type: "terminal" as const,
            methodId: method.id,
            name: method.name,
            ...(method.description ? { description: method.description } : {}),
            ...(method.args ? { args: method.args } : {}),
            ...(method._meta ? { _meta: method._meta } : {}),
          },
        ]
      : [],
  );
}

export function initializeResponseV2(client: AgentClientCapabilities): v2.InitializeResponse {
  return {
    protocolVersion: PROTOCOL_V2,
    info: AGENT_INFO,
    capabilities: AGENT_CAPABILITIES_V2,
    authMethods: authMethodsV2(client),
    // As on v1: v2 keeps the initialize answer's top-level `_meta` for extensions.
    _meta: STEERING_META,
  };
}
