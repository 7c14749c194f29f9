import { homedir } from "node:os";
import type {
  ContentBlock,
  PromptResponse,
  SessionConfigOption,
  SessionModeState,
  UsageUpdate,
} from "@agentclientprotocol/sdk";
import type { SessionClient } from "../acp/session-client.js";
import type { SteeringResponse } from "../acp/steering.js";
import { taskOutputFile } from "../claude/task-output.js";
import type { ClaudeTranscripts } from "../claude/transcripts.js";
import type { ClaudeInitialization, ClaudeQuery, StartClaudeQuery } from "../claude/query.js";
import type {
  CanUseTool,
  McpServerConfig,
  ModelInfo,
  PermissionMode,
  SDKMessage,
  SDKResultMessage,
  SystemMessage,
  UserContentBlock,
} from "../claude/types.js";
import type { ProviderLaunch } from "../claude/provider-env.js";
import { SYNTHETIC_MODEL } from "../claude/types.js";
import {
  ClaudeNotRespondingError,
  ClaudeProcessExitedError,
  type ClaudeStartError,
} from "../errors.js";
import { log } from "../logger.js";
import { parseMcpCommand, type McpCommand } from "../mcp/command.js";
import { SessionMcp } from "../mcp/session-mcp.js";
import type { PlanHandoff } from "../plan/handoff.js";
import { plansDirectory } from "../plan/plan-file.js";
import { withTimeout } from "../util/timeout.js";
import { sessionEnvironment, sessionQueryOptions } from "./configuration/claude-env.js";
import { ClaudeActivity } from "./background/claude-activity.js";
import type { ClientSetup } from "./configuration/client-setup.js";
import { ClaudeTasks } from "./background/claude-tasks.js";
import { availableCommands } from "./stream/commands.js";
import { ClaudeMessageConsumer } from "./stream/consumer.js";
import type { KnownModels } from "./configuration/model-cache.js";
import { ignoredOptionsNotice, limitNotice, startFailedNotice } from "./stream/notices.js";
import { OwnTurns } from "./turns/own-turns.js";
import { SystemMessages } from "./stream/system-messages.js";
import { continuationId } from "./lifecycle/continuations.js";
import { SessionConfiguration } from "./configuration/configuration.js";
import { outcomeOfResult, type TurnOutcome } from "./turns/outcome.js";
import { checkModelCommand } from "./configuration/model-ids.js";
import { isSlashCommand, promptToClaude } from "./turns/prompt.js";
import { IdleClose } from "./lifecycle/idle-close.js";
import { awaitsSteer, resendSteers, steer } from "./turns/steering.js";
import type { AdapterSettings } from "./configuration/settings.js";
import { StreamTranslator } from "./stream/stream.js";
import type { ConversationReader } from "./lifecycle/saved.js";
import { replayConversation, savedSubagent } from "./background/subagent-replay.js";
import { Subagents } from "./background/subagents.js";
import { SessionTerminals } from "./background/terminals.js";
import { sessionCanUseTool } from "./turns/tool-gate.js";
import { ToolCallTracker } from "./stream/tool-calls.js";
import type { Turn } from "./turns/turn.js";
import { TurnQueue, userMessage } from "./turns/turn-queue.js";
import { UNFINISHED } from "./turns/unfinished.js";
import { PlanHandoffs } from "./turns/plan-handoffs.js";
import { addTurnUsage, UsageTracker } from "./stream/usage.js";
import { accountErrorNotice } from "./stream/account-errors.js";
import { RateLimitReporter } from "./stream/rate-limits.js";
import { UsageCommand } from "./stream/usage-command.js";
import type { RowState } from "./lifecycle/history.js";
import { claudeTitlesItself, TitleWatcher } from "./stream/titles.js";
import { StartupWatch, START_TIMEOUT_MS } from "./lifecycle/startup.js";
import { Watchdog, watchdogBounds } from "./lifecycle/watchdog.js";

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
}

/**
 * One ACP session: one private Claude Code conversation at a time. Prompts run one at a
 * time in arrival order, each after any turn Claude Code started itself; the consumer
 * hands every Claude message to the turn that owns it, or shows it between turns.
 */
