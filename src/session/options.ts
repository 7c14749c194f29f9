import type { SessionClient } from "../acp/session-client.js";
import type { ProviderLaunch } from "../claude/provider-env.js";
import type { StartClaudeQuery } from "../claude/query.js";
import type { ClaudeTranscripts } from "../claude/transcripts.js";
import type { McpServerConfig, ModelInfo } from "../claude/types.js";
import type { ClientSetup } from "./configuration/client-setup.js";
import type { KnownModels } from "./configuration/model-cache.js";
import type { AdapterSettings } from "./configuration/settings.js";

/** What a session is opened with (core/opening.ts reads and checks it first). */
export interface SessionOptions {
  id: string;
  cwd: string;
  client: SessionClient;
  startQuery: StartClaudeQuery;
  executable: string;
  env: NodeJS.ProcessEnv;
  mcpServers: Record<string, McpServerConfig>;
  additionalDirectories: readonly string[];
  settings: AdapterSettings;
  transcripts: ClaudeTranscripts;
  /** An idle session's Claude process is closed after this long (0: never); the next prompt resumes it. */
  idleTimeoutMs: number;
  /** Continue this saved Claude conversation (session/load, resume, fork) instead of a new one. */
  resume?: string;
  /** `resume` was rewound to this entry, which its transcript does not show yet (rewind-marks.ts). */
  resumeAt?: string;
  /** The conversations before `resume` in this ACP session (plan handoffs), oldest first. */
  earlier?: readonly string[];
  /** The models of Claude Code's last start, offered until this one reports its own. */
  models: KnownModels;
  /** What the client configured when it opened the session (client-setup.ts). */
  setup: ClientSetup;
  /** The provider the client set (claude/provider-env.ts), if it set one. */
  provider?: ProviderLaunch | undefined;
  /** The models the provider's gateway serves: the picker offers these, not Claude Code's. */
  providerModels?: readonly ModelInfo[];
  /**
   * Whether Claude Code starts with the folder's project context (its settings, hooks, MCP
   * servers, instructions): false in a folder the user has not trusted (core/session-trust.ts).
   */
  projectContext: boolean;
}
