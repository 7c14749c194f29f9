import { randomUUID } from "node:crypto";
import { homedir } from "node:os";
import type {
  ContentBlock,
  ListSessionsResponse,
  McpServer,
  PromptResponse,
  SessionConfigOption,
} from "@agentclientprotocol/sdk";
import { isLoginMethod } from "./acp/auth.js";
import type { RequestedSystemPrompt } from "./acp/session-params.js";
import { sessionMetaOptions } from "./acp/session-meta.js";
import type { SessionClient } from "./acp/session-client.js";
import type { SteeringResponse } from "./acp/steering.js";
import type { AgentClientCapabilities } from "./acp/unstable-capabilities.js";
import { claudeLoggedIn, claudeLogout } from "./claude/auth-commands.js";
import { gatewayModelInfos, providerLaunch } from "./claude/provider-env.js";
import type { ClaudeQueryOptions, StartClaudeQuery } from "./claude/query.js";
import type { ClaudeTranscripts } from "./claude/transcripts.js";
import { AuthRequiredError, echoed, InvalidParamsError, SessionNotFoundError } from "./errors.js";
import { log } from "./logger.js";
import { hostQueryOptions } from "./session/configuration/claude-env.js";
import { conversationChain } from "./session/lifecycle/continuations.js";
import { archiveFilter, SessionHistory } from "./session/lifecycle/history.js";
import { isModelId } from "./session/configuration/model-ids.js";
import { ModelCache, modelCachePath } from "./session/configuration/model-cache.js";
import { ClaudeProcesses } from "./session/lifecycle/processes.js";
import { SessionRegistry } from "./session/registry.js";
import { clientSetup, type ClientSetup } from "./session/configuration/client-setup.js";
import { SavedPrompts } from "./session/lifecycle/saved-prompts.js";
import { type Prepared, prepareSession } from "./session/lifecycle/prepare.js";
import { requireDirectory } from "./session/configuration/directories.js";
import {
  type ConversationReader,
  conversationsToChange,
  readingAhead,
  savedConversations,
  savedIn,
} from "./session/lifecycle/saved.js";
import { Session } from "./session/session.js";
import { clientTitle } from "./session/stream/titles.js";
import type { ProviderConfig } from "./providers/provider-config.js";
import { Providers, type ProviderListing } from "./providers/providers.js";

export interface AgentDependencies {
  /** Starts one Claude Code process; tests pass a scripted fake. */
  startQuery: StartClaudeQuery;
  /** Claude Code's saved conversations; tests pass a fake. */
  transcripts: ClaudeTranscripts;
  /** Finds the Claude Code binary, or throws saying what to install. */
  resolveExecutable: () => string;
  /** Environment of the Claude Code processes. */
  env: NodeJS.ProcessEnv;
  /** Prepares a Claude Code process for the next session/new (a prewarmed spare). */
  warmUp?: (template: ClaudeQueryOptions) => void;
  /** The id of the next new session, where one was chosen ahead (default: a random one). */
  newSessionId?: () => string | undefined;
  /** The client is known (initialize): what every session needs may load while it is idle. */
  preload?: () => void;
}

/** Idle Claude processes are closed after this long unless CLAUDE_AGENT_ACP_IDLE_TIMEOUT_MS says otherwise. */
export const DEFAULT_IDLE_TIMEOUT_MS = 15 * 60_000;

function idleTimeoutMs(env: NodeJS.ProcessEnv): number {
  const value = Number(env.CLAUDE_AGENT_ACP_IDLE_TIMEOUT_MS);
  return env.CLAUDE_AGENT_ACP_IDLE_TIMEOUT_MS !== undefined && Number.isFinite(value) && value >= 0
    ? value
    : DEFAULT_IDLE_TIMEOUT_MS;
}

/** What new, load, resume and fork have in common. */
export interface OpenParams {
  cwd: string;
  mcpServers?: McpServer[] | null;
  additionalDirectories?: string[] | null;
  /** The RFD's system prompt (session-params.ts); checked before anything opens. */
  systemPrompt?: RequestedSystemPrompt | null;
  /** Options of this agent's and of Claude Code's (`claudeCode.options`, `systemPrompt`, ...). */
  _meta?: Record<string, unknown> | null;
}

/** A saved session to open again (load, resume, fork). */
export interface SavedSessionParams extends OpenParams {
  sessionId: string;
}

/** How a session talks to its client: the protocol adapter builds its sender. */
export type SessionClientFactory = (
  sessionId: string,
  capabilities: AgentClientCapabilities,
) => SessionClient;