export class Session {
  private sessionId: string;
  readonly cwd: string;
  private query: ClaudeQuery | undefined;
  /** Claude's own id of the current private conversation (a plan handoff starts a new one). */
  private claudeSessionId: string;
  /** True once a prompt reached Claude Code, so a restart resumes the transcript. */
  private hasTranscript = false;
  private readonly turns: TurnQueue;
  private closed = false;
  private readonly tools = new ToolCallTracker((call, name) => this.terminals.announce(call, name));
  private readonly terminals: SessionTerminals;
  private readonly tasks = new ClaudeTasks({
    tools: this.tools,
    close: (calls, reason) => this.turns.closeToolCalls(calls, () => reason),
  });
  private readonly stream: StreamTranslator;
  private readonly canUseTool: CanUseTool;
  private readonly usage = new UsageTracker();
  /** The subscription's limits Claude Code reports (rate-limits.ts). */
  private readonly rateLimits = new RateLimitReporter();
  private readonly usageCommand = new UsageCommand();
  /** Whether the last prompt failed (a listing shows it). */
  private lastTurnFailed = false;
  private readonly plans: PlanHandoffs;
  private configuration: SessionConfiguration | undefined;
  private initialization: ClaudeInitialization | undefined;
  /** The first process's start, which the session does not wait for (startup.ts). */
  private startup: StartupWatch | undefined;
  /** A failed start no prompt has reported yet: the next prompt does. */
  private startFailure: ClaudeStartError | undefined;
  private claudeCapabilities: readonly string[] = [];
  private readonly idle: IdleClose;
  /** The provider the next process is started for, and the models its gateway serves. */
  private provider: ProviderLaunch | undefined;
  private providerModels: readonly ModelInfo[] | undefined;
  /** The provider changed since the process started: the next turn starts a new one. */
  private rerouted = false;
  private readonly titles: TitleWatcher;
  private readonly watchdog: Watchdog;
  /** Processes whose end was handled (a hung one's is handled before it is gone). */
  private readonly ended = new WeakSet<ClaudeQuery>();
  private readonly mcp: SessionMcp;
  private readonly systemMessages: SystemMessages;
  private readonly activity = new ClaudeActivity(() => this.idle.schedule());
  private readonly ownTurns = new OwnTurns({
    client: () => this.options.client,
    usage: this.usage,
    activity: this.activity,
    userTurnRuns: () => !!this.turns.current && !this.turns.current.isFinished,
    closeOpen: async () => {
      this.stream.endTurn();
      await this.turns.closeOpenToolCalls(() => UNFINISHED.noResult);
    },
    followModel: () => this.followModel(),
    afterTurn: () => this.titles.afterTurn(),
    send: (update) => this.send(update),
  });
  private readonly subagents: Subagents;
  private readonly consumer = new ClaudeMessageConsumer(
    {
      isLive: (query) => this.query === query,
      userTurn: () => (this.turns.current?.isFinished ? undefined : this.turns.current),
      heard: () => this.watchdog.heard(),
      endUserTurn: (turn, result) => this.endTurn(turn, result),
      startOwnTurn: () => this.ownTurns.started(),
      endOwnTurn: (result) => this.ownTurns.ended(result),
      system: async (message) => {
        await this.send(() => this.subagents.system(message));
        await this.systemMessages.handle(message);
      },
      show: (message) => this.show(message),
      ended: (query, failure) => this.onQueryEnded(query, failure),
    },
    this.activity,
    this.tasks,
  );

