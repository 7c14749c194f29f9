import { wantsPromptSuggestions } from "../../acp/prompt-suggestions.js";
import { supportsFormElicitation } from "../../acp/unstable-capabilities.js";
import type { AgentClientCapabilities } from "../../acp/unstable-capabilities.js";
import { claudeEnvironment } from "../../claude/environment.js";
import { initialThinking } from "../../claude/thinking.js";
import type { ClaudeQueryOptions } from "../../claude/query.js";
import type { ProviderLaunch } from "../../claude/provider-env.js";
import { IGNORE_PERSISTED_TRUST } from "../../claude/trust-store.js";
import type { McpServerConfig, SettingSource } from "../../claude/types.js";
import { DEFAULT_SETTING_SOURCES } from "../../claude/client-options/options.js";
import type { ClientSetup } from "./client-setup.js";
import type { SessionConfiguration } from "./configuration.js";
import { isPermissionMode } from "../../permissions/modes.js";
import { processMayBypass } from "./modes.js";

/** The tool Claude uses to ask the user questions. */
export const QUESTION_TOOL = "AskUserQuestion";

/**
 * What a Claude Code process is started with for this agent and client, the same for
 * every session: a prewarmed spare is started with exactly these.
 */
export function hostQueryOptions(host: {
  executable: string;
  env: NodeJS.ProcessEnv;
  /**
   * What the client declared: without form elicitation Claude must never ask a question;
   * a client that shows subagents as child sessions gets their words forwarded too, and one
   * that asks for prompt suggestions gets them.
   */
  client: AgentClientCapabilities;
  mcpServers?: Record<string, McpServerConfig>;
  /** The provider the client set, if it set one. */
  provider?: ProviderLaunch | undefined;
}): Pick<
  ClaudeQueryOptions,
  | "executable"
  | "env"
  | "settingsEnv"
  | "disallowedTools"
  | "allowBypass"
  | "mcpServers"
  | "forwardSubagentText"
  | "thinking"
  | "promptSuggestions"
> {
  return {
    ...(wantsPromptSuggestions(host.client) ? { promptSuggestions: true } : {}),
    ...(host.client.subagents ? { forwardSubagentText: true } : {}),
    thinking: initialThinking(host.env),
    executable: host.executable,
    env: claudeEnvironment({ ...host.env, ...host.provider?.env }),
    ...(host.provider ? { settingsEnv: host.provider.settingsEnv } : {}),
    disallowedTools: supportsFormElicitation(host.client) ? [] : [QUESTION_TOOL],
    // Lets a session enter bypassPermissions when the user picks it; settings that
    // disable bypass are enforced by the session's mode list and by Claude Code.
    allowBypass: processMayBypass(host.env, process.getuid?.()),
    mcpServers: host.mcpServers ?? {},
  };
}

/**
 * A session's Claude Code environment: the agent's, the provider's over it, and what the
 * client set for the session, which wins (but for the provider's routing, see
 * ProviderLaunch.settingsEnv).
 */
export function sessionEnvironment(
  env: NodeJS.ProcessEnv,
  setup: ClientSetup,
  provider?: ProviderLaunch,
): NodeJS.ProcessEnv {
  return { ...claudeEnvironment({ ...env, ...provider?.env }), ...setup.options.env };
}

/** Everything one session's Claude Code process is started with. */
export function sessionQueryOptions(session: {
  executable: string;
  env: NodeJS.ProcessEnv;
  client: AgentClientCapabilities;
  mcpServers: Record<string, McpServerConfig>;
  cwd: string;
  additionalDirectories: readonly string[];
  /** A new conversation, or the saved one to continue. */
  conversation: Pick<
    ClaudeQueryOptions,
    "sessionId" | "exactSessionId" | "resume" | "resumeSessionAt" | "resumeDropsTurn"
  >;
  mode: string;
  configuration: SessionConfiguration | undefined;
  canUseTool: ClaudeQueryOptions["canUseTool"];
  onElicitation: ClaudeQueryOptions["onElicitation"];
  onSubagentStart?: ClaudeQueryOptions["onSubagentStart"];
  /** What the client configured when it opened the session. */
  setup: ClientSetup;
  provider?: ProviderLaunch | undefined;
  /** Whether Claude Code loads the folder's project context (project-context.ts). */
  projectContext: boolean;
}): ClaudeQueryOptions {
  const { configuration, mode, setup } = session;
  const settingSources = projectSettingSources(setup, session.projectContext);
  const model = configuration?.claudeModel;
  const { env: _env, mcpServers, disallowedTools, ...clientOptions } = setup.options;
  const host = hostQueryOptions(session);
  return {
    ...host,
    // The client's values join the agent's; where both name one, the agent's wins (its
    // MCP servers from ACP, its disallowed tools), except the environment, which is the
    // client's to set.
    env: {
      ...sessionEnvironment(session.env, setup, session.provider),
      // Claude Code's own switch for a host that asks on its own: no trust record counts.
      ...(session.projectContext ? {} : { [IGNORE_PERSISTED_TRUST]: "1" }),
    },
    mcpServers: { ...mcpServers, ...host.mcpServers },
    disallowedTools: [...new Set([...(host.disallowedTools ?? []), ...(disallowedTools ?? [])])],
    ...(setup.systemPrompt !== undefined ? { systemPrompt: setup.systemPrompt } : {}),
    ...(settingSources ? { settingSources } : {}),
    ...(Object.keys(clientOptions).length ? { clientOptions } : {}),
    cwd: session.cwd,
    ...session.conversation,
    additionalDirectories: [...session.additionalDirectories],
    permissionMode: isPermissionMode(mode) ? mode : "default",
    ...(model ? { model } : {}),
    flagSettings: configuration?.flagSettings() ?? {},
    ...(configuration ? { thinking: configuration.current.thinking } : {}),
    canUseTool: session.canUseTool,
    ...(session.onElicitation ? { onElicitation: session.onElicitation } : {}),
    ...(session.onSubagentStart ? { onSubagentStart: session.onSubagentStart } : {}),
  };
}

/**
 * The setting sources a session's Claude Code reads: the client's (else Claude Code's own);
 * without the folder's project context, only the user's.
 */
export function projectSettingSources(
  setup: Pick<ClientSetup, "settingSources">,
  projectContext: boolean,
): SettingSource[] | undefined {
  if (projectContext) return setup.settingSources;
  return (setup.settingSources ?? DEFAULT_SETTING_SOURCES).filter((source) => source === "user");
}