/**
 * What the agent does, whatever protocol version asks: the open sessions, and the
 * operations on them and on the login. It speaks in plain values and the project's typed
 * errors (src/errors.ts); each protocol adapter (agent.ts for ACP v1, acp/v2/ for the v2
 * draft) turns requests into these calls and the results into its messages.
 */
export class AgentCore {
  private readonly sessions = new SessionRegistry();
  private readonly processes = new ClaudeProcesses();
  private readonly models: ModelCache;
  private readonly prompts: SavedPrompts;
  private readonly history: SessionHistory;
  private readonly providers: Providers;
  /** Ids closed on this connection: closing twice is harmless. */
  private readonly closed = new Set<string>();
  private clientCapabilities: AgentClientCapabilities = {};

  constructor(
    private readonly deps: AgentDependencies,
    private readonly sessionClient: SessionClientFactory,
  ) {
    this.models = new ModelCache(modelCachePath(deps.env), deps.env);
    this.prompts = new SavedPrompts(deps.env);
    this.history = new SessionHistory(deps.transcripts, (id) => this.sessions.find(id)?.state);
    this.providers = new Providers(deps.env);
  }

  /** The provider the client set, by its routing (never its headers), for the model cache. */
  private providerKey(): string | undefined {
    const config = this.providers.current?.config;
    return config && `${config.apiType} ${config.baseUrl}`;
  }

  /** The models the provider's gateway lists, as the picker offers them: model ids only. */
  private providerModels() {
    const models = this.providers.current?.models?.filter((model) => isModelId(model.id));
    return models?.length ? gatewayModelInfos(models) : undefined;
  }

  /** How Claude Code starts for the provider the client set (none: as the agent's env says). */
  private provider() {
    return providerLaunch(this.providers.current?.config, this.deps.env);
  }

  /** The client's capabilities are known (initialize): a spare process can start. */
  initialize(capabilities: AgentClientCapabilities): void {
    this.clientCapabilities = capabilities;
    this.warmUp();
    this.deps.preload?.();
  }

  /** The client is gone: every session closes. */
  disconnected(): void {
    this.sessions.closeAll();
    log.info("client disconnected; sessions closed");
  }

  /** What a session reads and checks before it is created (lifecycle/prepare.ts). */
  private prepare(
    params: OpenParams,
    setup: ClientSetup,
    promptOf: string | undefined,
  ): Promise<Prepared> {
    const { deps, prompts, models } = this;
    const sources = {
      env: deps.env,
      resolveExecutable: () => deps.resolveExecutable(),
      prompts,
      models,
      providerKey: this.providerKey(),
    };
    return prepareSession(sources, params, setup, promptOf);
  }

  /**
   * Validates everything first, then starts Claude Code without waiting for it to be ready
   * (session.start()); a session whose start fails at once is closed and never
   * registered, so nothing half-created is left behind.
   */
  private async open(
    params: OpenParams,
    id: string,
    options: {
      /** What the request configures, read (and refused if it must be) before anything else. */
      setup: ClientSetup;
      conversations?: readonly string[];
      /** Replays the saved conversations (from this reader) before it answers. */
      replay?: ConversationReader;
      /** The session whose saved system prompt applies when the request gives none. */
      promptOf?: string;
      /** prepare()'s work, begun already. */
      prepared?: Promise<Prepared>;
    },
  ): Promise<Session> {
    const { deps, sessions, processes } = this;
    const { setup } = options;
    const prepared = await (options.prepared ?? this.prepare(params, setup, options.promptOf));
    const { additionalDirectories, mcpServers, executable, systemPrompt, settings } = prepared;
    sessions.remove(id)?.close();
    await processes.exited(id); // one id, one Claude Code process: the previous one goes first
    const session = new Session({
      id,
      cwd: params.cwd,
      client: this.sessionClient(id, this.clientCapabilities),
      startQuery: processes.starter(id, deps.startQuery),
      transcripts: deps.transcripts,
      executable,
      env: { ...deps.env },
      mcpServers,
      additionalDirectories,
      settings,
      idleTimeoutMs: idleTimeoutMs(deps.env),
      models: prepared.models,
      setup: { ...prepared.setup, ...(systemPrompt !== undefined ? { systemPrompt } : {}) },
      provider: this.provider(),
      providerModels: this.providerModels(),
      ...(options.conversations?.length
        ? { resume: options.conversations.at(-1), earlier: options.conversations.slice(0, -1) }
        : {}),
    });
    try {
      // The conversation a load replays is what the user waits to see: Claude Code starts
      // after it, since starting beside it slows both on a small machine.
      if (options.replay) await session.replay(options.replay);
      await session.start();
    } catch (error) {
      session.close();
      throw error;
    }
    // Kept for a load or resume that gives none, and for forks.
    if (
      systemPrompt !== undefined &&
      (setup.systemPrompt !== undefined || options.promptOf !== session.id)
    ) {
      await this.prompts.set(session.id, systemPrompt);
    }
    sessions.add(session);
    this.closed.delete(session.id);
    // After the response, so the client knows the session the commands and title belong to.
    setTimeout(() => void session.announce().catch(() => undefined), 0);
    return session;
  }