  constructor(private readonly options: SessionOptions) {
    this.idle = new IdleClose(options.idleTimeoutMs, () => this.closeIfIdle());
    this.provider = options.provider;
    this.providerModels = options.providerModels;
    this.sessionId = options.id;
    this.cwd = options.cwd;
    this.subagents = new Subagents({
      children: options.client.children,
      tools: this.tools,
      cwd: options.cwd,
      query: () => this.query,
      savedAgent: (agentId) =>
        savedSubagent(options.transcripts, this.claudeSessionId, agentId, this.cwd),
    });
    this.claudeSessionId = options.resume ?? options.id;
    this.hasTranscript = options.resume !== undefined;
    this.plans = new PlanHandoffs(
      {
        currentTurn: () => this.turns.current,
        tools: this.tools,
        configuration: () => this.requireConfiguration(),
        send: (update) => this.send(update),
        newConversation: (mode) => this.newConversation(mode),
      },
      plansDirectory(options.env),
    );
    this.systemMessages = new SystemMessages({
      client: options.client,
      configuration: () => this.requireConfiguration(),
      capabilitiesReported: (capabilities) => (this.claudeCapabilities = capabilities),
      mcpServersReported: (servers) => this.mcp.observe(servers),
      elicitationComplete: (id) => this.mcp.elicitationComplete(id),
      send: (update) => this.send(update),
      compacted: (tokens) => this.sendUsage(this.usage.compacted(tokens)),
      taskEnded: (task) => this.terminals.taskEnded(task),
      foregroundTask: (task) => this.terminals.foregroundStarted(task),
    });
    this.titles = new TitleWatcher(
      {
        info: () => options.transcripts.info(this.claudeSessionId, this.cwd),
        generate: async (description) => this.query?.generateTitle(description),
        titlesItself: claudeTitlesItself(options.env),
      },
      (title, updatedAt) => options.client.updateSessionInfo({ title, updatedAt }),
    );
    const context = { cwd: options.cwd };
    this.terminals = new SessionTerminals(
      {
        client: options.client,
        send: (update) => this.send(update),
        process: () => this.query,
        backgroundTask: (toolUseId) => this.tasks.backgroundCommand(toolUseId),
        call: (toolUseId) => this.tools.get(toolUseId),
        taskOutputFile: (taskId) =>
          taskOutputFile(
            sessionEnvironment(options.env, options.setup),
            this.claudeSessionId,
            taskId,
          ),
      },
      options.cwd,
    );
    this.stream = new StreamTranslator(options.client, this.tools, context, this.terminals);
    this.watchdog = new Watchdog(
      watchdogBounds(options.env),
      () => this.query,
      (query, error) => this.onHung(query, error),
    );
    this.turns = new TurnQueue({
      id: () => this.id,
      closed: () => this.closed,
      client: options.client,
      tools: this.tools,
      stream: this.stream,
      terminals: this.terminals,
      activity: this.activity,
      tasks: this.tasks,
      watchdog: this.watchdog,
      query: () => this.query,
      liveQuery: () => this.liveQuery(),
      promptSent: () => (this.hasTranscript = true),
      restartQuery: () => this.restartQuery(),
      busy: () => this.idle.cancel(),
      idle: () => this.idle.schedule(),
      send: (update) => this.send(update),
    });
    const canUseTool = sessionCanUseTool({
      client: options.client,
      tools: this.tools,
      context,
      homeDir: options.env.HOME || homedir(),
      workingDirectories: [options.cwd, ...options.additionalDirectories],
      currentTurn: () => this.turns.current,
      planContext: () => ({
        availableModes: this.configuration?.availableModeIds() ?? new Set(),
        ...(this.usage.usedPercent() === undefined
          ? {}
          : { contextUsedPercent: this.usage.usedPercent() }),
      }),
      plans: this.plans,
      claudeCapabilities: () => this.claudeCapabilities,
    });
    this.canUseTool = this.watchdog.pausedWhileClientAnswers(canUseTool);
    this.mcp = new SessionMcp({
      client: options.client,
      turnSignal: () => this.turns.current?.abort.signal,
      openToolCalls: () => this.tools.open(),
      query: () => this.query,
    });
  }

  /** The ACP session id: Claude's own id of the conversation. */
  get id(): string {
    return this.sessionId;
  }

  get client(): SessionClient {
    return this.options.client;
  }

