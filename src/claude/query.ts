import type { ClientOptions, SdkSystemPrompt } from "./client-options/options.js";
import type { ThinkingChoice, ThinkingDisplay } from "./thinking.js";
import type { UltracodeReport } from "./ultracode.js";
import type { CompactionSettings } from "./compaction-settings.js";
import type {
  CanUseTool,
  EffortLevel,
  McpElicitationRequest,
  McpElicitationResult,
  McpServerConfig,
  McpServerStatus,
  ModelInfo,
  PermissionMode,
  RewindFilesResult,
  SDKMessage,
  SDKUserMessage,
  SettingSource,
  SlashCommand,
} from "./types.js";

/** What a session adopts of Claude Code's settings once it has started. */
export interface StartReport {
  /** Whether ultracode can be turned on, and is asked for (ultracode.ts). */
  ultracode?: UltracodeReport | undefined;
  /** Whether its settings start it with thinking off (settings-report.ts). */
  thinkingOff?: boolean | undefined;
}

/**
 * The narrow edge between a session and one private Claude Code process. The SDK
 * adapter (sdk-query.ts) is the production implementation; tests script fakes.
 */
export interface ClaudeQuery {
  /**
   * Claude's id of the conversation: the one asked for, or, for a process claimed from a
   * prewarmed spare, the one Claude Code assigned.
   */
  readonly sessionId: Promise<string>;
  /** Everything Claude Code emits, in order. One consumer. Ends when the process ends. */
  readonly messages: AsyncIterable<SDKMessage>;
  /** Streams one user message into the conversation. */
  send(message: SDKUserMessage): void;
  /** Stops the running turn; Claude Code answers with a `result` message. */
  interrupt(): Promise<void>;
  /** Stops one background or foreground task (a subagent); the turn goes on. */
  stopTask(taskId: string): Promise<void>;
  setPermissionMode(mode: PermissionMode): Promise<void>;
  setModel(model: string | undefined): Promise<void>;
  /** Merges settings into the flag layer (effort level, fast mode). */
  applyFlagSettings(settings: Record<string, unknown>): Promise<void>;
  /** Claude's thinking from the next request on: a budget (0: off) and how it shows. */
  setThinking(budget: number, display?: ThinkingDisplay): Promise<void>;
  /**
   * Resolves when Claude Code answers a cheap control request (its MCP servers' status):
   * proof that the process still reads and answers, even when it has been quiet.
   */
  probe(): Promise<void>;
  /** The skills Claude Code offers, read again from disk (one added meanwhile is there). */
  reloadSkills(): Promise<SlashCommand[]>;
  /**
   * The skills Claude Code loads, each with its file when it has one (a bundled skill has
   * none), from its context report (`detail: "summary"`: no token-count request is made).
   */
  skillFiles(): Promise<Array<{ name: string; path?: string }>>;
  /** Every MCP server Claude Code knows (the client's and the user's own), with its state. */
  mcpServerStatus(): Promise<McpServerStatus[]>;
  /** Reconnects one MCP server; rejects with Claude Code's reason when it fails. */
  reconnectMcpServer(name: string): Promise<void>;
  /** Enables or disables one MCP server for this process. */
  toggleMcpServer(name: string, enabled: boolean): Promise<void>;
  /**
   * Starts signing in to an MCP server that needs OAuth; rejects with Claude Code's reason
   * when it cannot (unknown server, a transport without OAuth). Claude Code receives the
   * authorization's redirect itself and reconnects the server once it holds a token.
   */
  authenticateMcpServer(name: string): Promise<McpSignIn>;
  /** The model Claude Code runs now (a `/model` in the chat changes it). */
  currentModel(): Promise<string>;
  /** Whether ultracode can be turned on, and is asked for (ultracode.ts); undefined: unknown. */
  ultracode(): Promise<UltracodeReport | undefined>;
  /** What Claude Code's settings say of compaction (compaction-settings.ts); undefined: unknown. */
  compactionSettings(): Promise<CompactionSettings | undefined>;
  /** What Claude Code's settings say at its start, from one `get_settings` (StartReport). */
  startReport(): Promise<StartReport>;
  /**
   * Has Claude Code title the conversation as it titles its own (from `description`, the
   * conversation's first prompt) and save the title in the transcript. Undefined when it
   * made none (the model's reply was not the JSON it asks for).
   */
  generateTitle(description: string): Promise<string | undefined>;
  /**
   * The files Claude Code changed since the user message `userMessageId`, put back as they
   * were when it was sent (file checkpointing), or with `dryRun` only counted.
   */
  rewindFiles(userMessageId: string, dryRun: boolean): Promise<FilesRewound>;
  /** Ends the process now, however it is stuck: SIGTERM, SIGKILL after a grace. */
  terminate(): void;
  /** What Claude Code reported at start-up: commands, models, account. */
  initialization(): Promise<ClaudeInitialization>;
  /** Ends the process and frees its resources. Safe to call twice. */
  close(): void;
  /** Settles once the process has exited after `close()` (never before it is called). */
  readonly exited?: Promise<void>;
}

