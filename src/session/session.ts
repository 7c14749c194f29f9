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
import type { ProviderLaunch } from "../claude/provider-env.js";
import { taskOutputFile } from "../claude/task-output.js";
import type { CanUseTool, ModelInfo, UserContentBlock } from "../claude/types.js";
import { log } from "../logger.js";
import { parseMcpCommand, type McpCommand } from "../mcp/command.js";
import { SessionMcp } from "../mcp/session-mcp.js";
import { plansDirectory } from "../plan/plan-file.js";
import { ClaudeActivity } from "./background/claude-activity.js";
import { ClaudeTasks } from "./background/claude-tasks.js";
import { replaySession, savedSubagent } from "./background/subagent-replay.js";
import { Subagents } from "./background/subagents.js";
import { SessionTerminals } from "./background/terminals.js";
import { sessionEnvironment, sessionQueryOptions } from "./configuration/claude-env.js";
import { checkModelCommand } from "./configuration/model-ids.js";
import type { RowState } from "./lifecycle/history.js";
import { IdleClose } from "./lifecycle/idle-close.js";
import type { ConversationReader } from "./lifecycle/saved.js";
import { SessionProcess } from "./lifecycle/session-process.js";
import { SessionStartup } from "./lifecycle/session-startup.js";
import { Watchdog, watchdogBounds } from "./lifecycle/watchdog.js";
import { ClaudeMessageConsumer } from "./stream/consumer.js";
import { showLiveMessage } from "./stream/live-messages.js";
import { RateLimitReporter } from "./stream/rate-limits.js";
import { StreamTranslator } from "./stream/stream.js";
import { SystemMessages } from "./stream/system-messages.js";
import { claudeTitlesItself, TitleWatcher } from "./stream/titles.js";
import { ToolCallTracker } from "./stream/tool-calls.js";
import { UsageCommand } from "./stream/usage-command.js";
import { UsageTracker } from "./stream/usage.js";
import { OwnTurns } from "./turns/own-turns.js";
import { PlanHandoffs } from "./turns/plan-handoffs.js";
import { processEnded, processHung } from "./turns/process-ended.js";
import { promptToClaude } from "./turns/prompt.js";
import { steer } from "./turns/steering.js";
import { sessionCanUseTool } from "./turns/tool-gate.js";
import { endTurn } from "./turns/turn-end.js";
import { TurnQueue } from "./turns/turn-queue.js";
import { UNFINISHED } from "./turns/unfinished.js";
import type { SessionOptions } from "./options.js";

/**
 * One ACP session: one private Claude Code conversation at a time. Prompts run one at a
 * time in arrival order, each after any turn Claude Code started itself; the consumer
 * hands every Claude message to the turn that owns it, or shows it between turns. The
 * session builds its parts and connects them; what each does is in its room (README.md).
 */
export class Session {
  private sessionId: string;
  readonly cwd: string;
  private closed = false;
  /** Whether the last prompt failed (a listing shows it). */
  private lastTurnFailed = false;
  /** The models the provider's gateway serves: the picker offers these, not Claude Code's. */
  private providerModels: readonly ModelInfo[] | undefined;
  private claudeCapabilities: readonly string[] = [];
  private readonly process: SessionProcess;
  private readonly startup: SessionStartup;
  private readonly turns: TurnQueue;
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
  private readonly plans: PlanHandoffs;
  private readonly idle: IdleClose;
  private readonly titles: TitleWatcher;
  private readonly watchdog: Watchdog;
  private readonly mcp: SessionMcp;
  private readonly systemMessages: SystemMessages;
  private readonly activity = new ClaudeActivity(() => this.idle.schedule());
  private readonly subagents: Subagents;
  private readonly ownTurns: OwnTurns;
  private readonly consumer: ClaudeMessageConsumer;