  /**
   * Starts Claude Code without waiting for it to be ready (only for a prewarmed process's
   * claim, which names the conversation): the session answers with the modes and the
   * models known so far, and what Claude Code reports follows (`started`). A prompt sent
   * meanwhile waits in the process's input; a start that fails is reported (`startFailed`).
   */
  async start(): Promise<void> {
    const { settings, env, client, setup } = this.options;
    this.configuration = SessionConfiguration.forSession(
      {
        settings,
        env,
        models: this.providerModels ?? this.options.models.known,
        booleanOptions: !!client.capabilities.session?.configOptions?.boolean,
        ...(setup.effort ? { effort: setup.effort } : {}),
        ...(setup.model ? { model: setup.model } : {}),
        ...(setup.options.env ? { clientEnv: setup.options.env } : {}),
      },
      {
        modeChanged: (mode) => client.updateCurrentMode(mode),
        optionsChanged: (options) => client.updateConfigOptions(options),
      },
    );
    const mode = this.configuration.startMode(this.wantedMode());
    this.configuration.assume();
    const query = this.startQuery(mode);
    try {
      const claudeId = await withTimeout(query.sessionId, START_TIMEOUT_MS, "Claude Code start-up");
      // A prewarmed process names the conversation itself; the session takes that name,
      // so ACP ids and Claude's saved conversations always agree.
      if (claudeId !== this.claudeSessionId && !this.options.resume) {
        this.claudeSessionId = claudeId;
        this.sessionId = claudeId;
        this.options.client.rebind(claudeId);
      }
    } catch (error) {
      this.query = undefined;
      query.close();
      throw error;
    }
    this.startup = new StartupWatch(query, {
      started: (q, initialization) => this.started(q, initialization),
      failed: (q, error) => this.startFailed(q, error),
    });
  }

  /** Claude Code reported what it offers: its models, its own model and the settings' mode apply. */
  private async started(query: ClaudeQuery, initialization: ClaudeInitialization): Promise<void> {
    if (this.closed || this.query !== query) return;
    this.initialization = initialization;
    this.options.models.remember(initialization.models);
    const models = this.providerModels ?? initialization.models;
    await this.send(() =>
      this.requireConfiguration().adopt(models, this.wantedMode(), (m) =>
        query.setPermissionMode(m),
      ),
    );
    this.idle.schedule();
  }

  /**
   * The mode the session starts in: the client's, when the session offers it (it is then
   * one of its modes, see `ignoredMode`), else the settings'.
   */
  private wantedMode(): PermissionMode {
    const { setup, settings } = this.options;
    return setup.permissionMode && !this.ignoredMode()
      ? setup.permissionMode
      : settings.defaultMode;
  }

  /** Whether the client asked for a permission mode the session does not offer. */
  private ignoredMode(): boolean {
    const mode = this.options.setup.permissionMode;
    if (!mode || !this.configuration) return false;
    return mode === "dontAsk" || !this.configuration.availableModeIds().has(mode);
  }

  /**
   * The first process did not start: the client hears it at once (a notice), and the
   * prompt waiting for it, or else the next one, fails with the reason. A later prompt
   * starts a new process.
   */
  private async startFailed(query: ClaudeQuery, error: ClaudeStartError): Promise<void> {
    if (this.closed || this.ended.has(query) || this.query !== query) return;
    this.ended.add(query);
    log.warn(`session ${this.id}: ${error.message}`);
    this.query = undefined;
    query.close();
    await this.send(() => this.options.client.sendNotice(startFailedNotice(error.message)));
    const turn = this.turns.current;
    if (turn && !turn.isFinished) {
      turn.abort.abort(error);
      await this.turns.settle(turn, { error });
      turn.finish();
    } else {
      this.startFailure = error;
    }
  }

  modes(): SessionModeState | undefined {
    return this.configuration?.modes();
  }

  configOptions(): SessionConfigOption[] {
    return this.configuration?.options() ?? [];
  }

  async setMode(modeId: string): Promise<void> {
    await this.requireConfiguration().setMode(modeId, this.query);
  }

  async setConfigOption(configId: string, value: string | boolean): Promise<SessionConfigOption[]> {
    return this.requireConfiguration().setOption(configId, value, this.query);
  }

  private requireConfiguration(): SessionConfiguration {
    if (!this.configuration) throw new ClaudeProcessExitedError("The session has not started.");
    return this.configuration;
  }

  /**
   * session/load: the whole saved conversation as updates, before the load is answered
   * (its subagents in their child sessions, see subagent-replay.ts). Tool calls the
   * transcript leaves without a result are closed, never left pending.
   */
  async replay(transcripts: ConversationReader = this.options.transcripts): Promise<void> {
    const { client } = this.options;
    const host = { transcripts, cwd: this.cwd, stream: this.stream, subagents: this.subagents };
    for (const conversation of [...(this.options.earlier ?? []), this.claudeSessionId]) {
      await replayConversation({ ...host, children: client.children }, conversation);
    }
    await this.turns.closeOpenToolCalls(() => UNFINISHED.noResult);
    this.stream.endTurn();
  }