/** What a rewind of files did, or would do (the SDK's RewindFilesResult). */
export type FilesRewound = RewindFilesResult;

export interface ClaudeInitialization {
  commands: SlashCommand[];
  models: ModelInfo[];
}

/** A sign-in to an MCP server under way. */
export interface McpSignIn {
  /** The page the user must visit to authorize; absent when Claude Code needs no one. */
  authorizationUrl?: string;
}

export interface ClaudeQueryOptions {
  /** Absolute working directory of the session. */
  cwd: string;
  /** Start a new Claude session with this id. */
  sessionId?: string;
  /** The new conversation must carry `sessionId` itself (a prewarmed spare names its own). */
  exactSessionId?: boolean;
  /** Continue the Claude session with this id from its transcript. */
  resume?: string;
  /** With `resume`: continue from this entry of the transcript, dropping what came after it. */
  resumeSessionAt?: string;
  /**
   * With `resumeSessionAt`: the prompt of the one turn it drops, which Claude Code checks is
   * all it drops (its validated truncation), refusing the resume otherwise.
   */
  resumeDropsTurn?: string;
  additionalDirectories?: string[];
  mcpServers?: Record<string, McpServerConfig>;
  permissionMode?: PermissionMode;
  model?: string;
  effort?: EffortLevel;
  disallowedTools?: string[];
  /** Settings for Claude Code's flag layer from the start (effort level, fast mode). */
  flagSettings?: Record<string, unknown>;
  /** The system prompt the client gave (default: Claude Code's own). */
  systemPrompt?: SdkSystemPrompt;
  /** The settings files Claude Code reads (default: user, project, local). */
  settingSources?: SettingSource[];
  /** The client's own Claude SDK options (client-options.ts), under the agent's. */
  clientOptions?: ClientOptions;
  /** Subagents' text and thinking come as messages too (not only their tool calls). */
  forwardSubagentText?: boolean;
  /** Claude Code predicts the user's next prompt after each turn (`prompt_suggestion`). */
  promptSuggestions?: boolean;
  /**
   * Claude's thinking (thinking.ts): the display it starts with, or off, which is applied
   * once the process exists (it could not be turned on again otherwise). A client's own
   * `thinking` option decides the start.
   */
  thinking?: ThinkingChoice;
  /** Lets the session enter bypassPermissions (only where the process may bypass). */
  allowBypass?: boolean;
  canUseTool: CanUseTool;
  /** Answers an MCP server's `elicitation/create`; without it Claude Code declines them. */
  onElicitation?: OnMcpElicitation;
  /** Hears where each subagent works as it starts (Claude Code's SubagentStart hook). */
  onSubagentStart?: OnSubagentStart;
  /** Path of the Claude Code binary (see executable.ts). */
  executable: string;
  /** Full environment of the Claude Code process. */
  env: Record<string, string | undefined>;
  /**
   * Variables set in Claude Code's flag settings layer from its start, above the settings
   * files' `env` (which would otherwise override the environment): a provider's routing.
   * They are on the command line: never a secret.
   */
  settingsEnv?: Record<string, string>;
}

/** An MCP server asks the user something; the signal ends when Claude Code gives up on it. */
export type OnMcpElicitation = (
  request: McpElicitationRequest,
  signal: AbortSignal,
) => Promise<McpElicitationResult>;

/**
 * A subagent (its agent id) starts working in `cwd`: a git worktree of its own when it
 * runs with `isolation: "worktree"`. Its work waits until this settles.
 */
export type OnSubagentStart = (agentId: string, cwd: string) => Promise<void>;

export type StartClaudeQuery = (options: ClaudeQueryOptions) => ClaudeQuery;