  /** A saved session of the cwd (session/lifecycle/saved.ts): its conversations, oldest first. */
  private async saved(
    params: { sessionId: string; cwd: string; _meta?: unknown },
    options = sessionMetaOptions(params._meta),
  ): Promise<string[]> {
    await requireDirectory(params.cwd, "cwd");
    return savedConversations(this.deps.transcripts, params.sessionId, params.cwd, options);
  }

  /** Starts a spare Claude Code process now that the client's capabilities are known. */
  private warmUp(): void {
    const { deps } = this;
    if (!deps.warmUp) return;
    let executable: string;
    try {
      executable = deps.resolveExecutable();
    } catch {
      return; // session/new will report what to install
    }
    deps.warmUp({
      ...hostQueryOptions({
        executable,
        env: deps.env,
        provider: this.provider(),
        client: this.clientCapabilities,
      }),
      cwd: homedir(),
      canUseTool: () => Promise.resolve({ behavior: "deny", message: "unused" }),
    });
  }

  newSession(params: OpenParams): Promise<Session> {
    return this.open(params, this.deps.newSessionId?.() ?? randomUUID(), {
      setup: clientSetup(params),
    });
  }

  /**
   * A saved session, opened again: `replay` sends its conversation before it is answered
   * (session/load; v2's resume from the start).
   */
  resume(params: SavedSessionParams, options: { replay: boolean }): Promise<Session> {
    const setup = clientSetup(params);
    return this.sessions.exclusive(params.sessionId, async () => {
      // While the session is checked, its transcript is read and the rest of what the
      // session needs: the replay waits for them all. The check's refusal comes first.
      const reader = options.replay
        ? readingAhead(this.deps.transcripts, params.sessionId, params.cwd)
        : undefined;
      const prepared = this.prepare(params, setup, params.sessionId);
      prepared.catch(() => undefined);
      const conversations = await this.saved(params);
      return this.open(params, params.sessionId, {
        setup,
        conversations,
        ...(reader ? { replay: reader } : {}),
        promptOf: params.sessionId,
        prepared,
      });
    });
  }

  fork(params: SavedSessionParams): Promise<Session> {
    const setup = clientSetup(params);
    return this.sessions.exclusive(params.sessionId, async () => {
      // The fork continues from where the session is now (its latest conversation), and
      // may move to another cwd: it is then recorded there.
      const conversations = await this.saved(params, {
        includeWorktrees: false,
        allowCwdChange: true,
      });
      const forkedId = await this.deps.transcripts.fork(
        conversations.at(-1)!,
        params.cwd,
        params.cwd,
      );
      return this.open(params, forkedId, {
        setup,
        conversations: [forkedId],
        promptOf: params.sessionId,
      });
    });
  }

  async list(params: {
    cwd?: string | null;
    cursor?: string | null;
    archived?: string | null;
    _meta?: unknown;
  }): Promise<ListSessionsResponse> {
    const archived = archiveFilter(params.archived);
    if (params.cwd) await requireDirectory(params.cwd, "cwd");
    const { includeWorktrees } = sessionMetaOptions(params._meta);
    return this.history.page({ ...params, includeWorktrees, archived });
  }

  close(sessionId: string): Promise<void> {
    return this.sessions.exclusive(sessionId, () => {
      if (!this.sessions.find(sessionId) && !this.closed.has(sessionId)) {
        throw new SessionNotFoundError(sessionId);
      }
      this.closeNow(sessionId);
      return Promise.resolve();
    });
  }

  /** Closes the session if it is open; either way it is known as closed here. */
  private closeNow(sessionId: string): void {
    this.sessions.remove(sessionId)?.close();
    this.closed.add(sessionId);
  }

  delete(sessionId: string): Promise<void> {
    const { deps, sessions } = this;
    return sessions.exclusive(sessionId, async () => {
      const session = sessions.remove(sessionId);
      session?.close();
      const conversations = await conversationChain(sessionId, savedIn(deps.transcripts));
      const deleted = await deps.transcripts.delete(sessionId).then(
        () => true,
        () => false,
      );
      // Plan handoffs' conversations go with the session they continue.
      for (const conversation of conversations.slice(1)) {
        await deps.transcripts.delete(conversation).catch((error: unknown) => {
          log.warn(`could not delete conversation ${conversation}`, error);
        });
      }
      // A session that never saved a conversation has nothing on disk to delete.
      if (!deleted && !session) throw new SessionNotFoundError(sessionId);
      await this.prompts.set(sessionId, undefined);
      this.closed.add(sessionId);
    });
  }