  /**
   * Tells the client which slash commands it can offer and the conversation's title, then
   * which MCP servers failed.
   */
  async announce(): Promise<void> {
    const ignored = [
      ...this.options.setup.ignored,
      ...(this.ignoredMode() ? [{ name: "permissionMode", reason: "mode" as const }] : []),
    ];
    if (ignored.length) {
      await this.send(() => this.options.client.sendNotice(ignoredOptionsNotice(ignored)));
    }
    await this.startup?.decided;
    if (!this.initialization || this.closed) return;
    if (this.options.resume) void this.titles.afterOpen();
    await this.options.client.updateAvailableCommands(
      availableCommands(this.initialization.commands),
    );
    void this.mcp.reportStartFailures().catch((error: unknown) => log.warn("MCP status", error));
  }

  /**
   * Queues a prompt; it runs after the ones before it and resolves with its stop reason.
   * `signal` (the request's own cancellation) cancels this prompt only; `started` is called
   * when its turn starts, after the turns before it (ACP v2 answers the prompt then).
   */
  async prompt(
    blocks: readonly ContentBlock[],
    signal?: AbortSignal,
    started?: (messageId: string) => void,
  ): Promise<PromptResponse> {
    const failure = this.startFailure;
    this.startFailure = undefined;
    if (failure) throw failure;
    const content = this.toClaude(blocks);
    const mcpCommand = parseMcpCommand(blocks);
    if (mcpCommand) return this.runMcpCommand(mcpCommand, signal, started);
    return this.turns.prompt(content, signal, started);
  }

  /** `_session/steering`: the message joins the running turn, or starts one (steering.ts). */
  steer(blocks: readonly ContentBlock[], idleBehavior?: string): SteeringResponse {
    const host = { client: this.client, currentTurn: () => this.turns.current };
    return steer(
      {
        ...host,
        query: () => this.query,
        prompt: (b) => this.prompt(b),
        toClaude: (b) => this.toClaude(b),
      },
      blocks,
      idleBehavior,
    );
  }

  /** A prompt's content for Claude Code, refused when `/model` names no model. */
  private toClaude(blocks: readonly ContentBlock[]): UserContentBlock[] {
    const content = promptToClaude(blocks);
    checkModelCommand(content, this.configuration?.knownModels ?? []);
    return content;
  }

  /** `/mcp` waits its turn like any prompt, so its answer never lands inside another turn. */
  private runMcpCommand(
    command: McpCommand,
    signal?: AbortSignal,
    started?: (messageId: string) => void,
  ) {
    return this.turns.exclusive((query, s) => this.mcp.run(command, query, s), signal, started);
  }

  /** `session/cancel` on one of this session's child sessions: that subagent stops. */
  cancelSubagent(childSessionId: string): boolean {
    return this.subagents.stop(childSessionId);
  }

  /** Cancels the running prompt and the ones queued behind it. */
  cancel(): void {
    this.turns.cancel();
  }

  /** Cancels everything and ends the Claude process. Closing twice is harmless. */
  close(): void {
    if (this.closed) return;
    this.idle.cancel();
    this.titles.stop();
    this.cancel();
    this.closed = true;
    this.terminals.close();
    this.options.client.close();
    const query = this.query;
    this.query = undefined;
    query?.close();
  }

  private closeIfIdle(): void {
    // Background work (a subagent, a command) would die with the process.
    if (this.closed || this.turns.busy || !this.query || this.activity.busy) return;
    log.debug(`session ${this.id}: idle; closing its Claude Code process`);
    this.restartQuery();
  }

  /**
   * The client set another provider: the process goes when the session is idle, and a turn
   * that waits for it starts on a new one, resuming the conversation. Background work (a
   * command, a subagent) keeps the old process until it ends, as it would die with it.
   */
  reroute(provider: ProviderLaunch | undefined, models: readonly ModelInfo[] | undefined): void {
    this.provider = provider;
    this.rerouted = true;
    if (!this.turns.busy) this.restartIfRerouted();
    // The picker offers the new provider's models (a gateway's), else Claude Code's.
    this.providerModels = models;
    const offered = models ?? this.initialization?.models ?? this.options.models.known;
    void this.send(async () => this.configuration?.offerModels(offered));
  }