  constructor(private readonly options: SessionOptions) {
    const { client, env, setup, transcripts, cwd } = options;
    const send = (update: () => Promise<void>) => this.send(update);
    const sendUsage = (usage: UsageUpdate | undefined) => this.sendUsage(usage);
    const query = () => this.process.current;
    const configuration = () => this.startup.requireConfiguration();
    const userTurn = () => (this.turns.current?.isFinished ? undefined : this.turns.current);
    this.sessionId = options.id;
    this.cwd = cwd;
    this.providerModels = options.providerModels;
    this.idle = new IdleClose(options.idleTimeoutMs, () => this.closeIfIdle());
    this.process = new SessionProcess(
      {
        id: () => this.id,
        queryOptions: (conversation, mode, provider) =>
          sessionQueryOptions({
            ...options,
            provider,
            client: client.capabilities,
            conversation,
            mode,
            configuration: this.startup.configuration,
            canUseTool: this.canUseTool,
            onElicitation: this.watchdog.pausedWhileClientAnswers(this.mcp.onElicitation),
            ...this.subagents.queryOptions(),
            setup,
          }),
        startQuery: options.startQuery,
        started: (started) => {
          this.usage.startNewProcess();
          void this.consumer.consume(started);
        },
        backgroundBusy: () => this.activity.busy,
      },
      options,
      options.provider,
    );
    this.subagents = new Subagents({
      children: client.children,
      tools: this.tools,
      cwd,
      query,
      savedAgent: (agentId) =>
        savedSubagent(transcripts, this.process.conversation, agentId, this.cwd),
    });
    this.plans = new PlanHandoffs(
      {
        currentTurn: () => this.turns.current,
        tools: this.tools,
        configuration,
        send,
        newConversation: (mode) => {
          const started = this.process.newConversation(mode);
          this.stream.endTurn();
          return started;
        },
      },
      plansDirectory(env),
    );
    this.systemMessages = new SystemMessages({
      client,
      configuration,
      capabilitiesReported: (capabilities) => (this.claudeCapabilities = capabilities),
      mcpServersReported: (servers) => this.mcp.observe(servers),
      elicitationComplete: (id) => this.mcp.elicitationComplete(id),
      send,
      compacted: (tokens) => this.sendUsage(this.usage.compacted(tokens)),
      taskEnded: (task) => this.terminals.taskEnded(task),
      foregroundTask: (task) => this.terminals.foregroundStarted(task),
    });
    this.titles = new TitleWatcher(
      {
        info: () => transcripts.info(this.process.conversation, this.cwd),
        generate: async (description) => this.process.current?.generateTitle(description),
        titlesItself: claudeTitlesItself(env),
      },
      (title, updatedAt) => client.updateSessionInfo({ title, updatedAt }),
    );
    const context = { cwd };
    this.terminals = new SessionTerminals(
      {
        client,
        send,
        process: query,
        backgroundTask: (toolUseId) => this.tasks.backgroundCommand(toolUseId),
        call: (toolUseId) => this.tools.get(toolUseId),
        taskOutputFile: (taskId) =>
          taskOutputFile(sessionEnvironment(env, setup), this.process.conversation, taskId),
      },
      cwd,
    );
    this.stream = new StreamTranslator(client, this.tools, context, this.terminals);
    this.watchdog = new Watchdog(watchdogBounds(env), query, (hung, error) =>
      processHung(processEnd, hung, error),
    );
    this.turns = new TurnQueue({
      id: () => this.id,
      closed: () => this.closed,
      client,
      tools: this.tools,
      stream: this.stream,
      terminals: this.terminals,
      activity: this.activity,
      tasks: this.tasks,
      watchdog: this.watchdog,
      query,
      liveQuery: () => this.process.live(this.mode()),
      promptSent: () => this.process.promptSent(),
      restartQuery: () => this.process.restart(),
      busy: () => this.idle.cancel(),
      idle: () => this.idle.schedule(),
      send,
    });
    const canUseTool = sessionCanUseTool({
      client,
      tools: this.tools,
      context,
      homeDir: env.HOME || homedir(),
      workingDirectories: [cwd, ...options.additionalDirectories],
      currentTurn: () => this.turns.current,
      planContext: () => ({
        availableModes: this.startup.configuration?.availableModeIds() ?? new Set(),
        ...(this.usage.usedPercent() === undefined
          ? {}
          : { contextUsedPercent: this.usage.usedPercent() }),
      }),
      plans: this.plans,
      claudeCapabilities: () => this.claudeCapabilities,
    });
    this.canUseTool = this.watchdog.pausedWhileClientAnswers(canUseTool);
    this.mcp = new SessionMcp({
      client,
      turnSignal: () => this.turns.current?.abort.signal,
      openToolCalls: () => this.tools.open(),
      query,
    });
    this.startup = new SessionStartup({
      ...options,
      id: () => this.id,
      resume: options.resume,
      providerModels: () => this.providerModels,
      process: this.process,
      turns: this.turns,
      closed: () => this.closed,
      rename: (sessionId) => {
        this.sessionId = sessionId;
        client.rebind(sessionId);
      },
      idle: () => this.idle.schedule(),
      send,
    });
    this.ownTurns = new OwnTurns({
      client: () => client,
      usage: this.usage,
      activity: this.activity,
      userTurnRuns: () => !!this.turns.current && !this.turns.current.isFinished,
      closeOpen: async () => {
        this.stream.endTurn();
        await this.turns.closeOpenToolCalls(() => UNFINISHED.noResult);
      },
      followModel: () => this.followModel(),
      afterTurn: () => this.titles.afterTurn(),
      send,
    });
    const processEnd = {
      ...this.parts(),
      id: () => this.id,
      mode: () => this.mode(),
    };
    const turnEnd = {
      ...this.parts(),
      setup,
      followModel: () => this.followModel(),
      failed: (failed: boolean) => (this.lastTurnFailed = failed),
      afterTurn: () => this.titles.afterTurn(),
      send,
      sendUsage,
    };
    const live = { ...this.parts(), userTurn, send, sendUsage };
    this.consumer = new ClaudeMessageConsumer(
      {
        isLive: (running) => this.process.current === running,
        userTurn,
        heard: () => this.watchdog.heard(),
        endUserTurn: (turn, result) => endTurn(turnEnd, turn, result),
        startOwnTurn: () => this.ownTurns.started(),
        endOwnTurn: (result) => this.ownTurns.ended(result),
        system: async (message) => {
          await this.send(() => this.subagents.system(message));
          await this.systemMessages.handle(message);
        },
        show: (message) => showLiveMessage(live, message),
        ended: (ended, failure) => processEnded(processEnd, ended, failure),
      },
      this.activity,
      this.tasks,
    );
  }