  /**
   * `session/set_title`: the title is saved as Claude Code's `/rename` saves it, so the
   * listing, `claude --resume` and a later load show it; an open session publishes it.
   */
  setTitle(sessionId: string, title: string, meta?: unknown): Promise<string> {
    const stored = clientTitle(title);
    if (!stored) throw new InvalidParamsError("The title has no visible characters.");
    return this.sessions.exclusive(sessionId, async () => {
      const open = this.sessions.find(sessionId);
      for (const conversation of await this.toChange(sessionId, "title", open, meta)) {
        await this.deps.transcripts.rename(conversation, stored);
      }
      await open?.titleChanged();
      return stored;
    });
  }

  /** The conversations a title or archive mark goes to (lifecycle/saved.ts). */
  private toChange(sessionId: string, change: string, open: Session | undefined, meta: unknown) {
    const options = sessionMetaOptions(meta);
    return conversationsToChange(this.deps.transcripts, sessionId, change, open, options);
  }

  /**
   * `session/archive` and `session/unarchive`, with Claude Code's own mark, so its listing
   * (`claude --resume`) shows the same. Archiving an open session closes it first, as ACP
   * asks; unarchiving opens nothing. A prompt sent later unarchives it (Claude Code's rule).
   */
  setArchived(sessionId: string, archived: boolean, meta?: unknown): Promise<void> {
    return this.sessions.exclusive(sessionId, async () => {
      const open = this.sessions.find(sessionId);
      const conversations = await this.toChange(sessionId, "archive", open, meta);
      if (archived && open) this.closeNow(sessionId);
      for (const conversation of conversations) {
        await this.deps.transcripts.archive(conversation, archived);
      }
    });
  }

  /** Resolves with the turn's stop reason; `started`: see Session.prompt. */
  prompt(
    sessionId: string,
    prompt: ContentBlock[],
    signal?: AbortSignal,
    started?: (messageId: string) => void,
  ): Promise<PromptResponse> {
    return this.sessions.require(sessionId).prompt(prompt, signal, started);
  }

  steer(sessionId: string, prompt: ContentBlock[], idleBehavior?: string): SteeringResponse {
    return this.sessions.require(sessionId).steer(prompt, idleBehavior);
  }

  setMode(sessionId: string, modeId: string): Promise<void> {
    return this.sessions.require(sessionId).setMode(modeId);
  }

  setConfigOption(
    sessionId: string,
    configId: string,
    value: string | boolean,
  ): Promise<SessionConfigOption[]> {
    return this.sessions.require(sessionId).setConfigOption(configId, value);
  }

  /** `session/cancel`: the session's turn, or the subagent of a child session id. */
  cancel(sessionId: string): void {
    this.sessions.cancel(sessionId);
  }

  /** Each method is a login the client ran in a terminal; here it is only checked. */
  async authenticate(methodId: string): Promise<void> {
    const { deps } = this;
    if (!isLoginMethod(methodId)) {
      throw new InvalidParamsError(`Unknown auth method "${echoed(methodId)}".`, { methodId });
    }
    if (!(await claudeLoggedIn(deps.resolveExecutable(), deps.env))) {
      throw new AuthRequiredError("Claude Code is not logged in yet");
    }
  }

  /** Claude Code's logout; a provider the client set (its headers are credentials) goes first. */
  async logout(): Promise<void> {
    if (this.providers.current) await this.disableProvider();
    await claudeLogout(this.deps.resolveExecutable(), this.deps.env);
  }

  /** `providers/list`: where requests go now, without the headers. */
  listProviders(): ProviderListing[] {
    return this.providers.list();
  }

  /**
   * `providers/set` (and a gateway login): sessions opened from now on use the provider,
   * open ones from their next turn (providers/providers.ts).
   */
  async setProvider(config: ProviderConfig): Promise<void> {
    await this.providers.set(config);
    this.providerChanged();
  }

  /** `providers/disable`: back to the agent's environment, for new and open sessions. */
  async disableProvider(): Promise<void> {
    await this.providers.disable();
    this.providerChanged();
  }

  private providerChanged(): void {
    const provider = this.provider();
    const models = this.providerModels();
    for (const session of this.sessions.all()) session.reroute(provider, models);
    // A spare started for the old provider would serve no session now.
    this.warmUp();
  }
}