  private restartIfRerouted(): void {
    if (!this.rerouted || !this.query || this.activity.busy) return;
    log.debug(`session ${this.id}: the provider changed; its Claude Code process is replaced`);
    this.rerouted = false;
    this.restartQuery();
  }

  /** The process a turn sends its prompt to: started now if there is none. */
  private liveQuery(): ClaudeQuery {
    this.restartIfRerouted();
    return this.query ?? this.startQuery(this.configuration?.current.mode ?? "default");
  }

  private startQuery(mode: string, fresh: { exactSessionId?: boolean } = {}): ClaudeQuery {
    this.rerouted = false; // a process started now has the provider's environment
    const options = sessionQueryOptions({
      ...this.options,
      provider: this.provider,
      client: this.options.client.capabilities,
      conversation: this.hasTranscript
        ? { resume: this.claudeSessionId }
        : { sessionId: this.claudeSessionId, ...fresh },
      mode,
      configuration: this.configuration,
      canUseTool: this.canUseTool,
      onElicitation: this.watchdog.pausedWhileClientAnswers(this.mcp.onElicitation),
      ...this.subagents.queryOptions(),
      setup: this.options.setup,
    });
    const query = this.options.startQuery(options);
    this.query = query;
    this.usage.startNewProcess();
    void this.consumer.consume(query);
    return query;
  }

  private restartQuery(): void {
    const query = this.query;
    this.query = undefined;
    query?.close();
  }

  /** What a listing shows of it: work running, or how the last prompt ended. */
  get state(): RowState {
    if (this.turns.busy || this.activity.busy) return "running";
    return this.lastTurnFailed ? "failed" : "idle";
  }

  /** The client retitled the conversation: the title it saved is published as any other. */
  titleChanged(): Promise<void> {
    return this.titles.afterOpen();
  }

  /** A message that is neither a result nor a system message: session updates. */
  private async show(message: Exclude<SDKMessage, SystemMessage | SDKResultMessage>) {
    if (message.type === "rate_limit_event") {
      const notice = this.rateLimits.report(message.rate_limit_info);
      if (notice) await this.send(() => this.options.client.sendNotice(notice));
      return this.sendUsage(this.usage.update());
    }
    const turn = this.turns.current?.isFinished ? undefined : this.turns.current;
    if (message.type === "assistant" && !message.parent_tool_use_id) {
      if (message.error && turn) turn.apiError = message.error;
      // Claude Code's synthetic error message: the error reaches the client as the
      // prompt's JSON-RPC error, not as words from Claude.
      // In a turn Claude Code started itself, its result's notice carries the error.
      if (message.error && message.message.model === SYNTHETIC_MODEL) return;
      this.plans.observe(message.message.content);
      this.usageCommand.observe(message);
    }
    await this.send(() => this.stream.handle(message));
    if (message.type === "user") await this.send(() => this.subagents.toolResults(message));
    if (message.type === "stream_event" && !message.parent_tool_use_id) {
      this.usage.observe(message.event);
      // Each API call's end moves the context size: the client hears it then, not only at
      // the end of the turn (the window is known from the first result on).
      if (message.event.type === "message_delta") await this.sendUsage(this.usage.update());
    }
  }