  /** The parts the rooms' functions take from the session. */
  private parts() {
    const { client } = this.options;
    const { process, startup, turns, terminals, tasks, ownTurns, stream, subagents } = this;
    const { usage, usageCommand, rateLimits, plans } = this;
    return {
      client,
      process,
      startup,
      turns,
      terminals,
      tasks,
      ownTurns,
      stream,
      subagents,
      usage,
      usageCommand,
      rateLimits,
      plans,
    };
  }

  /** The ACP session id: Claude's own id of the conversation. */
  get id(): string {
    return this.sessionId;
  }

  get client(): SessionClient {
    return this.options.client;
  }

  /**
   * Starts Claude Code without waiting for it to be ready: the session answers with the
   * modes and the models known so far, and what Claude Code reports follows.
   */
  start(): Promise<void> {
    return this.startup.start();
  }

  modes(): SessionModeState | undefined {
    return this.startup.configuration?.modes();
  }

  configOptions(): SessionConfigOption[] {
    return this.startup.configuration?.options() ?? [];
  }

  async setMode(modeId: string): Promise<void> {
    await this.startup.requireConfiguration().setMode(modeId, this.process.current);
  }

  async setConfigOption(configId: string, value: string | boolean): Promise<SessionConfigOption[]> {
    return this.startup.requireConfiguration().setOption(configId, value, this.process.current);
  }

  /** session/load: the whole saved conversation as updates, before the load is answered. */
  replay(transcripts: ConversationReader = this.options.transcripts): Promise<void> {
    const conversations = [...(this.options.earlier ?? []), this.process.conversation];
    return replaySession(
      { ...this.parts(), transcripts, cwd: this.cwd, children: this.client.children },
      conversations,
    );
  }

  /**
   * Tells the client which slash commands it can offer and the conversation's title, then
   * which MCP servers failed.
   */
  announce(): Promise<void> {
    return this.startup.announce({ titles: this.titles, mcp: this.mcp });
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
    const failure = this.startup.takeFailure();
    if (failure) throw failure;
    const content = this.toClaude(blocks);
    const mcpCommand = parseMcpCommand(blocks);
    if (mcpCommand) return this.runMcpCommand(mcpCommand, signal, started);
    return this.turns.prompt(content, signal, started);
  }

  /** `_session/steering`: the message joins the running turn, or starts one (steering.ts). */
  steer(blocks: readonly ContentBlock[], idleBehavior?: string): SteeringResponse {
    return steer(
      {
        client: this.client,
        currentTurn: () => this.turns.current,
        query: () => this.process.current,
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
    checkModelCommand(content, this.startup.configuration?.knownModels ?? []);
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
    this.process.restart();
  }

  private closeIfIdle(): void {
    // Background work (a subagent, a command) would die with the process.
    if (this.closed || this.turns.busy || !this.process.current || this.activity.busy) return;
    log.debug(`session ${this.id}: idle; closing its Claude Code process`);
    this.process.restart();
  }

  /**
   * The client set another provider: the process goes when the session is idle, and a turn
   * that waits for it starts on a new one, resuming the conversation. Background work (a
   * command, a subagent) keeps the old process until it ends, as it would die with it.
   */
  reroute(provider: ProviderLaunch | undefined, models: readonly ModelInfo[] | undefined): void {
    this.process.reroute(provider, !this.turns.busy);
    // The picker offers the new provider's models (a gateway's), else Claude Code's.
    this.providerModels = models;
    const offered = models ?? this.startup.initialization?.models ?? this.options.models.known;
    void this.send(async () => this.startup.configuration?.offerModels(offered));
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

  /** The mode a process started now runs in. */
  private mode(): string {
    return this.startup.configuration?.current.mode ?? "default";
  }

  /** The model option follows what Claude Code runs after a turn (`/model` in the chat, a fallback). */
  private async followModel(): Promise<void> {
    const query = this.process.current;
    if (query) await this.startup.configuration?.followModel(query);
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
}
