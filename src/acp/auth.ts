import type { AuthMethod, ClientCapabilities } from "@agentclientprotocol/sdk";

/** The id of the one login method: Claude Code's own login, run in the client's terminal. */
export const LOGIN_METHOD_ID = "claude-login";
/** The argument that makes this agent run the login instead of serving ACP. */
export const LOGIN_ARGUMENT = "--login";

/**
 * Credentials from the environment (ANTHROPIC_API_KEY) need no method. A client that
 * can run terminal logins is offered Claude Code's login: it relaunches this agent
 * with --login in a terminal.
 */
export function authMethods(capabilities: ClientCapabilities): AuthMethod[] {
  if (!capabilities.auth?.terminal) return [];
  return [
    {
      type: "terminal",
      id: LOGIN_METHOD_ID,
      name: "Log in with Claude Code",
      description:
        "Sign in to your Anthropic account (Claude subscription or Console) in a terminal",
      args: [LOGIN_ARGUMENT],
    },
  ];
}