  private async endTurn(turn: Turn, result: SDKResultMessage): Promise<void> {
    this.usage.observeResult(result, undefined);
    turn.usage = addTurnUsage(turn.usage, result);
    const steered = awaitsSteer(turn, result);
    if ((await this.plans.continueTurn(turn)) || steered) return;
    turn.closing = true; // a steer from now on starts a turn of its own (steering.ts)
    // Asking Claude Code costs a round trip: before the answer only after a slash command
    // (`/model` must show when its turn ends), after it otherwise (a fallback).
    const command = isSlashCommand(turn.prompt);
    if (command) await this.followModel();
    const usage = this.usageCommand.addendum(result, this.rateLimits.windows);
    if (usage)
      await this.send(() => this.options.client.sendAgentText(usage.text, usage.messageId));
    if (!turn.isSettled) await this.sendUsage(this.usage.update());
    const limit = limitNotice(result, this.options.setup.options);
    if (limit) await this.send(() => this.options.client.sendNotice(limit));
    const outcome = outcomeOfResult(result, turn, this.rateLimits.state);
    this.lastTurnFailed = "error" in outcome;
    const shown = "error" in outcome ? accountErrorNotice(outcome.error) : undefined;
    if (shown) await this.send(() => this.options.client.sendNotice(shown));
    await this.turns.settle(turn, outcome);
    turn.finish();
    if (!command) void this.followModel();
    this.titles.afterTurn();
  }

  /** Drops the private conversation for a new one (a plan handoff); the transcript stays. */
  private newConversation(mode: PlanHandoff["mode"]): ClaudeQuery {
    const old = this.query;
    this.claudeSessionId = continuationId(this.claudeSessionId);
    this.hasTranscript = false;
    const query = this.startQuery(mode, { exactSessionId: true });
    old?.close();
    this.hasTranscript = true;
    this.stream.endTurn();
    return query;
  }

  /** The model option follows what Claude Code runs after a turn (`/model` in the chat, a fallback). */
  private async followModel(): Promise<void> {
    if (this.query) await this.configuration?.followModel(this.query);
  }

  /** Sends an update; a client that went away is logged, not fatal to the turn. */
  private async send(update: () => Promise<void>): Promise<void> {
    try {
      await update();
    } catch (error) {
      log.warn(`session ${this.id}: could not send an update`, error);
    }
  }

  private async sendUsage(usage: UsageUpdate | undefined): Promise<void> {
    if (usage)
      await this.send(() => this.options.client.updateUsage(this.rateLimits.withState(usage)));
  }

  /** A process that stopped answering is ended, and the session recovers as after a crash. */
  private onHung(query: ClaudeQuery, error: ClaudeNotRespondingError): void {
    log.warn(`session ${this.id}: ${error.message}`);
    query.terminate();
    void this.onQueryEnded(query, error);
  }

  private async onQueryEnded(query: ClaudeQuery, failure: unknown): Promise<void> {
    // A live process that ends before it started failed to start; one the session closed
    // or replaced meanwhile did not.
    if (this.startup?.isStarting(query) && this.query === query) {
      return this.startup.fail(query, failure);
    }
    if (this.ended.has(query)) return;
    this.ended.add(query);
    if (failure) log.warn(`session ${this.id}: Claude Code ended`, failure);
    const active = this.query === query;
    if (active) {
      this.query = undefined;
      void this.ownTurns.processEnded(failure);
    }
    void this.terminals.processEnded(query); // a replaced process's commands end with it too
    await this.tasks.processEnded(query); // and its background subagents
    query.close();
    // A replaced process ending late says nothing about the live one.
    if (!active && this.query) return;
    const turn = this.turns.current;
    if (!turn || turn.isFinished) return;
    // A process that died before it said anything for this turn (e.g. an idle process
    // that ended just as the prompt came) never saw the prompt: resume and send it again.
    // A hung one may have read it: it is not sent twice.
    const hung = failure instanceof ClaudeNotRespondingError;
    if (!hung && !turn.heardFromClaude && !turn.resent && !turn.cancelRequested && turn.prompt) {
      turn.resent = true;
      log.info(`session ${this.id}: Claude Code ended before the prompt reached it; resuming`);
      const query = this.startQuery(this.configuration?.current.mode ?? "default");
      query.send(userMessage(turn.prompt, turn));
      resendSteers(turn, query);
      return;
    }
    turn.abort.abort(new Error("Claude Code ended"));
    const outcome: TurnOutcome = turn.cancelRequested
      ? { stopReason: "cancelled" }
      : {
          error: hung
            ? failure
            : new ClaudeProcessExitedError(
                `Claude Code exited unexpectedly${failure instanceof Error ? `: ${failure.message}` : ""}. ` +
                  "The next prompt resumes the conversation.",
              ),
        };
    await this.turns.settle(turn, outcome);
    turn.finish();
  }
}
