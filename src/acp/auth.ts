import type { AuthMethod, ClientCapabilities } from "@agentclientprotocol/sdk";
import { z } from "zod";

/** The argument that makes this agent run Claude Code's login instead of serving ACP. */
export const LOGIN_ARGUMENT = "--login";

/** The accounts Claude Code's `auth login` offers, named by its own flags. */
export type LoginAccount = "claudeai" | "console";

interface Login {
  id: string;
  account: LoginAccount;
  name: string;
  description: string;
  /** The title of the terminal a `_meta["terminal-auth"]` client opens. */
  label: string;
}

/** Claude Code's logins, split as `claude auth login` splits them. */
export const LOGINS: readonly Login[] = [
  {
    id: "claude-login",
    account: "claudeai",
    name: "Claude account",
    description: "Log in with your Claude subscription (claude.ai), in a terminal",
    label: "Claude login",
  },
  {
    id: "console-login",
    account: "console",
    name: "Anthropic Console",
    description: "Log in with an Anthropic Console account (API usage billing), in a terminal",
    label: "Anthropic Console login",
  },
];

export function isLoginMethod(methodId: string): boolean {
  return LOGINS.some((login) => login.id === methodId);
}

/**
 * Logins to an LLM gateway, for clients that declare `auth._meta.gateway`: the client sends
 * the gateway's base URL and headers (`_meta.gateway`), with the effect of `providers/set`.
 * The ids and `_meta.gateway.protocol` are those clients already know.
 */
export const GATEWAY_LOGINS = [
  { id: "gateway", protocol: "anthropic" },
  { id: "gateway-bedrock", protocol: "bedrock" },
] as const;

export type GatewayProtocol = (typeof GATEWAY_LOGINS)[number]["protocol"];

/** The protocol of a gateway login method, if the method is one. */
export function gatewayProtocol(methodId: string): GatewayProtocol | undefined {
  return GATEWAY_LOGINS.find((login) => login.id === methodId)?.protocol;
}

function gatewayMethods(capabilities: ClientCapabilities): AuthMethod[] {
  if (capabilities.auth?._meta?.gateway !== true) return [];
  return GATEWAY_LOGINS.map(({ id, protocol }) => ({
    id,
    name: protocol === "anthropic" ? "LLM gateway" : "LLM gateway (Bedrock)",
    description:
      protocol === "anthropic"
        ? "Send Claude Code's requests to a gateway of Anthropic's API, with its base URL and headers"
        : "Send Claude Code's requests to a gateway of Amazon Bedrock, with its base URL and headers",
    _meta: { gateway: { protocol } },
  }));
}

/** This agent's arguments that run one login: `--login --claudeai` or `--login --console`. */
export function loginArguments(account: LoginAccount): string[] {
  return [LOGIN_ARGUMENT, `--${account}`];
}

/**
 * The account a `--login` command line asks for (Claude Code's default, claude.ai, when
 * none is named), or undefined when the arguments are not a login.
 */
export function parseLoginArguments(argv: readonly string[]): LoginAccount | undefined {
  if (argv[0] !== LOGIN_ARGUMENT || argv.length > 2) return undefined;
  if (argv.length === 1) return "claudeai";
  return LOGINS.find((login) => argv[1] === `--${login.account}`)?.account;
}

export interface AgentCommand {
  command: string;
  args: string[];
}

/**
 * How a client can start this very agent again. The client launched it by a command we
 * cannot see (a registry install path, npx, a bin on its own PATH); the node binary
 * running us and our entry script start this same install whatever the client's PATH.
 * Node flags are left out: a login needs none, and some (--inspect) would clash.
 */
export function thisAgentCommand(): AgentCommand {
  const script = process.argv[1];
  return { command: process.execPath, args: script ? [script] : [] };
}

/**
 * Credentials from the environment (ANTHROPIC_API_KEY) need no method. A client that can
 * run terminal logins is offered Claude Code's logins: `auth.terminal` clients relaunch
 * this agent with the method's args; clients that predate it (`_meta["terminal-auth"]`)
 * run the command named in the method's `_meta["terminal-auth"]`. Such a method has no
 * `type`, since `type: "terminal"` may be sent only to `auth.terminal` clients.
 *
 * No agent-run method: Claude Code's login needs a browser on this machine or a code
 * pasted into a terminal, which `authenticate` alone can offer neither.
 */
export function authMethods(
  capabilities: ClientCapabilities,
  self: AgentCommand = thisAgentCommand(),
): AuthMethod[] {
  const terminal = capabilities.auth?.terminal === true;
  const metaTerminal = capabilities._meta?.["terminal-auth"] === true;
  const gateways = gatewayMethods(capabilities);
  if (!terminal && !metaTerminal) return gateways;
  const logins = LOGINS.map(({ id, account, name, description, label }) => {
    const args = loginArguments(account);
    const meta = metaTerminal
      ? {
          _meta: {
            "terminal-auth": { command: self.command, args: [...self.args, ...args], label },
          },
        }
      : {};
    return terminal
      ? { type: "terminal", id, name, description, args, ...meta }
      : { id, name, description, ...meta };
  });
  return [...logins, ...gateways];
}

/** Where Claude Code's messages part clauses: `·`, `;`, `—` or the end of a sentence. */
const CLAUSE = /\s*(?:[·;—]|(?<=\.)\s)\s*/u;

/**
 * What an `auth_required` error says: Claude Code's reason, cut before its advice to run
 * /login (a command of its terminal UI, which no ACP client has), then what to do here.
 */
export function authRequiredMessage(reason?: string): string {
  const clauses = (reason ?? "").split(CLAUSE).map((c) => c.trim().replace(/\.$/, ""));
  const firstLogin = clauses.findIndex((c) => c.includes("/login"));
  const kept = clauses.slice(0, firstLogin < 0 ? undefined : firstLogin).filter(Boolean);
  const why = kept.length > 0 ? kept.join(". ") : "Claude Code has no usable credentials";
  return (
    `${why}. Set ANTHROPIC_API_KEY in the agent's environment, log in with your client's ` +
    `login action (Claude account or Anthropic Console), or run \`claude-agent-acp ` +
    `${LOGIN_ARGUMENT}\` in a terminal.`
  );
}

/** Unstable: the agent's authentication status, and its changes (core/auth-status.ts). */
export const AUTH_STATUS_METHOD = "auth/status";
export const AUTH_STATUS_UPDATE_METHOD = "auth/status_update";

const statusRequest = z
  .looseObject({ _meta: z.record(z.string(), z.unknown()).nullish().catch(undefined) })
  .nullish();

/** Validates auth/status params: there are none to read. */
export const authStatusParams = {
  parse: (params: unknown): z.infer<typeof statusRequest> => statusRequest.parse(params),
};
